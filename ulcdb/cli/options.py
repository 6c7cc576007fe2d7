"""Options several commands share, each defined once: Typer ``Annotated`` types, the choices
of enumerated options as ``Literal`` types checked by the library's refusal
(``common.one_of``), and option groups, dataclasses of options that a command takes as one
parameter (``grouped``).

``ulcdb --help`` imports this module: nothing heavy (store, metrics, numpy) is imported here.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import os
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ulcdb.cli.common import Fmt, one_of
from ulcdb.ops.levels import LEVELS, WITH_ALL, level_choice

Case = Literal["all", "lc"]
Level = Literal["seg", "doc", "sys"]

TestbedOpt = Annotated[str | None, typer.Option("--testbed", "-t",
                                                help="Test bed (default: the only one).")]
MetricsOpt = Annotated[str | None, typer.Option(
    "-m", "--metrics", help="Metric set, metric name, or a comma-separated mix (default LEX).")]
SystemsOpt = Annotated[str | None, typer.Option(
    "-s", "--systems", help="System set or names, comma-separated (default: all systems).")]
RefsOpt = Annotated[str | None, typer.Option(
    "-r", "--refs", help="Reference set or names, comma-separated (default: all references).")]
FmtOpt = Annotated[Fmt, typer.Option("--format", "-f", help="Output format.",
                                      **one_of("format", [f.value for f in Fmt], Fmt))]
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", help="Processes (default: all "
                                             "cores).")]
RemakeOpt = Annotated[bool, typer.Option("--remake", help="Recompute stored scores.")]
CaseOpt = Annotated[Case | None, typer.Option(
    "--case", help="all (mixed) or lc (default: the test bed's config, else all).",
    **one_of("case", typing.get_args(Case)))]
AnnotatorOpt = Annotated[str, typer.Option(
    "--annotator", help="Annotation the linguistic metrics read: spacy (default), stanza, or a "
    "tool imported with `ulcdb ingest annotations --tool NAME`.  Other than the default, "
    "scores are stored under their own variant (e.g. case:mixed|ann:stanza).")]
AnnotatorModelOpt = Annotated[str | None, typer.Option(
    "--annotator-model", help="The annotator's model (default: its default one).")]
VerbnetOpt = Annotated[Path | None, typer.Option(
    "--verbnet", help="VerbNet 3.3 for TINE: NLTK's verbnet3.zip or its folder (default: "
    "$ULCDB_VERBNET, else NLTK's data).")]


def levels(allowed: tuple[str, ...]) -> dict[str, Any]:
    """A level option's keywords (-G's): the library's check of a level (any case), its one
    line; ``--help`` lists ``allowed``."""
    return {"parser": functools.partial(level_choice, allowed=allowed),
            "metavar": f"<{'|'.join(allowed)}>"}


LevelOpt = Annotated[str, typer.Option("-G", "--level", help="seg, doc, sys or all.",
                                       **levels(WITH_ALL))]
OneLevelOpt = Annotated[str | None, typer.Option(
    "-G", "--level", help="seg, doc or sys (default sys).", show_default=False,
    **levels(LEVELS))]


def use_verbnet(path: Path | None) -> None:
    """Point TINE (here and in the scoring processes it starts) at ``path``."""
    if path is not None:
        os.environ["ULCDB_VERBNET"] = str(path)


@dataclasses.dataclass(frozen=True)
class SelectionOpts:
    """-t -m -s -r: what to score or evaluate (``ulcdb.scoring.selection`` resolves the names)."""

    testbed: TestbedOpt = None
    metrics: MetricsOpt = None
    systems: SystemsOpt = None
    refs: RefsOpt = None


QarlaSystemsOpt = Annotated[str | None, typer.Option(
    "-s", "--systems", help="System set or names, comma-separated (default: all systems but "
    "those that are the text of a reference used, such as WMT20's Human-A.0 with ref-A).")]


@dataclasses.dataclass(frozen=True)
class QarlaSelectionOpts(SelectionOpts):
    """-t -m -s -r of the QARLA commands: by default they leave out a system that is a
    reference's own text (``ulcdb.ops.qarla``)."""

    systems: QarlaSystemsOpt = None


def grouped(command: Callable[..., None]) -> Callable[..., None]:
    """A command whose parameters include option groups, as Typer and Python callers see it.

    Each parameter annotated with a group (a dataclass whose fields are Typer options) stands
    for the group's options, in its place and with the defaults of the parameter's default
    instance (else the group's own); the command is called with one instance of the group.
    """
    own = inspect.signature(command, eval_str=True)
    groups: dict[str, Any] = {}
    params: list[inspect.Parameter] = []
    for param in own.parameters.values():
        group = param.annotation
        if not (isinstance(group, type) and dataclasses.is_dataclass(group)):
            params.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY))
            continue
        groups[param.name] = group
        defaults = group() if param.default is inspect.Parameter.empty else param.default
        hints = typing.get_type_hints(group, include_extras=True)
        params += [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                                     default=getattr(defaults, f.name), annotation=hints[f.name])
                   for f in dataclasses.fields(group)]
    signature = own.replace(parameters=params)

    @functools.wraps(command)
    def run(**kwargs: Any) -> None:
        bound = signature.bind(**kwargs)
        bound.apply_defaults()
        args = dict(bound.arguments)
        for name, group in groups.items():
            args[name] = group(**{f.name: args.pop(f.name) for f in dataclasses.fields(group)})
        command(**args)

    run.__signature__ = signature  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run

"""The commands of `ulcdb`, loaded lazily (issue 28): a command's module is imported and its
click command built only when that command runs or shows its help, so `ulcdb CMD` pays for
CMD alone, not for the 40 others.  `ulcdb --help` lists every command from the table below;
tests/cli/test_startup.py checks the table against the real commands."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

# name: (module under ulcdb.cli, where its command is: "register" for a module whose
# register(app) adds it, else the name of its Typer group), in the order of `ulcdb --help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("store", "register"),
    "info": ("store", "register"),
    "describe": ("store", "register"),
    "sql": ("store", "register"),
    "score": ("score", "register"),
    "demo": ("score", "register"),
    "queen": ("qarla", "register"),
    "king": ("qarla", "register"),
    "jack": ("qarla", "register"),
    "serve": ("serve", "register"),
    "annotate": ("annotate", "register"),
    "tune": ("tune", "register"),
    "compare": ("compare", "register"),
    "eval": ("eval", "register"),
    "report": ("report", "register"),
    "ingest": ("ingest", "app"),
    "list": ("store", "list_app"),
    "set": ("sets", "app"),
    "delete": ("delete", "app"),
    "export": ("export", "app"),
    "meta": ("meta", "register"),
}

# The first paragraph of each command's help (reflowed): what `ulcdb --help` shows.
SUMMARIES: dict[str, str] = {
    "init": "Create an empty store (`ingest` and `demo` also create a missing one; the other "
    "commands refuse it, but for `list metrics`, `list sets` and `describe`, which need none).",
    "info": "Summarise the store: test beds with their counts, criteria and metrics computed.",
    "describe": "Everything about one metric: what it computes, family, level, languages, "
    "range, the sets holding it, its reference implementation.",
    "sql": "Run a query against the store and print the result.",
    "score": "Compute missing scores, store them, and report metrics and ULC per level.",
    "demo": "The main job on the bundled sample: a fresh store, ingest, score, the ULC table.",
    "queen": "QUEEN of each system: how human-like its output is (QARLA).",
    "king": "KING of each metric and metric set: how well it tells human from automatic "
    "output.",
    "jack": "JACK of the test set: how reliable its references are for the metric set (QARLA).",
    "serve": "Browse the store in Datasette: every table and analysis view, canned queries, "
    "plots.",
    "annotate": "Annotate every distinct translation (systems and references) of a test bed.",
    "tune": "Tune TINE's alpha and beta on a development test bed and store the tuned metric.",
    "compare": "Is system A significantly better than B, and where? Paired tests for any "
    "metric.",
    "eval": "Score plain text files at once, as sacrebleu does: no store, nothing left behind.",
    "report": "Write one HTML file to share: systems with intervals and clusters, per-bucket "
    "and word-level comparisons, the meta-evaluation when there are human judgments, and the "
    "signature of every number. It opens in any browser without a network (scripts, styles "
    "and data are inside). Missing scores are computed first, as `ulcdb compare` does.",
    "ingest": "Bring test beds and human assessments into the store.",
    "list": "List what the store holds.",
    "set": "Named sets of metrics, systems, references or segments.",
    "delete": "Delete a test bed, a system or reference, or scores (one transaction each; "
    "says what goes and asks first).",
    "export": "Write scores (IQ-XML, mt-metrics-eval, WMT, NIST .scr, sacrebleu, COMET) and "
    "any table, view or query (CSV, TSV, Parquet, JSON).",
    "meta": "Meta-evaluate stored metric scores against human judgments: metrics x "
    "coefficients.",
}


def build(module: str, where: str) -> dict[str, Any]:
    """The click commands one entry of COMMANDS adds, built as the root app would."""
    mod = importlib.import_module(f"ulcdb.cli.{module}")
    app = typer.Typer()
    app.callback()(_no_callback)  # a group whatever the number of commands
    if where == "register":
        mod.register(app)
    else:
        app.add_typer(getattr(mod, where), name=next(
            n for n, (m, w) in COMMANDS.items() if (m, w) == (module, where)))
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return dict(group.commands)


def _no_callback() -> None:
    """The throw-away group that builds a module's commands."""


def summary(name: str) -> TyperCommand:
    """A stand-in holding only what the command list of `ulcdb --help` shows."""
    return TyperCommand(name=name, help=SUMMARIES[name])


class LazyCommands(MutableMapping[str, Any]):
    """The root group's commands: every name known at once, each command built (with the
    others of its module, each passed to ``prepare``) when first looked up, and kept."""

    def __init__(self, prepare: Callable[[Any], None]) -> None:
        self._prepare = prepare
        self._built: dict[tuple[str, str], dict[str, Any]] = {}
        self._done: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._done:
            if name not in COMMANDS:
                raise KeyError(name)
            key = COMMANDS[name]
            if key not in self._built:
                self._built[key] = build(*key)
                for command in self._built[key].values():
                    self._prepare(command)
            self._done[name] = self._built[key][name]
        return self._done[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._done[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError(f"the command {name!r} cannot be removed")

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*COMMANDS, *self._done]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*COMMANDS, *self._done]))

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self._done

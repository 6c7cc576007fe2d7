"""`ulcdb delete testbed|system|reference|scores`: take things out of the store, saying what
goes and asking first (--yes when there is no terminal to ask on)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ulcdb.cli.common import store_file
from ulcdb.cli.options import TestbedOpt
from ulcdb.errors import UlcdbError

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ulcdb.ops.delete import Plan

app = typer.Typer(help="Delete a test bed, a system or reference, or scores (one "
                  "transaction each; says what goes and asks first).", no_args_is_help=True)

YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking (needed "
                                      "when not on a terminal).")]


class NotConfirmed(UlcdbError):
    """A deletion the user did not confirm."""


def _carry_out(plan: Plan, yes: bool) -> None:
    from ulcdb.ops.delete import delete

    def confirm(what: str) -> None:
        if yes:
            return
        if not sys.stdin.isatty():
            raise NotConfirmed(f"would delete {what}: add --yes to delete without a "
                               "terminal to confirm on")
        if not typer.confirm(f"Delete {what}?"):
            raise NotConfirmed("nothing deleted")

    typer.echo(f"deleted {delete(store_file, plan, confirm)}")


@app.command("testbed")
def delete_testbed(
    name: Annotated[str, typer.Argument(help="The test bed.")],
    yes: YesOpt = False,
) -> None:
    """A test bed with everything in it: segments, documents, systems, references, scores,
    human assessments, named sets.  Example: ulcdb delete testbed wmt21-ende --yes"""
    from ulcdb.ops import delete

    _carry_out(delete.testbed(name), yes)


@app.command("system")
def delete_system(
    name: Annotated[str, typer.Argument(help="The system.")],
    testbed: TestbedOpt = None,
    yes: YesOpt = False,
) -> None:
    """A system with its texts, scores and human assessments; it leaves the named sets
    holding it.  Example: ulcdb delete system Online-W -t ende --yes"""
    from ulcdb.ops import delete

    _carry_out(delete.translator("system", name, testbed), yes)


@app.command("reference")
def delete_reference(
    name: Annotated[str, typer.Argument(help="The reference.")],
    testbed: TestbedOpt = None,
    yes: YesOpt = False,
) -> None:
    """A reference with its texts, its scores, every score against a reference set holding
    it (and those sets), its human assessments.  Example: ulcdb delete reference ref-D -y"""
    from ulcdb.ops import delete

    _carry_out(delete.translator("reference", name, testbed), yes)


@app.command("scores")
def delete_scores(
    metrics: Annotated[str, typer.Option("-m", "--metrics", help="Metric names, "
                                         "comma-separated (exact; no sets).")],
    testbed: TestbedOpt = None,
    targets: Annotated[str | None, typer.Option(
        "-s", "--systems", help="Only the scores of these systems or references, "
        "comma-separated (default: every translator).")] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", help="Only this variant, e.g. case:lc (default: every variant).")] = None,
    refset: Annotated[str | None, typer.Option(
        "--refset", help="Only scores against this reference set, e.g. ref-A or "
        "ref-A+ref-B (default: every set).")] = None,
    yes: YesOpt = False,
) -> None:
    """Stored scores of some metrics (computed or imported), at every level; `ulcdb score`
    computes computed ones again when asked.  Example: ulcdb delete scores -m BLEU --variant
    case:lc --yes"""
    from ulcdb.ops import delete

    _carry_out(delete.scores(metrics, testbed, targets, variant, refset), yes)

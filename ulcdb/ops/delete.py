"""`ulcdb delete ...` and ``Database.delete_*``: take a test bed, a translator or scores out
of the store.  Each deletion is planned on the store read (an unknown name fails before
anything is asked), confirmed by the caller, then applied in one transaction."""

from __future__ import annotations

from collections.abc import Callable

from ulcdb.errors import choice
from ulcdb.ingest.delete import (
    Deletion,
    ScoreFilter,
    plan_scores,
    plan_testbed,
    plan_translator,
)
from ulcdb.ops.access import Access
from ulcdb.scoring.selection import split_names
from ulcdb.store.database import Store

Plan = Callable[[Store], Deletion]
Confirm = Callable[[str], None]  # raises to stop a deletion it was told about


def delete(access: Access, plan: Plan, confirm: Confirm = lambda what: None) -> str:
    """Apply the deletion ``plan`` makes once ``confirm(what)`` returns; what went, and the
    space that gave back."""
    with access.read() as store:
        what = plan(store).what
    confirm(what)
    with access.write(f"the deletion of {what}") as store:
        deletion = plan(store)
        freed = deletion.apply(store)
    return f"{deletion.what}; {freed}"


def testbed(name: str) -> Plan:
    """A test bed with everything in it."""
    return lambda store: plan_testbed(store, name)


def translator(role: str, name: str, testbed: str | None = None) -> Plan:
    """A system or reference (``role``) with its texts, scores and assessments."""
    choice("role", role, ("system", "reference"))
    return lambda store: plan_translator(store, testbed or store.only_testbed(), name, role)


def scores(metrics: str, testbed: str | None = None, targets: str | None = None,
           variant: str | None = None, refset: str | None = None) -> Plan:
    """Stored scores of ``metrics`` (names, comma-separated), of ``targets`` only, of one
    variant or reference set only."""
    return lambda store: plan_scores(store, ScoreFilter(
        testbed or store.only_testbed(), tuple(split_names(metrics)),
        tuple(split_names(targets or "")), variant, refset))

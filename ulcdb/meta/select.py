"""Selections for a meta-evaluation: reference set, criterion and its scale, metrics, targets.

``ulcdb meta`` resolves its options with these; Python users may call them too.
"""

from __future__ import annotations

from ulcdb.errors import MetaError, NotFound
from ulcdb.meta.task import HUMAN_SET, Scale
from ulcdb.scoring.remedy import remedy
from ulcdb.scoring.selection import resolve_metrics, split_names, stored_set
from ulcdb.store.database import Store, named_query


def split(spec: str | None) -> list[str]:
    """Comma-separated names, blanks dropped (commas inside brackets kept)."""
    return split_names(spec or "")


def human_translations(store: Store, testbed_id: int) -> list[str]:
    """Translators that are human translations: references, and the stored system set
    'human' (human translations submitted as systems, e.g. WMT20's Human-B.0)."""
    refs = list(store.translators(testbed_id, "reference"))
    return list(dict.fromkeys(refs + (stored_set(store, testbed_id, "system", HUMAN_SET) or [])))


def scored_metrics(store: Store, testbed: str, refset: str, level: str) -> list[str]:
    return [r[0] for r in store.query(named_query("meta_scored_metrics"),
                                      [testbed, refset, level])]


def scored_refsets(store: Store, testbed: str) -> list[str]:
    return [r[0] for r in store.query(named_query("meta_scored_refsets"),
                                      [testbed, "reference"])]


def criteria(store: Store, testbed: str) -> list[str]:
    return [r[0] for r in store.query(named_query("meta_criteria"), [testbed])]


def criterion_scale(store: Store, testbed: str, criterion: str) -> Scale:
    """The criterion's scale (view criterion_scale): given at ingest, by its format, or
    unknown."""
    rows = store.query("select scale_min, scale_max, scale_source from criterion_scale "
                       "where testbed = ? and criterion = ?", [testbed, criterion])
    return Scale(*rows[0]) if rows else Scale()


def translators(store: Store, tid: int, spec: str | None) -> list[str]:
    """Names from set names or translator names of any role, comma-separated."""
    known = store.translators(tid)
    out: list[str] = []
    for item in split(spec):
        members = stored_set(store, tid, "system", item)
        if members is None:
            members = stored_set(store, tid, "reference", item)
        for name in members if members is not None else [item]:
            if name not in known:
                raise NotFound(f"no system, reference or system set named {name!r}")
            out.append(name)
    return list(dict.fromkeys(out))


def refset(store: Store, testbed: str, spec: str | None) -> str:
    """A stored reference-set name, the set ``spec`` names, or by default the full reference
    set (else the only reference set with scores)."""
    tid = store.testbed_id(testbed)
    stored = scored_refsets(store, testbed)
    if spec:
        return spec if spec in stored else "+".join(sorted(translators(store, tid, spec)))
    full = "+".join(sorted(store.translators(tid, "reference")))
    if full in stored or not stored:
        return full
    if len(stored) == 1:
        return stored[0]
    raise MetaError(f"the full reference set {full!r} has no scores; name one with -r "
                    f"({', '.join(stored)})")


def criterion(store: Store, testbed: str, given: str | None) -> str:
    known = criteria(store, testbed)
    if given:
        if given not in known:
            raise MetaError(f"no human assessments with criterion {given!r} in {testbed!r} "
                            f"(have: {', '.join(known) or 'none'})")
        return given
    if len(known) != 1:
        raise MetaError(f"name the human criterion with --criterion "
                        f"(have: {', '.join(known) or 'none; see `ulcdb ingest assessments`'})")
    return known[0]


def metrics(store: Store, testbed: str, refset_name: str, level: str,
            spec: str | None) -> tuple[tuple[str, ...], list[str]]:
    """The metrics ``spec`` names that have scores, and those it names that do not."""
    scored = scored_metrics(store, testbed, refset_name, level)
    if not spec:
        if not scored:
            raise MetaError(f"no {level}-level scores against {refset_name!r} are stored: "
                            + remedy(store, testbed, (), [refset_name], level))
        return tuple(scored), []
    wanted = resolve_metrics(store, store.testbed_id(testbed), spec)
    kept = tuple(m for m in wanted if m in scored)
    if not kept:
        raise MetaError(f"none of {', '.join(wanted)} has {level}-level scores against "
                        f"{refset_name!r}: " + remedy(store, testbed, wanted, [refset_name],
                                                      level, spec=spec))
    return kept, [m for m in wanted if m not in scored]


def targets(store: Store, testbed: str, systems: tuple[str, ...] | None,
            exclude: tuple[str, ...], include_human: bool
            ) -> tuple[tuple[str, ...] | None, dict[str, str]]:
    """The targets to correlate (None: every scored one) and those left out, with why.

    ``systems`` names the targets exactly (human translations too); without it every
    translator is a candidate, human translations only with ``include_human``.
    """
    tid = store.testbed_id(testbed)
    chosen = list(systems) if systems is not None else list(store.translators(tid))
    why: dict[str, str] = {}
    if systems is None and not include_human:
        why.update((n, "human translation") for n in human_translations(store, tid))
    why.update((n, "excluded") for n in exclude)
    if systems is None and not why:
        return None, {}
    return tuple(n for n in chosen if n not in why), {n: w for n, w in why.items()
                                                         if n in chosen}

"""Resolve -m / -s / -r / -T arguments: set names, member names, or a comma-separated mix."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from ulcdb.errors import Conflict, NotFound, StoreError
from ulcdb.metrics import registry
from ulcdb.metrics.base import Params
from ulcdb.store.database import Store, named_query
from ulcdb.store.names import lookalike, suggest


@dataclass(frozen=True)
class ScoreSelection:
    """What -t/-m/-s/-r/-T/--case resolve to (shared by score, queen, king, jack)."""

    testbed: str
    params: Params
    metrics: list[str]
    systems: list[str]
    refs: list[str]
    segments: list[int] | None
    notes: tuple[str, ...] = ()  # metrics left out for the target language, warnings


def select(store: Store, testbed: str | None, metrics: str | None, systems: str | None,
           refs: str | None, segments: str | None, lowercase: bool | None = None,
           annotator: str = "spacy", annotator_model: str | None = None) -> ScoreSelection:
    """Resolve a scoring selection; ``lowercase`` None: the test bed's CASE option.  Metrics
    that cannot score the target language are left out (refused when named)."""
    from ulcdb.metrics.languages import check_languages

    name = testbed or store.only_testbed()
    tid = store.testbed_id(name)
    ref_names = resolve_translators(store, tid, "reference", refs)
    if not ref_names:
        raise StoreError(f"test bed {name!r} has no reference: add one with `ulcdb ingest "
                         f"testbed --name {name} --ref NAME=FILE` (metrics compare with "
                         "references)")
    if lowercase is None:
        lowercase = testbed_lowercase(store, name)
    params = Params(lowercase=lowercase, annotator=annotator, annotator_model=annotator_model)
    _check_annotator(store, annotator, annotator_model)
    wanted = resolve_metrics(store, tid, metrics)
    languages = check_languages(store, tid, wanted, named_metrics(store, metrics), params)
    if not languages.kept:
        raise NotFound(f"metric selection {metrics or registry.DEFAULT_SET!r} holds no metric "
                       f"that can score target language {languages.lang!r}: "
                       + "; ".join(languages.reasons()))
    return ScoreSelection(testbed=name, params=replace(params, lang=languages.lang),
                     metrics=languages.kept,
                     systems=resolve_translators(store, tid, "system", systems),
                     refs=ref_names, segments=resolve_segments(store, tid, segments),
                     notes=tuple(languages.notes()))


def testbed_lowercase(store: Store, testbed: str) -> bool:
    """Whether the test bed's scores are of lowercased text unless asked otherwise: its CASE
    option as ingested (a ULC.config's CASE=lc), the case `ulcdb score` scores with."""
    options = store.scalar(named_query("testbed_options"), [testbed])
    return bool(json.loads(options or "{}").get("CASE", "all") == "lc")


def _check_annotator(store: Store, annotator: str, model: str | None) -> None:
    """An annotator other than the tools ulcdb runs must have an imported run: scores are
    stored under the annotation's variant, and one of no annotation would be a variant of
    nothing (every metric, BLEU too, was stored under ``ann:NAME``)."""
    from ulcdb.annotation.annotators import ANNOTATORS
    from ulcdb.annotation.storage import find_run

    if annotator not in ANNOTATORS and find_run(store, annotator, model) is None:
        run = f"{annotator}/{model}" if model else annotator
        raise NotFound(f"--annotator {annotator}: no annotation run {run!r} in the store "
                       f"(--annotator takes {', '.join(ANNOTATORS)} or a tool imported with "
                       f"`ulcdb ingest annotations --tool {annotator}`)")


def named_metrics(store: Store, spec: str | None) -> set[str]:
    """The items of ``-m`` that are metric names (not sets): asked for explicitly."""
    known = set(registry.metric_index()) | stored_metrics(store)
    return {item for item in split_names(spec or "") if item in known}


def stored_set(store: Store, testbed_id: int | None, kind: str, name: str) -> list[str] | None:
    """Members of a named set in the store (test-bed sets first, then global ones)."""
    rows = store.query(named_query("stored_set"), [kind, name, testbed_id])
    return list(rows[0][1]) if rows else None


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def stored_metrics(store: Store) -> set[str]:
    return {r[0] for r in store.query("select name from metric")}


# `-m ULC`: every table shows a ULC column, so users ask for it by name (`meta -m ULC` said
# "did you mean ULC_h?", a set of linguistic metrics).
ULC_IS_NO_METRIC = (
    "ULC is no metric of its own: it is computed over the metrics -m chooses (`ulcdb score -m "
    "BLEU,chrF` prints the ULC of BLEU and chrF); to meta-evaluate or compare one, store it as a "
    "metric with `ulcdb ingest scores` from the `ulc` SQL macro (docs: how-to/meta-evaluate.md, "
    "\"ULC as a metric\")")


def resolve_metrics(store: Store, testbed_id: int | None, spec: str | None) -> list[str]:
    """Metric names for ``-m``: metric names, then stored sets, then built-in sets.

    A metric name wins over a set of the same name (``BLEU`` is the metric, the family set
    is ``metrics_BLEU``).
    """
    known = set(registry.metric_index()) | stored_metrics(store)
    stored_sets = [r[0] for r in store.query("select name from named_set where kind = 'metric'")]
    out: list[str] = []
    for item in split_names(spec or registry.DEFAULT_SET):
        if item in known:
            out.append(item)
            continue
        members = stored_set(store, testbed_id, "metric", item)
        if members is None and item in registry.BUILTIN_SETS:
            members = [m for m in registry.BUILTIN_SETS[item] if m in known]
        if members is not None:
            out.extend(m for m in members if m in known)
        elif item.upper() == "ULC":
            raise NotFound(ULC_IS_NO_METRIC)
        else:
            raise NotFound(f"no metric or metric set named {item!r}"
                           f"{suggest(item, [*known, *registry.BUILTIN_SETS, *stored_sets])} "
                           "(see `ulcdb list metrics` and `ulcdb list sets`)")
    if not out:
        raise NotFound(f"metric selection {spec!r} holds no metric that ulcdb can compute")
    return _dedupe(out)


def resolve_translators(store: Store, testbed_id: int, role: str, spec: str | None) -> list[str]:
    """System (``-s``) or reference (``-r``) names; all of that role by default.  A
    reference set may also be named as every table prints it, ``ref-A+ref-C``."""
    available = store.translators(testbed_id, role)
    if not spec:
        return list(available)
    kind = "system" if role == "system" else "reference"
    out: list[str] = []
    for item in split_names(spec):
        members = None if item in available else stored_set(store, testbed_id, kind, item)
        if members is None and kind == "reference" and "+" in item and item not in available:
            members = [name.strip() for name in item.split("+")]
        for name in members if members is not None else [item]:
            if name not in available:
                raise NotFound(f"no {role} named {name!r}{suggest(name, available, 1)} "
                               f"(have: {', '.join(available)})")
            out.append(name)
    return _dedupe(out)


def check_set(store: Store, testbed_id: int | None, kind: str, name: str,
              members: list[str]) -> list[str]:
    """The members of a set about to be defined with ``ulcdb set define``, checked.

    A set may not take the name of what it would hide (a metric, a built-in metric set, a
    system or reference of the test bed), and every member must exist: metrics known to
    ulcdb or the store, translators of the test bed, segment ids or ranges in range.
    Members may also be given comma-separated.
    """
    items = [m for member in members for m in split_names(member)]
    if not items:
        raise NotFound(f"{kind} set {name!r} has no members")
    stored = [r[0] for r in store.query(named_query("set_names"), [kind, testbed_id])]
    twin = lookalike(name, stored)
    if twin is not None:  # -m X2 and -m x2 would name two sets by case alone
        raise Conflict(f"{name!r} differs from the stored {kind} set {twin!r} only by case or "
                       f"Unicode normalisation; redefine {twin!r} or choose another set name")
    if kind == "metric":
        known = set(registry.metric_index()) | stored_metrics(store)
        if name in known or name in registry.BUILTIN_SETS:
            raise Conflict(f"{name!r} is already a metric or built-in metric set; choose "
                           "another set name")
        other = lookalike(name, sorted(known | set(registry.BUILTIN_SETS)))
        if other is not None:  # 'bleu' beside BLEU: -m bleu the set, -m BLEU the metric
            raise Conflict(f"{name!r} differs from the metric or built-in metric set {other!r} "
                           f"only by case or Unicode normalisation: -m {name} and -m {other} "
                           "would differ by that alone; choose another set name")
        for m in items:
            if m not in known:
                raise NotFound(f"no metric named {m!r}{suggest(m, known)} "
                               "(see `ulcdb list metrics`)")
        return items
    if testbed_id is None:
        raise NotFound(f"a {kind} set belongs to a test bed: name it with -t")
    if kind == "segment":
        for token in items:
            if not _RANGE.fullmatch(token):
                raise NotFound(f"segment set members are ids or ranges like 1-10, not "
                               f"{token!r}")
        resolve_segments(store, testbed_id, ",".join(items))  # range check
        return items
    translators = set(store.translators(testbed_id, "system")) | set(
        store.translators(testbed_id, "reference"))
    if name in translators:
        raise Conflict(f"{name!r} is already a system or reference name; choose another "
                       "set name")
    alike = lookalike(name, translators)
    if alike is not None:  # -s SYSA would select the set where sysA was meant
        raise Conflict(f"{name!r} differs from the system or reference {alike!r} only by "
                       "case or Unicode normalisation; choose another set name")
    role = "system" if kind == "system" else "reference"
    available = store.translators(testbed_id, role)
    for m in items:
        if m not in available:
            raise NotFound(f"no {role} named {m!r} in the test bed")
    return items


_RANGE = re.compile(r"\d+(-\d+)?")


def resolve_segments(store: Store, testbed_id: int, spec: str | None) -> list[int] | None:
    """Segment ids for ``-T``: a stored segment set, ids and ranges like ``1-10,15``."""
    if not spec:
        return None
    n = store.scalar("select count(*) from segment where testbed_id = ?", [testbed_id])
    out: list[int] = []
    for item in split_names(spec):
        members = stored_set(store, testbed_id, "segment", item)
        for token in members if members is not None else [item]:
            lo, _, hi = token.partition("-")
            try:
                first, last = int(lo), int(hi or lo)
            except ValueError:
                raise NotFound(f"no segment set named {token!r}") from None
            if not 1 <= first <= last <= n:
                raise NotFound(f"segments {token} out of range 1..{n}")
            out.extend(range(first, last + 1))
    return sorted(set(out))


def split_names(spec: str) -> list[str]:
    """Comma-separated names, blanks dropped; a comma inside brackets belongs to the name
    (tuned metrics such as ``TINE[alpha=0.62,beta=0.02]``)."""
    return [s.strip() for s in re.split(r",(?![^\[]*\])", spec) if s.strip()]

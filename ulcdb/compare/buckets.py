"""Where a system is better: per bucket of segments (compare-mt's analyses), each system's
score and the same paired test as on the whole set (against the baseline, or every pair with
clusters), each bucket tested on its own segments with the task's seed."""

from __future__ import annotations

from dataclasses import replace

from ulcdb.compare.data import CompareError
from ulcdb.compare.run import MIN_UNITS, CompareReport, CompareTask, Fetches, run
from ulcdb.compare.where import where_segments
from ulcdb.compare.words import bucket_labels, bucket_of
from ulcdb.scoring.progress import Progress, silent
from ulcdb.scoring.selection import stored_set
from ulcdb.store.database import Store, named_query

BUCKETS = ("length", "doc", "domain", "genre", "orig-lang", "set:NAME", "where:SQL")
FIELDS = {"domain": "domain", "genre": "genre", "orig-lang": "origlang"}  # documents' columns
LENGTH_CUTS = (10, 20, 30, 40, 50, 60)  # compare-mt's default length buckets


LENGTH_LABELS = bucket_labels(LENGTH_CUTS)


def segment_labels(store: Store, task: CompareTask, by: str) -> dict[int, str]:
    """Each segment's bucket."""
    tid = store.testbed_id(task.testbed)
    if by == "length":
        ref = sorted(task.refset.split("+"))[0]
        rows = store.query(named_query("compare_length_words"), [tid, ref])
        return {s: LENGTH_LABELS[bucket_of(n, LENGTH_CUTS)] for s, n in rows}
    if by in ("doc", *FIELDS):
        labels = dict(store.query(named_query("compare_segment_field"), [tid, by]))
        if by in FIELDS and set(labels.values()) <= {"(none)"}:
            # its one bucket "(none)" would be the whole-set test again, shown as a split
            raise CompareError(f"--by {by}: no document of {task.testbed!r} has a {FIELDS[by]}, "
                               "so there is nothing to split by: give it in the --docs file's "
                               "columns or the XML's <doc> attributes at ingest")
        return labels
    if by.startswith("set:"):
        name = by[4:]
        members = stored_set(store, tid, "segment", name)
        if members is None:
            raise CompareError(f"no segment set named {name!r} (see `ulcdb list sets`)")
        inside = {int(m) for m in members}
        return {s: (f"in {name}" if s in inside else f"not in {name}")
                for s in _segments(store, tid)}
    if by.startswith("where:"):
        predicate = by[len("where:"):].strip()
        selected = where_segments(store, task.testbed, predicate)
        return {s: (f"where {predicate}" if s in selected else f"not ({predicate})")
                for s in _segments(store, tid)}
    raise CompareError(f"--by {by!r}: use one of {', '.join(BUCKETS)}")


def _segments(store: Store, tid: int) -> list[int]:
    return [r[0] for r in store.query("select seg_id from segment where testbed_id = ?", [tid])]


def run_by(store: Store, task: CompareTask, by: str, progress: Progress | None = None
           ) -> CompareReport:
    """The comparison of ``task`` within each bucket of ``by``: every result and pair carries
    its bucket; the buckets come in order (lengths ascending, else by name).  A bucket's
    test is the whole-set test on the bucket's segments (``task.segments`` still applies), so
    with the defaults it equals sacrebleu's on those segments."""
    labels = segment_labels(store, task, by)
    if task.segments is not None:
        labels = {s: b for s, b in labels.items() if s in task.segments}
    members: dict[str, set[int]] = {}
    for seg, bucket in labels.items():
        members.setdefault(bucket, set()).add(seg)
    out = CompareReport(task)
    small: list[str] = []
    fetched = Fetches()  # each metric read once for every bucket
    with (progress or silent)(task.steps * len(members)) as tick:
        for bucket in sorted(members, key=_order):
            part = run(store, replace(task, segments=frozenset(members[bucket])), fetched,
                       tick, bucket)
            _add(out, part, bucket, small)
    if small:
        units = "segments" if task.unit == "seg" else "documents"
        out.notes.insert(0, f"buckets with fewer than {MIN_UNITS} {units}, too few for a test "
                            f"(no interval, no p-value): {', '.join(small)}")
    return out


def _add(out: CompareReport, part: CompareReport, bucket: str, small: list[str]) -> None:
    """One bucket's results into the whole report; a bucket too small to test is named."""
    n = min(r.n_units for r in part.results)
    if n < MIN_UNITS:
        small.append(f"{bucket} ({n})")
    out.results += [replace(r, bucket=bucket) for r in part.results]
    out.pairs += [replace(p, bucket=bucket) for p in part.pairs]
    out.readings.update(part.readings)
    out.variants.update(part.variants)
    out.notes += [f"{bucket}: {note}" for note in part.notes]


def _order(label: str) -> tuple[int, str]:
    if label.startswith("<"):
        return (0, label)
    if label.startswith("["):
        return (int(label[1:].split(",")[0]), label)
    if label.startswith(">="):
        return (10**6, label)
    return (0, label)

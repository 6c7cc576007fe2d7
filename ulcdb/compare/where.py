"""The segments an SQL predicate selects: `--where` of `ulcdb compare` and `ulcdb meta`.

The predicate is an SQL boolean expression over the columns of the view ``segment_slice``
(``seg_id``, ``doc_id``, ``seg_in_doc``, ``source``, and the document's ``genre``,
``domain``, ``origlang``, ``doc_index``), e.g. ``length(source) > 200`` or
``domain = 'news' and seg_in_doc <= 3``.  It is the user's own SQL, run on a read-only
store against that one view.
"""

from __future__ import annotations

import re

import duckdb

from ulcdb.errors import UlcdbError
from ulcdb.store.database import Store, named_query

COLUMNS = ("seg_id", "doc_id", "seg_in_doc", "source", "genre", "domain", "origlang",
           "doc_index")


class WhereError(UlcdbError):
    """A --where predicate that cannot be evaluated or selects nothing."""


def where_segments(store: Store, testbed: str, predicate: str) -> frozenset[int]:
    """Segment ids of ``testbed`` for which ``predicate`` holds (one-line error if it is not
    valid SQL over the columns of ``segment_slice`` or selects no segment)."""
    sql = (f"select seg_id from (select {', '.join(COLUMNS)} from segment_slice "
           f"where testbed_id = ?) where {predicate}")
    try:
        rows = store.query(sql, [store.testbed_id(testbed)])
    except duckdb.Error as exc:
        first = str(exc).splitlines()[0]
        raise WhereError(f"--where {predicate!r}: {first}") from None
    if not rows:
        raise WhereError(f"--where {predicate!r} selects no segment of {testbed!r}"
                         + _unset_hint(store, testbed, predicate))
    return frozenset(int(r[0]) for r in rows)


def _unset_hint(store: Store, testbed: str, predicate: str) -> str:
    """Why a predicate on a document attribute selects nothing when the test bed has none:
    plain files with a docs.tsv of `seg_id doc_id` (the WMT21 shared data) give no domain."""
    named = [c for c in ("genre", "domain", "origlang")
             if re.search(rf"\b{c}\b", predicate, re.IGNORECASE)]
    if not named:
        return ""
    genre, domain, origlang = store.query(named_query("slice_fields_set"),
                                          [store.testbed_id(testbed)])[0]
    have = {"genre": genre, "domain": domain, "origlang": origlang}
    unset = [c for c in named if not have[c]]
    if not unset:
        return ""
    verb = "is" if len(unset) == 1 else "are"
    return (f" ({', '.join(unset)} {verb} not set for any of its documents: give it in the --docs "
            "file's columns or the XML's <doc> attributes at ingest)")

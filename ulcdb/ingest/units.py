"""Where a score or a human judgment sits in a test bed, and what is wrong when it sits
nowhere: one wording for the score loader (``ulcdb.interchange.load``) and the assessment
loader (``ulcdb.ingest.load_assessments``)."""

from __future__ import annotations

from ulcdb.store.database import Store, named_query


def unit_problem(store: Store, tid: int, level: str, doc_id: str | None, seg: int | None,
                 in_doc: str | None = None) -> str:
    """Why (``level``, ``doc_id``, ``seg``) names no unit of test bed ``tid``.

    ``seg`` is a test-bed segment id (seg level without ``doc_id``), a position in
    ``doc_id`` (seg level with it) or a document position (doc level without it);
    ``in_doc`` is the document a file puts a test-bed segment id in, if it says."""
    n_segs, n_docs = store.query(named_query("testbed_unit_counts"), [tid])[0]
    if doc_id is not None and not store.scalar(
            "select count(*) from document where testbed_id = ? and doc_id = ?", [tid, doc_id]):
        return f"unknown document {doc_id!r}"
    if level == "seg" and doc_id is not None:
        return f"document {doc_id!r} has no segment {seg}"
    if level == "seg":
        actual = store.scalar("select doc_id from segment where testbed_id = ? and seg_id = ?",
                              [tid, seg])
        if actual is not None:
            return f"segment {seg} is in document {actual!r} in the test bed, not in {in_doc!r}"
        return f"segment {seg} does not exist (test bed has 1..{n_segs})"
    if seg is None:
        return "a document-level score names no document (is it a segment-level row?)"
    return f"document number {seg} does not exist (test bed has 1..{n_docs})"

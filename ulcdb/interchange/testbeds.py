"""Scores-only test beds: segment layout and translators, no texts.

Score releases such as WMT20's metrics task carry no translations; a test bed for them has
its documents and segments (source ``''``) and translator rows without translation rows.
These helpers run inside the caller's transaction, so a failing import leaves no half-made
test bed behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from ulcdb.errors import Conflict
from ulcdb.ingest.load import validate
from ulcdb.ingest.model import TestbedData
from ulcdb.store.database import Store
from ulcdb.store.names import check_name, refuse_lookalike


def ensure_testbed(store: Store, data: TestbedData) -> tuple[int, bool]:
    """(testbed_id, created): an existing test bed must have the same documents and segments
    (its sources may hold texts); a missing one is created without texts."""
    validate(data)
    rows = store.query("select testbed_id from testbed where name = ?", [data.name])
    if rows:
        tid = int(rows[0][0])
        have = store.query("select seg_id, doc_id, seg_in_doc from segment where testbed_id = ? "
                           "order by seg_id", [tid])
        want = [(s.seg_id, s.doc_id, s.seg_in_doc) for s in data.segments]
        if have != want:
            raise Conflict(f"test bed {data.name!r} exists with another segment layout than "
                           f"{data.origin}")
        return tid, False
    tid = int(store.query(
        "insert into testbed (name, src_lang, tgt_lang, origin, options) values (?, ?, ?, ?, ?) "
        "returning testbed_id",
        [data.name, data.src_lang, data.tgt_lang, data.origin,
         json.dumps({**data.options, "texts": "none"})])[0][0])
    docs, segs = data.documents, data.segments
    store.insert_columns("document", {
        "testbed_id": [tid] * len(docs), "doc_id": [d.doc_id for d in docs],
        "doc_index": list(range(1, len(docs) + 1)), "genre": [d.genre for d in docs],
        "domain": [d.domain for d in docs], "origlang": [d.origlang for d in docs]})
    store.insert_columns("segment", {
        "testbed_id": [tid] * len(segs), "seg_id": [s.seg_id for s in segs],
        "doc_id": [s.doc_id for s in segs], "seg_in_doc": [s.seg_in_doc for s in segs],
        "source": [s.source for s in segs]})
    return tid, True


def ensure_translators(store: Store, testbed: str, roles: Mapping[str, str], origin: str,
                       where: Callable[[str], tuple[str, int | None]] | None = None
                       ) -> list[str]:
    """Add the translators (name -> role) the test bed lacks, without texts; an existing one
    with another role is a Conflict.  A new name must be one the command line can give back
    and unlike the test bed's others and the import's but for case or Unicode form
    ('online-A' beside 'Online-A'), as an ingested test bed's translators are; ``where``
    names the file and line a name comes from (else ``origin``).  Returns the names added."""
    tid = store.testbed_id(testbed)
    have = dict(store.query("select name, role from translator where testbed_id = ?", [tid]))
    for name, role in roles.items():
        if name in have and have[name] != role:
            raise Conflict(f"{name!r} is a {have[name]} in the test bed, the import needs a "
                           f"{role}")
    added = sorted(n for n in roles if n not in have)
    named = list(have)
    for name in added:
        path, line = where(name) if where is not None else (origin, None)
        check_name(roles[name], name, path, line)
        refuse_lookalike(path, roles[name], name, named, f" in test bed {testbed!r}", line)
        named.append(name)
    if added:
        store.insert_columns("translator", {
            "testbed_id": [tid] * len(added), "name": added,
            "role": [roles[n] for n in added], "origin": [origin] * len(added)})
    return added

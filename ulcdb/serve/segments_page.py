"""Segment scores on demand (/-/segments of `ulcdb serve`): the mirror keeps the segment
scores of the metrics browsing shows first, within a budget of rows (ulcdb.serve.mirror);
this page reads any metric's from the DuckDB store the mirror was built from, opened
read-only for one query.  While a writer holds the store (`ulcdb score`, `ingest`), the page
says so and which command holds it, and answers 503: try again when it ends."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datasette.utils.asgi import Response

from ulcdb.errors import UlcdbError
from ulcdb.store.database import Store, named_query

MAX_ROWS = 1000  # rows one page shows


@dataclass
class Segments:
    """What the page shows: the choice, the rows read, or why there are none."""

    testbed: str
    metric: str
    refset: str
    seg_id: int | None
    rows: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    busy: bool = False  # the store is held by a writer


def read_segments(store_path: Path, testbed: str, metric: str, refset: str,
                  seg_id: int | None, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
    """The segment scores of one test bed, metric and reference set (one segment or all, at
    most ``limit``), read from the store opened read-only."""
    with Store(store_path, read_only=True) as store:
        cur = store.con.execute(named_query("mirror_segment_scores"),
                                [testbed, metric, refset, seg_id, limit])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def held_by_writer(error: UlcdbError) -> bool:
    return "in use by another process" in str(error)


async def _values(db: Any, sql: str) -> list[str]:
    return [r[0] for r in (await db.execute(sql)).rows]


async def segments_page(request: Any, datasette: Any) -> Response:
    from ulcdb.serve.compare_page import store_path

    db = datasette.get_database()
    options = {
        "testbed": await _values(db, "select name from testbed order by name"),
        "metric": await _values(db, "select name from metric order by name"),
        "refset": await _values(db, "select distinct refset from stg_refset where "
                                    "refset_kind = 'reference' order by size desc, refset"),
    }
    args = request.args
    pick = {k: args.get(k) if args.get(k) in v else (v[0] if v else "")
            for k, v in options.items()}
    if "BLEU" in options["metric"] and args.get("metric") not in options["metric"]:
        pick["metric"] = "BLEU"
    raw = (args.get("seg_id") or "").strip()
    page = Segments(pick["testbed"], pick["metric"], pick["refset"],
                    int(raw) if raw.isdigit() else None)
    path = await store_path(db)
    if raw and not raw.isdigit():
        page.error = f"seg_id must be a segment number, not {raw!r}"
    elif path is None or not path.exists():
        page.error = ("the store this mirror was built from is not found: rebuild the mirror "
                      "(`ulcdb serve --refresh`)")
    else:
        try:
            page.rows = await asyncio.to_thread(read_segments, path, page.testbed, page.metric,
                                                page.refset, page.seg_id)
        except UlcdbError as exc:
            page.busy = held_by_writer(exc)
            page.error = (f"{exc}: segment scores the mirror does not keep are read from the "
                          "store, which a writer holds now" if page.busy else str(exc))
    html = await datasette.render_template("ulcdb_segments.html", {
        "page": page, "options": options, "database": db.name, "max_rows": MAX_ROWS},
        request=request)
    return Response.html(html, status=503 if page.busy else 200,
                         headers={"Retry-After": "10"} if page.busy else None)

"""The comparison page of `ulcdb serve` (/-/compare): `ulcdb compare` in the browser.

Choose a test bed, a metric, a reference set, the systems and a baseline (or none: every pair,
ranked in significance clusters), the test (paired bootstrap or approximate randomization)
and optionally a bucketing (``--by``).  The page shows each system's score with its 95%
interval and p-value (or cluster), the same numbers `ulcdb compare` prints, and plots the
scores with their intervals, whole set and per bucket.

The choices come from the SQLite mirror Datasette serves; the tests need the per-segment
sufficient statistics (BLEU, chrF and TER by their corpus formulas), which only the DuckDB
store holds, so the page opens the store the mirror was built from (its path is recorded in
the mirror's ``ulcdb_mirror`` table) read-only for the length of one computation.  Each
computation is bounded (ulcdb.serve.bounded): a child process with a time limit, stopped when
its client goes, a few at once, and its result cached per parameters and store modification
time.  Nothing is scored here: a metric must be stored.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasette.utils.asgi import Response

from ulcdb.compare import CompareReport, CompareTask, run, run_by
from ulcdb.compare.analysis import ANALYSES as ANALYSIS_NAMES
from ulcdb.compare.analysis import AnalysisTable, analyse
from ulcdb.compare.buckets import FIELDS
from ulcdb.compare.header import header_lines
from ulcdb.compare.run import ALPHA, METHODS, Result
from ulcdb.errors import UlcdbError
from ulcdb.metrics.base import Params
from ulcdb.scoring.scorer import variant_of
from ulcdb.scoring.selection import testbed_lowercase
from ulcdb.serve.bounded import Gone, Limits, Pool, watch_disconnect
from ulcdb.store.database import Store, named_query

BUCKETINGS = ("", "length", "doc", "domain", "genre", "orig-lang")
ANALYSES = ("", *ANALYSIS_NAMES)


@dataclass(frozen=True)
class Choice:
    """What the form asked for."""

    testbed: str
    metric: str
    refset: str
    systems: tuple[str, ...]
    baseline: str  # '' : every pair
    method: str
    by: str  # '' : the whole set only
    analysis: str = ""  # '' : none; word-freq or category (ulcdb.compare.analysis)


async def _values(db: Any, sql: str, params: dict[str, str] | None = None) -> list[str]:
    return [r[0] for r in (await db.execute(sql, params or {})).rows]


async def choices(db: Any, testbed: str | None) -> dict[str, list[str]]:
    testbeds = await _values(db, "select name from testbed order by name")
    bed = testbed if testbed in testbeds else (testbeds[0] if testbeds else "")
    p = {"testbed": bed}
    return {
        "testbed": testbeds,
        "metric": await _values(db, "select name from metric where metric_id in (select "
                                    "metric_id from sys_score join translator using "
                                    "(translator_id) join testbed using (testbed_id) where "
                                    "testbed.name = :testbed) order by name", p),
        "refset": await _values(db, "select refset from stg_refset where refset_kind = "
                                    "'reference' and testbed = :testbed order by size desc, "
                                    "refset", p),
        "system": await _values(db, "select distinct name from translator where role = "
                                    "'system' and testbed_id = (select testbed_id from testbed "
                                    "where name = :testbed) order by name", p),
        "method": list(METHODS),
        "by": await _bucketings(db, p),
        "analysis": list(ANALYSES),
    }


async def _bucketings(db: Any, p: dict[str, str]) -> list[str]:
    """The bucketings offered: a document field only when a document of the test bed has it
    (asked for all the same, in the URL, the comparison says why it cannot split by it)."""
    fields = set(await _values(db, named_query("serve_document_fields"), p))
    return [b for b in BUCKETINGS if b in fields or b not in FIELDS]


def _pick(args: Any, name: str, allowed: list[str], preferred: str = "") -> str:
    value = args.get(name) or ""
    if value in allowed:
        return value
    if preferred in allowed:
        return preferred
    return allowed[0] if allowed else ""


def read_choice(args: Any, options: dict[str, list[str]]) -> Choice:
    systems = tuple(s for s in args.getlist("system") if s in options["system"]) or tuple(
        options["system"])
    baseline = args.get("baseline") or ""
    if baseline not in systems:
        baseline = ""
    ordered = (baseline, *(s for s in systems if s != baseline)) if baseline else systems
    return Choice(_pick(args, "testbed", options["testbed"]),
                  _pick(args, "metric", options["metric"], "BLEU"),
                  _pick(args, "refset", options["refset"]), ordered, baseline,
                  _pick(args, "method", options["method"]), _pick(args, "by", list(BUCKETINGS)),
                  _pick(args, "analysis", options["analysis"]))


def _default_variant(store: Store, testbed: str) -> str:
    return variant_of(Params(lowercase=testbed_lowercase(store, testbed)))


Computed = tuple[CompareReport, CompareReport | None, AnalysisTable | str | None]


def compute(store_path: Path, choice: Choice) -> Computed:
    """The whole-set comparison, with a bucketing the one per bucket, and the word-level
    analysis asked for (run in a child process by ``POOL``)."""
    with Store(Path(store_path), read_only=True) as store:
        task = CompareTask(choice.testbed, (choice.metric,), choice.systems, choice.refset,
                           _default_variant(store, choice.testbed), choice.baseline or None,
                           method=choice.method, alpha=ALPHA)
        whole = run(store, task)
        buckets = run_by(store, task, choice.by) if choice.by else None
        extra: AnalysisTable | str | None = None
        if choice.analysis:
            try:
                extra = analyse(store, task, choice.analysis)
            except UlcdbError as exc:  # the comparison above still stands
                extra = str(exc)
        return whole, buckets, extra


POOL = Pool()


async def bounded_compute(store_path: Path, choice: Choice, limits: Limits,
                          gone: asyncio.Event | None = None) -> Computed:
    """``compute`` within ``limits``, reused for the same choice and store modification time
    (a changed store is read again)."""
    if POOL.limits != limits:
        POOL.limits = limits
    key = (str(store_path), store_path.stat().st_mtime, choice)
    result: Computed = await POOL.get(key, compute, (store_path, choice), gone)
    return result


def _record(r: Result) -> dict[str, Any]:
    return {"system": r.system, "bucket": r.bucket, "score": r.score, "mean": r.mean,
            "ci_low": r.ci_low, "ci_high": r.ci_high, "p_value": r.p_value,
            "significant": r.p_value is not None and r.p_value < ALPHA,
            "rank": r.rank or None, "cluster": r.cluster or None, "n_units": r.n_units}


def rows(report: CompareReport) -> list[dict[str, Any]]:
    """The table rows, formatted as `ulcdb compare` prints them."""
    out = []
    for r in report.results:
        out.append({
            "bucket": r.bucket or "", "n_units": r.n_units,
            "cluster": r.cluster or "", "rank": r.rank or "", "system": r.system,
            "is_baseline": report.task.baseline == r.system,
            "score": f"{r.score:.4f}",
            "interval": (f"{r.mean:.4f} ± {r.ci:.4f}" if r.mean is not None and r.ci is not None
                         else r.note),  # too few units: why there is no test
            "range": (f"[{r.ci_low:.4f}, {r.ci_high:.4f}]" if r.ci_low is not None
                      and r.ci_high is not None else ""),
            "p_value": "" if r.p_value is None else f"{r.p_value:.4f}",
            "significant": r.p_value is not None and r.p_value < ALPHA,
        })
    return out


def scores_spec(report: CompareReport, metric: str) -> dict[str, Any]:
    """Each system's score (point) and 95% bootstrap interval (rule)."""
    data = [_record(r) for r in report.results]
    y = {"field": "system", "type": "nominal", "sort": None, "title": None}
    spec = {
        "title": f"{metric}: score and 95% interval", "width": 520, "height": {"step": 22},
        "data": {"values": data}, "encoding": {"y": y},
        "layer": [
            {"mark": {"type": "rule"},
             "encoding": {"x": {"field": "ci_low", "type": "quantitative",
                                "scale": {"zero": False}, "title": metric},
                          "x2": {"field": "ci_high"}}},
            {"mark": {"type": "point", "filled": True, "size": 70},
             "encoding": {"x": {"field": "score", "type": "quantitative"},
                          "color": ({"field": "significant", "type": "nominal",
                                     "title": f"p < {ALPHA:g}"} if report.task.baseline
                                    else {"field": "cluster", "type": "ordinal"}),
                          "tooltip": _tooltip()}},
        ],
    }
    return _drop_empty_interval(spec, "ci_low")


def bucket_spec(report: CompareReport, metric: str, by: str) -> dict[str, Any]:
    """Score per bucket and system with intervals; filled where the system differs
    significantly from the baseline (or, without one, by cluster)."""
    data = [_record(r) for r in report.results]
    order = list(dict.fromkeys(r.bucket for r in report.results))
    x = {"field": "bucket", "type": "nominal", "sort": order, "title": by}
    offset = {"field": "system", "type": "nominal"}
    spec = {
        "title": f"{metric} per {by} bucket", "width": {"step": 16 * max(
            2, len(report.task.systems))}, "height": 320,
        "data": {"values": data},
        "encoding": {"x": x, "xOffset": offset,
                     "color": {"field": "system", "type": "nominal"}},
        "layer": [
            {"mark": {"type": "rule"},
             "encoding": {"y": {"field": "ci_low", "type": "quantitative",
                                "scale": {"zero": False}, "title": metric},
                          "y2": {"field": "ci_high"}}},
            {"mark": {"type": "point", "size": 60},
             "encoding": {"y": {"field": "score", "type": "quantitative"},
                          "fill": ({"condition": {"test": "datum.significant",
                                                  "field": "system", "type": "nominal",
                                                  "legend": None},
                                    "value": "white"} if report.task.baseline
                                   else {"field": "system", "type": "nominal",
                                         "legend": None}),
                          "tooltip": _tooltip(bucket=True)}},
        ],
    }
    return _drop_empty_interval(spec, "ci_low")


def analysis_spec(table: AnalysisTable, kind: str) -> dict[str, Any]:
    """Word accuracy per frequency bucket (F with compare-mt's interval), or each category's
    score, per system."""
    data = [dict(zip(table.columns, r, strict=True)) for r in table.rows]
    x: dict[str, Any]
    if kind == "word-freq":
        x = {"field": "bucket", "type": "nominal", "title": "frequency in the reference",
             "sort": list(dict.fromkeys(d["bucket"] for d in data))}
        y, low, high, title = "fmeas", "f_low", "f_high", "word F-measure by frequency"
    else:
        for d in data:
            d["category"] = f"{d['family']} {d['category']}"
        x = {"field": "category", "type": "nominal", "title": None, "sort": None}
        y, low, high, title = "score", "ci_low", "ci_high", "score per linguistic category"
    tooltip = [{"field": c} for c in table.columns]
    spec = {
        "title": title, "width": {"step": 12 * max(2, len({d["system"] for d in data}))},
        "height": 300, "data": {"values": data},
        "encoding": {"x": x, "xOffset": {"field": "system", "type": "nominal"},
                     "color": {"field": "system", "type": "nominal"}},
        "layer": [
            {"mark": {"type": "rule"},
             "encoding": {"y": {"field": low, "type": "quantitative", "title": y},
                          "y2": {"field": high}}},
            {"mark": {"type": "point", "filled": True, "size": 50},
             "encoding": {"y": {"field": y, "type": "quantitative"}, "tooltip": tooltip}},
        ],
    }
    return _drop_empty_interval(spec, low)


def _drop_empty_interval(spec: dict[str, Any], low: str) -> dict[str, Any]:
    """The interval layer (the first) only when some row has an interval: buckets under the
    minimum units have none, and a layer with no values leaves its scale without extent."""
    if not any(v.get(low) is not None for v in spec["data"]["values"]):
        spec["layer"] = spec["layer"][1:]
    return spec


def _tooltip(bucket: bool = False) -> list[dict[str, str]]:
    fields = [{"field": "system"}, {"field": "score", "format": ".4f"},
              {"field": "ci_low", "format": ".4f"}, {"field": "ci_high", "format": ".4f"},
              {"field": "p_value", "format": ".4f"}, {"field": "cluster"},
              {"field": "n_units"}]
    return ([{"field": "bucket"}] if bucket else []) + fields


async def store_path(db: Any) -> Path | None:
    try:
        got = await _values(db, "select value from ulcdb_mirror where key = 'store'")
    except Exception:  # noqa: BLE001 - a mirror of an older ulcdb has no such table
        return None
    return Path(got[0]) if got else None


async def compare_page(request: Any, datasette: Any) -> Response:
    from ulcdb.serve.plots import script_json

    db = datasette.get_database()
    options = await choices(db, request.args.get("testbed"))
    choice = read_choice(request.args, options)
    context: dict[str, Any] = {"choice": choice, "options": options, "error": None,
                               "rows": [], "scores_json": None, "buckets_json": None,
                               "bucket_rows": [], "database": db.name, "alpha": ALPHA,
                               "notes": [], "analysis": None, "analysis_json": None,
                               "analysis_error": None}
    path = await store_path(db)
    if path is None or not path.exists():
        context["error"] = ("the store this mirror was built from is not found: rebuild the "
                            "mirror (`ulcdb serve --refresh`)")
    elif len(choice.systems) < 2 or not choice.metric:
        context["error"] = "choose a metric with segment scores and at least two systems"
    else:
        gone = asyncio.Event()
        watcher = asyncio.ensure_future(watch_disconnect(request.receive, gone))
        try:
            whole, buckets, extra = await bounded_compute(
                path, choice, Limits.from_config(datasette.plugin_config("ulcdb")), gone)
        except Gone:  # no one to answer
            return Response.text("client gone", status=499)
        except UlcdbError as exc:
            context["error"] = str(exc)
        else:
            context["rows"] = rows(whole)
            context["header"] = _header(whole)
            context["scores_json"] = script_json(_schema(scores_spec(whole, choice.metric)))
            if isinstance(extra, str):
                context["analysis_error"] = extra
            elif extra is not None:
                context["analysis"] = extra
                context["analysis_json"] = script_json(_schema(analysis_spec(
                    extra, choice.analysis)))
            if buckets is not None:
                context["bucket_rows"] = rows(buckets)
                context["notes"] = buckets.notes
                context["buckets_json"] = script_json(
                    _schema(bucket_spec(buckets, choice.metric, choice.by)))
        finally:
            watcher.cancel()
    return Response.html(await datasette.render_template("ulcdb_compare.html", context,
                                                         request=request))


def _schema(spec: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", **spec}


def _header(report: CompareReport) -> str:
    return ". ".join(header_lines(report))

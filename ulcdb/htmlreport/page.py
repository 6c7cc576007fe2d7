"""The report as one HTML file: tables, Vega-Lite charts (vega's scripts inline, so it opens
without a network), the signatures and how it was made.  Every number cell carries
``data-*`` attributes naming what it is, so a test can check it against the CLI's JSON."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import jinja2

from ulcdb.compare import CompareReport
from ulcdb.compare.header import header_lines
from ulcdb.htmlreport.gather import META_COEFS, ReportData
from ulcdb.meta.report import LABELS, MetaReport
from ulcdb.serve.compare_page import analysis_spec, bucket_spec, rows, scores_spec
from ulcdb.serve.plots import script_json

HERE = Path(__file__).parent
VEGA = HERE.parent / "serve" / "static" / "vega"
SCRIPTS = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
COEFS = META_COEFS  # the report's meta table
# Past these a grid of buckets x systems reads better than points per bucket.
GRID_SYSTEMS, GRID_RESULTS = 6, 240


def render_report(data: ReportData) -> str:
    """The whole page as text."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    charts: list[tuple[str, str]] = []
    context = {
        "d": data, "testbed": data.testbed,
        "systems": _per_metric(data.whole, charts, "systems"),
        "buckets": {by: (part if isinstance(part, str)
                         else _per_metric(part, charts, f"by-{by}", by))
                    for by, part in data.buckets.items()},
        "analyses": {kind: (part if isinstance(part, str)
                            else _analysis(part, kind, charts))
                     for kind, part in data.analyses.items()},
        "meta": {lv: (part if isinstance(part, str) else _meta(part, lv, charts))
                 for lv, part in data.meta.items()},
        "header": header_lines(data.whole),
        "scripts": [(VEGA / name).read_text(encoding="utf-8").replace("</script", "<\\/script")
                    for name in SCRIPTS],
    }
    context["charts"] = charts
    return env.get_template("report.html").render(context)


def write_report(data: ReportData, out: Path) -> int:
    """Write the page to ``out`` (whole or not at all); its size in bytes."""
    text = render_report(data)
    tmp = out.with_name(f".{out.name}.part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out.stat().st_size


def _per_metric(report: CompareReport, charts: list[tuple[str, str]], prefix: str,
                by: str | None = None) -> list[dict[str, Any]]:
    """Per metric: the formatted rows (as the serve page shows them) and a chart."""
    out = []
    for metric in report.task.metrics:
        part = replace(report, results=[r for r in report.results if r.metric == metric])
        chart = f"{prefix}-{_slug(metric)}"
        if by is None:
            spec = scores_spec(part, metric)
        elif len(part.task.systems) > GRID_SYSTEMS or len(part.results) > GRID_RESULTS:
            spec = heatmap_spec(part, metric, by)
        else:
            spec = bucket_spec(part, metric, by)
        charts.append((chart, script_json(_schema(spec))))
        out.append({"metric": metric, "rows": rows(part), "chart": chart,
                    "reading": report.readings.get(metric, ""),
                    "notes": report.notes if by else []})
    return out


def heatmap_spec(report: CompareReport, metric: str, by: str) -> dict[str, Any]:
    """Many buckets (documents): a grid of buckets x systems coloured by the difference to
    the baseline in that bucket, a dot where it is significant (p < alpha)."""
    base = {r.bucket: r.score for r in report.results if r.system == report.task.baseline}
    values = [{"bucket": r.bucket, "system": r.system, "score": r.score,
               "delta": r.score - base[r.bucket] if r.bucket in base else None,
               "p_value": r.p_value, "n_units": r.n_units,
               "significant": r.p_value is not None and r.p_value < report.task.alpha}
              for r in report.results]
    order = list(dict.fromkeys(r.bucket for r in report.results))
    x = {"field": "bucket", "type": "nominal", "sort": order, "title": by}
    y = {"field": "system", "type": "nominal", "sort": None, "title": None}
    return {
        "title": f"{metric} per {by}: difference to {report.task.baseline}",
        "data": {"values": values}, "encoding": {"x": x, "y": y},
        "layer": [
            {"mark": "rect", "encoding": {
                "color": {"field": "delta", "type": "quantitative", "title": "difference",
                          "scale": {"scheme": "redblue", "domainMid": 0}},
                "tooltip": [{"field": "bucket"}, {"field": "system"},
                            {"field": "score", "format": ".4f"},
                            {"field": "delta", "format": ".4f"},
                            {"field": "p_value", "format": ".4f"}, {"field": "n_units"}]}},
            {"transform": [{"filter": "datum.significant"}],
             "mark": {"type": "point", "filled": True, "size": 12, "color": "black"}},
        ],
    }


def _analysis(table: Any, kind: str, charts: list[tuple[str, str]]) -> dict[str, Any]:
    chart = f"analysis-{kind}"
    charts.append((chart, script_json(_schema(analysis_spec(table, kind)))))
    return {"table": table, "chart": chart}


def _meta(report: MetaReport, level: str, charts: list[tuple[str, str]]) -> dict[str, Any]:
    coefs = [c for c in COEFS if c in report.task.coefs]
    records = report.records()
    table = [{"metric": r["metric"], "n": r["n_items"],
              "cells": [(c, _value(r.get(c)), _interval(r, c)) for c in coefs]}
             for r in records]
    chart = f"meta-{_slug(level)}"
    if report.task.level == "sys":
        charts.append((chart, script_json(_schema(_scatter(report)))))
    return {"summary": report.summary_lines() + report.warnings,  # warnings: stderr in the CLI
            "criterion": report.task.criterion,
            "level": report.task.level, "coefs": [(c, LABELS[c]) for c in coefs],
            "table": table, "chart": chart if report.task.level == "sys" else None}


def _scatter(report: MetaReport) -> dict[str, Any]:
    """Metric score against human score, one point per system, a panel per metric."""
    values = [{"metric": metric, "system": str(t), "human": float(h), "score": float(s)}
              for (metric, _), items in report.items.items()
              for t, h, s in zip(items.translator, items.human, items.score, strict=True)]
    return {"title": f"metric vs {report.task.criterion} (system level)",
            "data": {"values": values},
            "facet": {"field": "metric", "type": "nominal", "title": None},
            "columns": 3, "resolve": {"scale": {"y": "independent"}},
            "spec": {"width": 220, "height": 180, "mark": {"type": "point", "filled": True},
                     "encoding": {
                         "x": {"field": "human", "type": "quantitative",
                               "scale": {"zero": False}, "title": report.task.criterion},
                         "y": {"field": "score", "type": "quantitative",
                               "scale": {"zero": False}},
                         "tooltip": [{"field": "system"}, {"field": "human", "format": ".4f"},
                                     {"field": "score", "format": ".4f"}]}}}


def _value(v: object) -> str:
    return "-" if not isinstance(v, float) or math.isnan(v) else f"{v:.4f}"


def _interval(record: dict[str, Any], coef: str) -> str:
    lo, hi = record.get(f"{coef}_lo95"), record.get(f"{coef}_hi95")
    return "" if lo is None or hi is None else f"[{lo:.4f}, {hi:.4f}]"


def _schema(spec: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", **spec}


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name)

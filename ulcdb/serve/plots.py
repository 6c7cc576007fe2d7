"""A small Datasette plugin: plot pages rendering Vega-Lite specs with vega, vega-lite and
vega-embed served from ulcdb's own static folder (no CDN, works offline).

Pages: /-/plots (the list), /-/plots/system-scores, /-/plots/metric-human,
/-/plots/metric-correlation, and /-/compare (``ulcdb.serve.compare_page``).  The data are
queried server-side from the mirror and embedded in the spec, so each page is one request
plus three cached script files.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from datasette.utils.asgi import Response

from ulcdb.store.database import named_query

if TYPE_CHECKING:  # datasette ships no types: its hookimpl named as the pluggy marker it is
    from pluggy import HookimplMarker

    hookimpl = HookimplMarker("datasette")
else:
    from datasette import hookimpl

# Datasette's Database, Request and Datasette objects are untyped (Any). A Vega-Lite spec and
# the rows embedded in it are JSON objects.
Spec = dict[str, Any]
Rows = list[dict[str, Any]]
Params = dict[str, str]  # the plot's parameters, as chosen on the page


@dataclass(frozen=True)
class Plot:
    slug: str
    title: str
    description: str
    params: tuple[str, ...]


PLOTS = (
    Plot("system-scores", "System scores per metric",
         "Bars: each system's system-level score for the metric against the reference set "
         "(the metric's own corpus formula). Dot and whiskers: the mean of its segment scores "
         "with a 95% bootstrap interval (1000 resamples of the segments, seed 1234), where "
         "segment scores are stored.", ("testbed", "metric", "refset")),
    Plot("metric-human", "Metric vs human",
         "One point per scored output at the chosen level: the human score (mean over judges; "
         "at doc/sys level the ingested score, else the mean of segment judgments) against the "
         "metric score.", ("testbed", "metric", "criterion", "level", "refset")),
    Plot("metric-correlation", "Metric correlation heatmap",
         "Pearson correlation of every pair of metrics over the systems' scores at the chosen "
         "level and reference set: which metrics tell the same story.",
         ("testbed", "level", "refset")),
)
BY_SLUG = {p.slug: p for p in PLOTS}
LEVELS = ["sys", "doc", "seg"]


async def _values(db: Any, sql: str, params: list[str] | None = None) -> list[str]:
    return [r[0] for r in (await db.execute(sql, params or [])).rows]


async def _choices(db: Any) -> dict[str, list[str]]:
    return {
        "testbed": await _values(db, "select name from testbed order by name"),
        "metric": await _values(db, "select distinct metric from sys_interval union "
                                    "select name from metric where metric_id in "
                                    "(select metric_id from sys_score) order by 1"),
        "refset": await _values(db, "select refset from stg_refset where refset_kind = "
                                    "'reference' order by size desc, refset"),
        "criterion": await _values(db, "select distinct criterion from assessment order by 1"),
        "level": LEVELS,
    }


def _pick(request: Any, name: str, choices: list[str], preferred: str | None = None) -> str:
    value = request.args.get(name) or ""
    if value in choices:
        return value
    if preferred is not None and preferred in choices:
        return preferred
    return choices[0] if choices else ""


async def _system_scores(db: Any, p: Params) -> tuple[Spec, Rows]:
    rows = (await db.execute(named_query("plot_system_scores"), p)).rows
    data = [dict(r) for r in rows]
    better = "higher" if not data or data[0]["higher_is_better"] else "lower"
    y = {"field": "translator", "type": "nominal", "title": "system",
         "sort": {"field": "value", "order": "descending" if better == "higher" else "ascending"}}
    spec = {
        "title": f"{p['metric']} against {p['refset']} ({better} is better)",
        "width": 560, "height": {"step": 18},
        "data": {"values": data},
        "encoding": {"y": y},
        "layer": [
            {"mark": {"type": "bar", "opacity": 0.8},
             "encoding": {"x": {"field": "value", "type": "quantitative",
                                "title": f"{p['metric']} (system score)"},
                          "color": {"field": "role", "type": "nominal"},
                          "tooltip": [{"field": "translator"}, {"field": "value",
                                                                 "format": ".4f"},
                                      {"field": "seg_mean", "format": ".4f"},
                                      {"field": "lo", "format": ".4f"},
                                      {"field": "hi", "format": ".4f"}]}},
            {"mark": {"type": "rule", "color": "black"},
             "encoding": {"x": {"field": "lo", "type": "quantitative"}, "x2": {"field": "hi"}}},
            {"mark": {"type": "point", "filled": True, "color": "black"},
             "encoding": {"x": {"field": "seg_mean", "type": "quantitative"}}},
        ],
    }
    return spec, data


async def _metric_human(db: Any, p: Params) -> tuple[Spec, Rows]:
    level = p["level"]
    ingested = (await db.execute(
        "select count(*) from assessments where criterion = :criterion and level = :level "
        "and testbed = :testbed", p)).rows[0][0] > 0
    rows = (await db.execute(named_query("plot_metric_human"),
                             {**p, "ingested": int(ingested or level == "seg")})).rows
    data = [dict(r) for r in rows]
    spec = {
        "title": f"{p['metric']} vs {p['criterion']} ({level} level, {len(data)} points)",
        "width": 560, "height": 380,
        "data": {"values": data},
        "mark": {"type": "point", "filled": True, "opacity": 0.6},
        "encoding": {
            "x": {"field": "human", "type": "quantitative", "title": p["criterion"],
                  "scale": {"zero": False}},
            "y": {"field": "value", "type": "quantitative", "title": p["metric"],
                  "scale": {"zero": False}},
            "color": {"field": "translator", "type": "nominal",
                      "legend": {"columns": 2} if len(data) < 2000 else None},
            "tooltip": [{"field": "translator"}, {"field": "unit"}, {"field": "value"},
                        {"field": "human"}],
        },
    }
    return spec, data


async def _metric_correlation(db: Any, p: Params) -> tuple[Spec, Rows]:
    rows = (await db.execute(named_query("plot_metric_correlation"), p)).rows
    data = [dict(r) for r in rows]
    n_metrics = len({d["metric_a"] for d in data})
    step = 22 if n_metrics <= 30 else 12
    spec = {
        "title": f"Pearson between metrics ({p['level']} level, against {p['refset']})",
        "width": {"step": step}, "height": {"step": step},
        "data": {"values": data},
        "encoding": {"x": {"field": "metric_a", "type": "nominal", "title": None},
                     "y": {"field": "metric_b", "type": "nominal", "title": None}},
        "layer": [
            {"mark": "rect",
             "encoding": {"color": {"field": "pearson", "type": "quantitative",
                                    "scale": {"domain": [-1, 1], "scheme": "redblue"}},
                          "tooltip": [{"field": "metric_a"}, {"field": "metric_b"},
                                      {"field": "pearson", "format": ".3f"}, {"field": "n"}]}},
        ],
    }
    return spec, data


RENDER = {"system-scores": _system_scores, "metric-human": _metric_human,
          "metric-correlation": _metric_correlation}


def script_json(value: object) -> str:
    """JSON safe inside an inline <script>: '<', '>' and '&' (and the JavaScript line
    separators) escaped, so a name such as '</script><script>...' stays data."""
    text = json.dumps(value, default=str)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


async def plot_page(request: Any, datasette: Any) -> Response:
    slug = request.url_vars["slug"]
    plot = BY_SLUG.get(slug)
    if plot is None:
        return Response.html("no such plot", status=404)
    db = datasette.get_database()
    choices = await _choices(db)
    preferred = {"metric": "BLEU", "level": "sys" if slug != "metric-human" else "seg"}
    params = {name: _pick(request, name, choices[name], preferred.get(name))
              for name in plot.params}
    spec, data = await RENDER[slug](db, params)
    spec["$schema"] = "https://vega.github.io/schema/vega-lite/v5.json"
    return Response.html(await datasette.render_template("ulcdb_plot.html", {
        "plot": plot, "plots": PLOTS, "params": params, "choices": choices,
        "spec_json": script_json(spec), "n_rows": len(data),
        "database": db.name,
    }, request=request))


async def plots_index(request: Any, datasette: Any) -> Response:
    return Response.html(await datasette.render_template(
        "ulcdb_plots.html", {"plots": PLOTS}, request=request))


@hookimpl
def register_routes() -> list[tuple[str, Callable[[Any, Any], Awaitable[Response]]]]:
    from ulcdb.serve.compare_page import compare_page
    from ulcdb.serve.segments_page import segments_page

    return [(r"^/-/plots$", plots_index), (r"^/-/plots/(?P<slug>[a-z-]+)$", plot_page),
            (r"^/-/compare$", compare_page), (r"^/-/segments$", segments_page)]

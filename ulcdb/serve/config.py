"""What `ulcdb serve` hands Datasette: metadata (datasette/metadata.yml), the canned queries
(datasette/canned_queries/*.sql) and the command line."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ulcdb.errors import InputError
from ulcdb.serve.bounded import Limits
from ulcdb.store.database import data_dir

HERE = Path(__file__).parent
HEADER = re.compile(r"^--\s*(title|description|params|pivot):\s*(.*)$")


@dataclass(frozen=True)
class CannedQuery:
    name: str
    title: str
    description: str
    params: tuple[str, ...]
    sql: str
    pivot: tuple[str, str] | None = None


def read_query(path: Path) -> CannedQuery:
    """A canned query file: header comments ``-- title:``, ``-- description:``,
    ``-- params: a, b`` and optionally ``-- pivot: COLUMN VALUE``, then the SQL."""
    head: dict[str, str] = {}
    pivot: tuple[str, str] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = HEADER.match(line)
        if not m:
            if line.strip() and not line.startswith("--"):
                break
            continue
        head[m.group(1)] = m.group(2).strip()
        if m.group(1) == "pivot":
            match head["pivot"].split():
                case [column, value]:
                    pivot = column, value
                case words:
                    raise InputError(path, number, f"-- pivot wants two words, COLUMN VALUE, "
                                                   f"not {len(words)}: {head['pivot']!r}")
    params = tuple(p.strip() for p in head.get("params", "").split(",") if p.strip())
    return CannedQuery(path.stem, head.get("title", path.stem), head.get("description", ""),
                       params, path.read_text(encoding="utf-8"), pivot)


def load_queries(folder: Path | None = None) -> list[CannedQuery]:
    folder = folder or data_dir("datasette") / "canned_queries"
    return [read_query(p) for p in sorted(folder.glob("*.sql"))]


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _quote_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def expand_pivot(query: CannedQuery, mirror: Path) -> str:
    """Replace ``{{pivot}}`` by one column per distinct value of the pivot column (e.g. one per
    system), the values read from the mirror's translators."""
    if not query.pivot:
        return query.sql
    column, value = query.pivot
    try:
        con = sqlite3.connect(f"file:{mirror}?mode=ro", uri=True)
        try:
            names = [r[0] for r in con.execute(
                "select name from translator group by name order by min(role) desc, name")]
        finally:
            con.close()
    except sqlite3.Error:  # a mirror still being prepared: no systems yet
        names = []
    cols = ",\n       ".join(
        f"max(case when {column} = {_quote_str(n)} then round({value}, 4) end) as "
        f"{_quote_ident(n)}" for n in names) or "null as no_scores"
    return query.sql.replace("{{pivot}}", cols)


def metadata(mirror: Path, queries: list[CannedQuery] | None = None) -> dict[str, Any]:
    """datasette/metadata.yml with its ``store`` block filed under the mirror's database name
    and the canned queries added."""
    text = (data_dir("datasette") / "metadata.yml").read_text(encoding="utf-8")
    meta: dict[str, Any] = yaml.safe_load(text)
    dbs = meta.setdefault("databases", {})
    block = dbs.pop("store", {})
    block["queries"] = {
        q.name: {"sql": expand_pivot(q, mirror), "title": q.title, "hide_sql": True,
                 "description": q.description, **({"params": list(q.params)} if q.params else {})}
        for q in (queries if queries is not None else load_queries())
    }
    dbs[mirror.stem] = block
    meta.update(provenance(mirror))
    return meta


def provenance(mirror: Path) -> dict[str, str]:
    """The footer's source and licence, from the test beds the store holds: their names,
    languages and where they were ingested from; each keeps its own licence."""
    try:
        lite = sqlite3.connect(f"file:{mirror}?mode=ro", uri=True)
        try:
            beds = lite.execute("select name, src_lang, tgt_lang, origin from testbed "
                                "order by testbed_id").fetchall()
        finally:
            lite.close()
    except sqlite3.Error:
        beds = []
    parts = [f"{name} ({src or '?'}-{tgt or '?'}, from {Path(origin).name if origin else '?'})"
             for name, src, tgt, origin in beds]
    return {"source": "test beds: " + ("; ".join(parts) if parts else "none yet"),
            "license": "ulcdb: Apache-2.0; each test bed, its references and human judgments "
                       "keep the licence they were released under",
            "license_url": "https://www.apache.org/licenses/LICENSE-2.0"}


def write_metadata(mirror: Path, out: Path, compare: Limits | None = None) -> Path:
    """The metadata file, with the comparison page's limits as the ``ulcdb`` plugin's
    configuration."""
    meta = metadata(mirror)
    limits = compare or Limits()
    meta.setdefault("plugins", {})["ulcdb"] = {"compare_time_limit": limits.seconds,
                                               "compare_at_once": limits.at_once}
    out.write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
    return out


def datasette_command(mirror: Path, metadata_file: Path, host: str, port: int) -> list[str]:
    """The Datasette command line: the mirror immutable (read-only, counted once), our
    metadata, plot plugin, templates and vendored Vega scripts."""
    return [
        sys.executable, "-m", "datasette", "serve",
        "-i", str(mirror),
        "--host", host, "--port", str(port),
        "--metadata", str(metadata_file),
        "--plugins-dir", str(HERE / "plugins"),
        "--template-dir", str(HERE / "templates"),
        "--static", f"ulcdb-static:{HERE / 'static'}",
        "--setting", "sql_time_limit_ms", "3000",
        "--setting", "facet_time_limit_ms", "400",
        "--setting", "suggest_facets", "off",
        "--setting", "default_page_size", "50",
        "--setting", "num_sql_threads", "2",
    ]

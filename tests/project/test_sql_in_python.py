"""SQL in Python is a ratchet (issue 26): views and named queries live in ``schema/`` (one per
``.sql`` file), and the SELECT/WITH statements left in a module are plumbing tied to its code
(lookups by id, statements built per table from a whitelist, wrappers around a query given
elsewhere, the macro calls of the mirror).  A module of the list may hold at most its count;
lower a count when you move a statement out, never raise it: put a new report-like query in
``schema/views`` (no parameters) or ``schema/queries`` (``ulcdb.store.named_query``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# A string that starts, after whitespace, with SELECT or with a WITH clause (not the English
# word "with"); pieces of an f-string count one each.
SQL_START = re.compile(r"\s*(select\b|with\s+(recursive\s+)?\w+\s+as\s*\()", re.IGNORECASE)

# module -> the most SELECT/WITH literals it may hold; every module of ulcdb/ is listed, so a
# new module holding SQL must be added here at its count (issue 26 moved views and named
# queries out in three passes: the package held 239 literals before the first, 188 before
# the third over ingest, interchange, meta, qarla and formats, 166 after it).
ALLOWED = {
    "ulcdb/__init__.py": 0,
    "ulcdb/__main__.py": 0,
    "ulcdb/annotation/__init__.py": 0,
    "ulcdb/annotation/annotate.py": 0,
    "ulcdb/annotation/annotators.py": 0,
    "ulcdb/annotation/boxer_import.py": 0,
    "ulcdb/annotation/derive.py": 0,
    "ulcdb/annotation/importers.py": 3,
    "ulcdb/annotation/model.py": 0,
    "ulcdb/annotation/spacy_adapter.py": 0,
    "ulcdb/annotation/stanza_adapter.py": 0,
    "ulcdb/annotation/storage.py": 4,
    "ulcdb/api.py": 4,
    "ulcdb/cli/__init__.py": 0,
    "ulcdb/cli/annotate.py": 0,
    "ulcdb/cli/common.py": 0,
    "ulcdb/cli/compare.py": 0,
    "ulcdb/cli/delete.py": 0,
    "ulcdb/cli/eval.py": 0,
    "ulcdb/cli/export.py": 0,
    "ulcdb/cli/ingest.py": 0,
    "ulcdb/cli/lazy.py": 0,
    "ulcdb/cli/main.py": 0,
    "ulcdb/cli/meta.py": 0,
    "ulcdb/cli/meta_protocol.py": 0,
    "ulcdb/cli/options.py": 0,
    "ulcdb/cli/outputs.py": 0,
    "ulcdb/cli/qarla.py": 0,
    "ulcdb/cli/report.py": 0,
    "ulcdb/cli/score.py": 1,
    "ulcdb/cli/screen.py": 0,
    "ulcdb/cli/serve.py": 0,
    "ulcdb/cli/sets.py": 0,
    "ulcdb/cli/store.py": 2,
    "ulcdb/cli/tune.py": 0,
    "ulcdb/compare/__init__.py": 0,
    "ulcdb/compare/analysis.py": 0,
    "ulcdb/compare/buckets.py": 1,
    "ulcdb/compare/data.py": 0,
    "ulcdb/compare/header.py": 0,
    "ulcdb/compare/measures.py": 0,
    "ulcdb/compare/plan.py": 0,
    "ulcdb/compare/run.py": 0,
    "ulcdb/compare/sacrebleu_rows.py": 0,
    "ulcdb/compare/where.py": 1,
    "ulcdb/compare/words.py": 0,
    "ulcdb/errors.py": 0,
    "ulcdb/formats/__init__.py": 0,
    "ulcdb/formats/assessments.py": 0,
    "ulcdb/formats/comet.py": 0,
    "ulcdb/formats/iqxml.py": 0,
    "ulcdb/formats/longtsv.py": 0,
    "ulcdb/formats/mtme.py": 2,
    "ulcdb/formats/mtme_fast.py": 0,
    "ulcdb/formats/nist/__init__.py": 0,
    "ulcdb/formats/nist/assessments.py": 0,
    "ulcdb/formats/nist/scr.py": 0,
    "ulcdb/formats/nist/sgml.py": 0,
    "ulcdb/formats/plain.py": 0,
    "ulcdb/formats/sacrebleu_json.py": 0,
    "ulcdb/formats/table.py": 6,
    "ulcdb/formats/ulcconfig.py": 0,
    "ulcdb/formats/wmt/__init__.py": 0,
    "ulcdb/formats/wmt/metrics_fast.py": 0,
    "ulcdb/formats/wmt/metrics_task.py": 1,
    "ulcdb/formats/wmt/mqm.py": 0,
    "ulcdb/formats/wmt/wmt20.py": 1,
    "ulcdb/formats/wmt/wmt20_da.py": 0,
    "ulcdb/formats/wmt/xml_testbed.py": 0,
    "ulcdb/htmlreport/__init__.py": 0,
    "ulcdb/htmlreport/gather.py": 0,
    "ulcdb/htmlreport/page.py": 0,
    "ulcdb/ingest/__init__.py": 0,
    "ulcdb/ingest/assessment_input.py": 0,
    "ulcdb/ingest/delete.py": 7,
    "ulcdb/ingest/load.py": 16,
    "ulcdb/ingest/load_assessments.py": 4,
    "ulcdb/ingest/model.py": 0,
    "ulcdb/ingest/mtme_testbeds.py": 0,
    "ulcdb/ingest/testbed_input.py": 0,
    "ulcdb/ingest/textio.py": 0,
    "ulcdb/ingest/units.py": 2,
    "ulcdb/interchange/__init__.py": 0,
    "ulcdb/interchange/fetch.py": 9,
    "ulcdb/interchange/fast.py": 0,
    "ulcdb/interchange/importer.py": 3,
    "ulcdb/interchange/load.py": 15,
    "ulcdb/interchange/model.py": 0,
    "ulcdb/interchange/testbeds.py": 3,
    "ulcdb/meta/__init__.py": 0,
    "ulcdb/meta/checks.py": 2,
    "ulcdb/meta/evaluate.py": 7,
    "ulcdb/meta/plan.py": 0,
    "ulcdb/meta/protocol.py": 1,
    "ulcdb/meta/protocol_report.py": 0,
    "ulcdb/meta/report.py": 0,
    "ulcdb/meta/select.py": 1,
    "ulcdb/meta/slice.py": 1,
    "ulcdb/meta/task.py": 0,
    "ulcdb/metrics/__init__.py": 0,
    "ulcdb/metrics/backoff_interpolation.py": 0,
    "ulcdb/metrics/base.py": 0,
    "ulcdb/metrics/bleu.py": 0,
    "ulcdb/metrics/catalogue.py": 2,
    "ulcdb/metrics/chrf.py": 0,
    "ulcdb/metrics/cp.py": 0,
    "ulcdb/metrics/dp.py": 0,
    "ulcdb/metrics/dr/__init__.py": 0,
    "ulcdb/metrics/dr/boxer.py": 0,
    "ulcdb/metrics/dr/builder.py": 0,
    "ulcdb/metrics/dr/drs.py": 0,
    "ulcdb/metrics/dr/family.py": 0,
    "ulcdb/metrics/dr/scoring.py": 0,
    "ulcdb/metrics/gtm.py": 0,
    "ulcdb/metrics/languages.py": 3,
    "ulcdb/metrics/ling.py": 0,
    "ulcdb/metrics/meteor/__init__.py": 0,
    "ulcdb/metrics/meteor/align.py": 0,
    "ulcdb/metrics/meteor/beam.py": 0,
    "ulcdb/metrics/meteor/family.py": 0,
    "ulcdb/metrics/meteor/lang.py": 0,
    "ulcdb/metrics/meteor/stem.py": 0,
    "ulcdb/metrics/meteor/synonyms.py": 0,
    "ulcdb/metrics/ne.py": 0,
    "ulcdb/metrics/ngram_counts.py": 0,
    "ulcdb/metrics/nist.py": 0,
    "ulcdb/metrics/overlap.py": 0,
    "ulcdb/metrics/registry.py": 0,
    "ulcdb/metrics/rouge.py": 0,
    "ulcdb/metrics/rouge_kernel.py": 0,
    "ulcdb/metrics/rouge_stem.py": 0,
    "ulcdb/metrics/sp.py": 0,
    "ulcdb/metrics/sr.py": 0,
    "ulcdb/metrics/ter.py": 0,
    "ulcdb/metrics/ter_kernel.py": 0,
    "ulcdb/metrics/tine.py": 0,
    "ulcdb/metrics/tine_lexica.py": 0,
    "ulcdb/metrics/tine_resources.py": 0,
    "ulcdb/metrics/wer_per.py": 0,
    "ulcdb/metrics/wordnet.py": 0,
    "ulcdb/oneshot/__init__.py": 0,
    "ulcdb/oneshot/inputs.py": 0,
    "ulcdb/oneshot/render.py": 0,
    "ulcdb/oneshot/run.py": 0,
    "ulcdb/ops/__init__.py": 0,
    "ulcdb/ops/access.py": 0,
    "ulcdb/ops/compare.py": 0,
    "ulcdb/ops/delete.py": 0,
    "ulcdb/ops/export.py": 0,
    "ulcdb/ops/levels.py": 0,
    "ulcdb/ops/meta.py": 0,
    "ulcdb/ops/qarla.py": 0,
    "ulcdb/ops/query.py": 0,
    "ulcdb/ops/score.py": 0,
    "ulcdb/ops/tune.py": 0,
    "ulcdb/qarla/__init__.py": 0,
    "ulcdb/qarla/measures.py": 4,
    "ulcdb/scoring/__init__.py": 0,
    "ulcdb/scoring/engines.py": 0,
    "ulcdb/scoring/progress.py": 0,
    "ulcdb/scoring/report.py": 2,
    "ulcdb/scoring/scorer.py": 6,
    "ulcdb/scoring/selection.py": 4,
    "ulcdb/scoring/workers.py": 0,
    "ulcdb/serve/__init__.py": 0,
    "ulcdb/serve/background.py": 0,
    "ulcdb/serve/bounded.py": 0,
    "ulcdb/serve/compare_page.py": 6,
    "ulcdb/serve/config.py": 2,
    "ulcdb/serve/mirror.py": 10,
    "ulcdb/serve/mirror_analyses.py": 1,
    "ulcdb/serve/mirror_copy.py": 1,
    "ulcdb/serve/mirror_parts.py": 4,
    "ulcdb/serve/mirror_sets.py": 0,
    "ulcdb/serve/plots.py": 5,
    "ulcdb/serve/plugins/ulcdb_plots.py": 0,
    "ulcdb/serve/plugins/ulcdb_preparing.py": 0,
    "ulcdb/serve/preparing.py": 0,
    "ulcdb/serve/readonly.py": 0,
    "ulcdb/serve/segments_page.py": 3,
    "ulcdb/serve/status.py": 1,
    "ulcdb/stats/__init__.py": 0,
    "ulcdb/stats/bootstrap.py": 0,
    "ulcdb/stats/correlations.py": 0,
    "ulcdb/stats/mt_metrics_eval.py": 0,
    "ulcdb/stats/sacrebleu_significance.py": 0,
    "ulcdb/store/__init__.py": 0,
    "ulcdb/store/database.py": 11,
    "ulcdb/store/models.py": 0,
    "ulcdb/store/names.py": 0,
    "ulcdb/tune/__init__.py": 0,
    "ulcdb/tune/tine.py": 0,
}


def sql_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string constant in ``path`` that starts a SELECT or WITH."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and SQL_START.match(node.value))


def counts(root: Path = REPO) -> dict[str, int]:
    """module (relative to ``root``) -> how many SELECT/WITH literals it holds, for every
    module of ``root/ulcdb`` that holds one."""
    found = {}
    for path in sorted((root / "ulcdb").rglob("*.py")):
        n = len(sql_literals(path))
        if n:
            found[path.relative_to(root).as_posix()] = n
    return found


def unlisted(found: dict[str, int]) -> dict[str, int]:
    """The modules of ``found`` that ALLOWED does not list."""
    return {m: k for m, k in found.items() if m not in ALLOWED}


def test_the_probe_counts_sql_and_not_prose(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('A = "select 1"\nB = f"""\n  WITH x AS (select {n}) select * from x"""\n'
                      'C = "with its texts"\nD = "selected"\nE = ("with", "by")\n')
    assert [line for line, _ in sql_literals(module)] == [1, 2]


def test_an_unlisted_module_with_sql_is_caught(tmp_path: Path) -> None:
    (tmp_path / "ulcdb" / "fresh").mkdir(parents=True)
    (tmp_path / "ulcdb" / "fresh" / "report.py").write_text('Q = "select 1"\n')
    (tmp_path / "ulcdb" / "fresh" / "plain.py").write_text('X = "selected"\n')
    assert unlisted(counts(tmp_path)) == {"ulcdb/fresh/report.py": 1}


def test_no_sql_creeps_back(capsys: pytest.CaptureFixture[str]) -> None:
    found = counts()
    with capsys.disabled():
        print(f"\nSQL literals in Python: {sum(found.values())} in {len(found)} modules "
              f"({sum(found.get(m, 0) for m in ALLOWED)} in the {len(ALLOWED)} ratcheted)")
    moved = [m for m in ALLOWED if not (REPO / m).exists()]
    assert not moved, f"{moved} moved: carry their entries in ALLOWED to their new names"
    new = unlisted(found)
    assert not new, "; ".join(
        f"{m} holds {k} SELECT/WITH literals and is not in ALLOWED: put its views and named "
        "queries in schema/ and list it with the count of plumbing left" for m, k in new.items())
    over = {m: found.get(m, 0) for m, n in ALLOWED.items() if found.get(m, 0) > n}
    assert not over, "; ".join(
        f"{m} holds {k} SELECT/WITH literals, at most {ALLOWED[m]} allowed (a view or named "
        "query belongs in schema/): " + ", ".join(
            f"line {line}: {' '.join(text.split())[:50]}" for line, text in sql_literals(REPO / m))
        for m, k in over.items())

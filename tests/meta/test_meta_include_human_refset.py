"""`ulcdb meta --include-human` on the default reference set: the judged human translations
are references of that set, so none can be a target, and the run correlated the MT systems
alone without a word (the walkthrough on WMT21 en-de: ref-A, ref-C and ref-D judged by MQM,
scores against ref-A+ref-C+ref-D).  The sample: DA judges ref-B, the reference set is
ref-A+ref-B+ref-C.  Expected numbers from plain SQL on the store and scipy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import scipy.stats

from tests.cli_helpers import json_of, sample_judged
from ulcdb.store.database import Store, named_query

NOTE = ("--include-human: ref-B is in the reference set ref-A+ref-B+ref-C, so not a target (a "
        "reference is not scored against itself): -r a set without it scores it as a system")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_judged(tmp_path_factory.mktemp("include_human_refset") / "s.duckdb",
                         "-m", "BLEU", "-G", "sys", "-f", "csv", "-j", "1")


def _meta(db: Path, *extra: str) -> dict[str, Any]:
    return dict(json_of(db, "meta", "-c", "DA-raw", "-m", "BLEU", "--coef", "pearson", "-B",
                        "0", "-f", "json", *extra))


def test_the_human_translation_in_the_reference_set_is_named(store: Path) -> None:
    out = _meta(store, "--include-human")
    assert NOTE in out["run"]["summary"]
    assert out["run"]["targets"] == ["sysA", "sysB", "sysC", "sysD"]
    con = duckdb.connect(str(store), read_only=True)
    try:
        human = dict(con.execute("select translator, avg(value) from assessments where "
                                 "criterion = 'DA-raw' group by 1").fetchall())
        bleu = dict(con.execute("select translator, value from scores where metric = 'BLEU' "
                                "and level = 'sys' and refset = 'ref-A+ref-B+ref-C'").fetchall())
    finally:
        con.close()
    systems = out["run"]["targets"]
    (row,) = out["results"]
    assert row["pearson"] == pytest.approx(scipy.stats.pearsonr(
        [human[s] for s in systems], [bleu[s] for s in systems])[0], abs=1e-12)


def test_without_include_human_no_such_note(store: Path) -> None:
    assert not any(line.startswith("--include-human")
                   for line in _meta(store)["run"]["summary"])


def test_the_judged_targets_are_read_once(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The targets a run misses and the note on the human translations in the reference set
    share one read of the judged translators (each read them: two reads)."""
    judged = named_query("meta_judged_translators")
    reads: list[object] = []
    query = Store.query

    def counted(self: Store, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        if sql == judged:
            reads.append(params)
        return query(self, sql, params)

    monkeypatch.setattr(Store, "query", counted)
    assert NOTE in _meta(store, "--include-human")["run"]["summary"]
    assert reads == [["sample", "sys", "DA-raw", "auto", 1, None]]

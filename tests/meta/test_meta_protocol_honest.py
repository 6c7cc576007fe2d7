"""`ulcdb meta --protocol wmt24` says what its columns rest on (issue 25, section 2): the
items each column used (SPA only the segments every system has) and mt-metrics-eval's
choice of human translations for the language pair, on the WMT21 samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from tests.meta.test_meta_honest import _ok, _sql


@pytest.fixture(scope="module")
def ende(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("protocol_honest") / "ende.duckdb"
    _ok(ulcdb(db, "ingest", "testbed", ende_sample / "segments_long.tsv", "--name", "ende",
              "--src-lang", "en", "--tgt-lang", "de"))
    _ok(ulcdb(db, "score", "-m", "BLEU", "-G", "seg", "-f", "csv", "-j", "1"))
    return db


@pytest.fixture(scope="module")
def ruen(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    sample = shared / "testbeds" / "wmt21_newstest2021_ruen" / "sample"
    if not (sample / "segments_long.tsv").exists():
        pytest.skip("ru-en sample not in shared data")
    db = tmp_path_factory.mktemp("protocol_honest") / "ruen.duckdb"
    _ok(ulcdb(db, "ingest", "testbed", sample / "segments_long.tsv", "--name", "ruen",
              "--src-lang", "ru", "--tgt-lang", "en"))
    _ok(ulcdb(db, "score", "-m", "chrF", "-G", "seg", "-f", "csv", "-j", "1"))
    return db



def test_wmt24_header_says_the_items_of_each_column(ruen: Path) -> None:
    """ru-en: DA for 64 segments, not every system judged on each; SPA keeps only the
    segments every system has (560 items), acc-t every item (632)."""
    out = json.loads(_ok(ulcdb(ruen, "meta", "--protocol", "wmt24", "-c", "DA-raw", "-m",
                               "chrF", "--bootstrap", "0", "-f", "json")))
    judged = _sql(ruen, "select seg_id, count(distinct translator) from assessments where "
                  "criterion = 'DA-raw' and level = 'seg' and role = 'system' group by 1")
    systems = _sql(ruen, "select count(distinct translator) from assessments where criterion "
                   "= 'DA-raw' and level = 'seg' and role = 'system'")[0][0]
    complete = sum(1 for _, n in judged if n == systems)
    items = sum(n for _, n in judged)
    bed = out["run"]["testbeds"]["ruen"]
    assert bed["column_items"] == {"sys_spa": complete * systems, "seg_acc_t": items}
    assert (complete * systems, items) == (560, 632)
    assert "ruen items per column: sys SPA 560, seg acc-t 632" in out["run"]["summary"]


def test_wmt24_header_states_mtme_choice_of_human_translations(ende: Path,
                                                                ruen: Path) -> None:
    """MTME's tasks.WMT24 runs en-de with human translations as systems (human=True) and
    the other pairs without: the header says which choice this run made and how to get
    the other."""
    out = json.loads(_ok(ulcdb(ende, "meta", "--protocol", "wmt24", "-c", "MQM", "-m", "BLEU",
                               "--bootstrap", "0", "-f", "json")))
    assert ("ende: human translations left out; mt-metrics-eval's tasks.WMT24 scores them for "
            "en-de (human=True); --include-human scores those outside the reference set (-r) "
            "as systems") in out["run"]["summary"]
    assert out["run"]["testbeds"]["ende"]["language_pair"] == "en-de"
    out = json.loads(_ok(ulcdb(ende, "meta", "--protocol", "wmt24", "-c", "MQM", "-m", "BLEU",
                               "--bootstrap", "20", "-f", "json")))
    assert ("20 resamples per pair of metrics (k; MTME's Task defaults to k=1000, its "
            "tasks.WMT24() to k=0: no significance tests)") in out["run"]["summary"][1]
    # against ref-A the judged ref-B stands as a system (against ref-A+ref-B, the default,
    # no human translation can: the header said "scored as systems" all the same)
    out = json.loads(_ok(ulcdb(ruen, "meta", "--protocol", "wmt24", "-c", "DA-raw", "-m",
                               "chrF", "-r", "ref-A", "--bootstrap", "0", "--include-human",
                               "-f", "json")))
    assert ("ruen: human translations scored as systems (--include-human): ref-B; "
            "mt-metrics-eval's tasks.WMT24 leaves them out for ru-en (human=False); leave out "
            "--include-human for the other choice") in out["run"]["summary"]
    assert "ref-B" in out["run"]["testbeds"]["ruen"]["seg"]["systems"]

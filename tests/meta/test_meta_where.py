"""`ulcdb meta --where` (issue 14): meta-evaluation on the segments an SQL predicate selects.

Store: the WMT21 en-de sample (56 segments, MQM for 8 systems from the long TSV), BLEU,
chrF, Ol (a mean of segment scores) and METEOR (corpus-level, no statistics) against ref-A.
Expected numbers are computed here independently: the MQM column of the TSV, sacrebleu's
corpus BLEU and chrF on the selected lines, Ol's segment scores by plain SQL, and scipy.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import numpy as np
import pytest
import scipy.stats
from sacrebleu.metrics import BLEU, CHRF

from tests.cli_helpers import ingest_ende, ulcdb

PREDICATE = "seg_in_doc <= 4"


@pytest.fixture(scope="module")
def db(ende_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = ingest_ende(tmp_path_factory.mktemp("meta_where") / "m.duckdb", ende_sample)
    result = ulcdb(path, "score", "-t", "ende", "-m", "BLEU,chrF,Ol,MTR-exact", "-r", "ref-A",
                   "-G", "all", "-f", "csv", "-j", "1")
    assert result.exit_code == 0, result.output
    return path


def _tsv(ende_sample: Path) -> list[dict[str, str]]:
    with open(ende_sample / "segments_long.tsv", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def _selected_lines(ende_sample: Path) -> list[int]:
    """Line numbers (file order of the segments) with seg_in_doc <= 4."""
    seen: dict[str, str] = {}
    for r in _tsv(ende_sample):
        seen.setdefault(r["seg_id"], r["seg_in_doc"])
    return [i for i, pos in enumerate(seen.values()) if int(pos) <= 4]


def _human(ende_sample: Path) -> dict[str, float]:
    """Per system the mean MQM of its assessed segments with seg_in_doc <= 4 (the TSV)."""
    values: dict[str, list[float]] = {}
    for r in _tsv(ende_sample):
        if r["mqm_avg_score"] and r["kind"] == "system" and int(r["seg_in_doc"]) <= 4:
            values.setdefault(r["translator"], []).append(float(r["mqm_avg_score"]))
    return {t: float(np.mean(v)) for t, v in values.items()}


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _meta(db: Path, *args: str) -> dict:
    result = ulcdb(db, "meta", "-c", "MQM", "-r", "ref-A", "-B", "0", "-f", "json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _value(report: dict, metric: str, coef: str) -> float:
    return next(r[coef] for r in report["results"] if r["metric"] == metric)


def test_seg_level_items_are_the_selected_segments(db: Path) -> None:
    got = _meta(db, "-G", "seg", "-m", "BLEU,Ol", "--coef", "pearson,kendall_tau_b",
                "--where", PREDICATE)
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "select s.metric, s.value, a.value from scores s join assessments a "
        "on a.testbed = s.testbed and a.translator = s.translator and a.seg_id = s.seg_id "
        "and a.level = 'seg' join segment g on g.seg_id = s.seg_id "
        "where s.level = 'seg' and s.refset = 'ref-A' and s.metric in ('BLEU', 'Ol') "
        "and g.seg_in_doc <= 4 order by s.metric, s.translator, s.seg_id").fetchall()
    con.close()
    for metric in ("BLEU", "Ol"):
        m = np.array([r[1] for r in rows if r[0] == metric])
        h = np.array([r[2] for r in rows if r[0] == metric])
        assert got["run"]["n_items"] == len(m) < 8 * 47
        assert _value(got, metric, "pearson") == pytest.approx(scipy.stats.pearsonr(h, m)[0])
        assert _value(got, metric, "kendall_tau_b") == pytest.approx(  # ranks at 10
            scipy.stats.kendalltau(h, np.round(m, 10), variant="b")[0])  # decimals (issue 25)
    assert "segments where seg_in_doc <= 4: 28" in got["run"]["summary"]
    assert (got["run"]["where"], got["run"]["n_segments"]) == (PREDICATE, 28)


def test_sys_level_recomputes_both_sides_on_the_slice(db: Path, ende_sample: Path) -> None:
    got = _meta(db, "-G", "sys", "-m", "BLEU,chrF,Ol", "--coef", "pearson,spearman",
                "--where", PREDICATE)
    human = _human(ende_sample)
    systems = sorted(human)
    keep = _selected_lines(ende_sample)
    ref = [_lines(ende_sample / "refs" / "ref-A.de.txt")[i] for i in keep]

    def corpus(metric: BLEU | CHRF, system: str) -> float:
        hyp = [_lines(ende_sample / "systems" / f"{system}.de.txt")[i] for i in keep]
        return metric.corpus_score(hyp, [ref]).score / 100

    con = duckdb.connect(str(db), read_only=True)
    ol = dict(con.execute(
        "select s.translator, avg(s.value) from scores s join segment g using (seg_id) "
        "where s.metric = 'Ol' and s.level = 'seg' and s.refset = 'ref-A' "
        "and g.seg_in_doc <= 4 group by 1").fetchall())
    con.close()
    h = np.array([human[s] for s in systems])
    expected = {"BLEU": [corpus(BLEU(), s) for s in systems],
                "chrF": [corpus(CHRF(), s) for s in systems],
                "Ol": [ol[s] for s in systems]}
    for metric, scores in expected.items():
        assert _value(got, metric, "pearson") == pytest.approx(
            scipy.stats.pearsonr(h, scores)[0], rel=1e-9)
        assert _value(got, metric, "spearman") == pytest.approx(
            scipy.stats.spearmanr(h, scores)[0], rel=1e-9)
    summary = "\n".join(got["run"]["summary"])
    assert "corpus formula on the selected segments' statistics: BLEU, chrF" in summary
    assert "mean of the selected segment scores: Ol" in summary


def test_whole_set_predicate_changes_nothing_for_stored_corpus_scores(db: Path,
                                                                       ende_sample: Path) -> None:
    """--where true at sys level: BLEU and chrF recomputed from statistics equal the stored
    system (and, for DR', document) scores, and the human side is the derived mean, as
    without --where."""
    for reading in ("metric", "doc-mean"):
        args = ("-G", "sys", "-m", "BLEU,chrF,Ol", "--coef", "pearson,kendall_tau_b",
                "--reading", reading)
        plain = _meta(db, *args, "--human", "derived")
        sliced = _meta(db, *args, "--where", "true")
        for metric in ("BLEU", "chrF", "Ol"):
            for coef in ("pearson", "kendall_tau_b"):
                assert _value(sliced, metric, coef) == pytest.approx(
                    _value(plain, metric, coef), rel=1e-9)


def test_doc_level_on_a_slice(db: Path, ende_sample: Path) -> None:
    """Doc level: each document's Ol is the mean of its selected segments, its MQM the mean
    of its selected assessments."""
    got = _meta(db, "-G", "doc", "-m", "Ol", "--coef", "pearson", "--where", PREDICATE)
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "with m as (select s.translator, g.doc_id, avg(s.value) as v from scores s "
        "join segment g using (seg_id) where s.metric = 'Ol' and s.level = 'seg' "
        "and s.refset = 'ref-A' and g.seg_in_doc <= 4 group by all), "
        "h as (select a.translator, g.doc_id, avg(a.value) as v from assessments a "
        "join segment g using (seg_id) where a.level = 'seg' and g.seg_in_doc <= 4 "
        "group by all) select m.v, h.v from m join h using (translator, doc_id)").fetchall()
    con.close()
    m, h = np.array(rows).T
    assert got["run"]["n_items"] == len(rows)
    assert _value(got, "Ol", "pearson") == pytest.approx(scipy.stats.pearsonr(h, m)[0])


def test_doc_mean_reading_on_a_slice(db: Path, ende_sample: Path) -> None:
    """--reading doc-mean (DR') at sys level: per document BLEU by sacrebleu and Ol by plain
    SQL on its selected segments, then each system's mean over documents."""
    got = _meta(db, "-G", "sys", "-m", "BLEU,Ol", "--coef", "pearson", "--reading",
                "doc-mean", "--where", PREDICATE)
    human = _human(ende_sample)
    systems = sorted(human)
    seen: dict[str, tuple[str, str]] = {}
    for r in _tsv(ende_sample):
        seen.setdefault(r["seg_id"], (r["doc_id"], r["seg_in_doc"]))
    lines_of: dict[str, list[int]] = {}
    for i, (doc, pos) in enumerate(seen.values()):
        if int(pos) <= 4:
            lines_of.setdefault(doc, []).append(i)
    refs = _lines(ende_sample / "refs" / "ref-A.de.txt")

    def bleu(system: str) -> float:
        hyp = _lines(ende_sample / "systems" / f"{system}.de.txt")
        return float(np.mean([BLEU().corpus_score([hyp[i] for i in keep],
                                                  [[refs[i] for i in keep]]).score / 100
                              for keep in lines_of.values()]))

    con = duckdb.connect(str(db), read_only=True)
    ol = dict(con.execute(
        "select translator, avg(v) from (select s.translator, g.doc_id, avg(s.value) as v "
        "from scores s join segment g using (seg_id) where s.metric = 'Ol' and "
        "s.level = 'seg' and s.refset = 'ref-A' and g.seg_in_doc <= 4 group by all) "
        "group by 1").fetchall())
    con.close()
    h = np.array([human[s] for s in systems])
    for metric, scores in (("BLEU", [bleu(s) for s in systems]),
                           ("Ol", [ol[s] for s in systems])):
        assert _value(got, metric, "pearson") == pytest.approx(
            scipy.stats.pearsonr(h, scores)[0], rel=1e-9)
    assert any("mean of those document scores" in line for line in got["run"]["summary"])


@pytest.mark.parametrize(("args", "message"), [
    (["-G", "sys", "-m", "BLEU,MTR-exact"], "Error: MTR-exact: sys-level scores are "
     "corpus-level (not the mean of segment scores) and have no stored statistics"),
    (["-G", "sys", "-m", "Ol", "--human", "ingested"], "Error: --where cuts documents and "
     "systems"),
    (["-m", "Ol", "--protocol", "wmt23"], "Error: --protocol wmt23 prints the "
     "WMT table and does not take --where"),
])
def test_refusals_are_one_line(db: Path, args: list[str], message: str) -> None:
    result = ulcdb(db, "meta", "-c", "MQM", "-r", "ref-A", "-B", "0", *args, "--where",
                   PREDICATE)
    assert result.exit_code == 1
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_where_errors_name_the_predicate(db: Path) -> None:
    for predicate, message in (("colour = 1", "Error: --where 'colour = 1': "),
                               ("seg_id < 0", "Error: --where 'seg_id < 0' selects no segment "
                                "of 'ende'")):
        result = ulcdb(db, "meta", "-c", "MQM", "-r", "ref-A", "-m", "Ol", "--where",
                       predicate)
        assert result.exit_code == 1 and result.stderr.startswith(message)


def test_a_document_attribute_the_test_bed_lacks_is_named(db: Path) -> None:
    """WMT21's plain files and long TSV carry no domain: `--where "domain = 'news'"` (the
    README's Python example) selected nothing with no word why (issue 27); the error now says
    the column is unset, in the CLI and in the Python API alike."""
    import ulcdb as package
    from ulcdb.compare.where import WhereError

    hint = ("Error: --where \"domain = 'news'\" selects no segment of 'ende' (domain is not "
            "set for any of its documents: give it in the --docs file's columns or the XML's "
            "<doc> attributes at ingest)\n")
    result = ulcdb(db, "meta", "-c", "MQM", "-r", "ref-A", "-m", "Ol", "--where",
                   "domain = 'news'")
    assert result.exit_code == 1 and result.stderr == hint
    with package.open(db, read_only=True) as api, pytest.raises(WhereError) as err:
        api.meta("MQM", level="sys", metrics="Ol", refs="ref-A", where="domain = 'news'")
    assert f"Error: {err.value}\n" == hint

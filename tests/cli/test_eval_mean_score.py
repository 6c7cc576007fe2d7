"""`ulcdb eval --paired-bs` with a metric that has no segment statistics (GTM-2): the paired
table's score is the mean of its segment scores (as `ulcdb compare`), not the corpus score
eval prints without a test (77.6 against 75.8 for sysA), under the same name and signature.
The signature now says `score:mean-seg`, and `ulcdb compare` says it of its score column
(issue 25).  The means are checked against the stored segment scores by hand."""

from __future__ import annotations

from pathlib import Path

import duckdb
from cli_helpers import ulcdb

PLAIN = Path(__file__).resolve().parents[2] / "sample" / "plain"
REF = PLAIN / "refs" / "ref-A.en.txt"
SYSTEMS = [str(PLAIN / "systems" / f"sys{s}.en.txt") for s in "AB"]


def test_paired_signature_says_the_score_is_a_segment_mean(tmp_path: Path) -> None:
    db = tmp_path / "keep.duckdb"
    none = tmp_path / "none.duckdb"
    plain = ulcdb(none, "eval", str(REF), "-i", *SYSTEMS, "-m", "GTM-2", "-f", "text")
    paired = ulcdb(none, "eval", str(REF), "-i", *SYSTEMS, "-m", "GTM-2", "bleu",
                   "--paired-bs", "-f", "text", "--save", str(db))
    assert plain.exit_code == 0 and paired.exit_code == 0, paired.output
    sig = [line for line in paired.stdout.splitlines() if line.startswith(" - GTM-2")]
    assert sig == [" - GTM-2      GTM|nrefs:1|case:mixed|tok:gtm-ascii-ws|impl:gtm-1.4|"
                   "version:1|bs:1000|seed:12345|score:mean-seg"]
    bleu = [line for line in paired.stdout.splitlines() if line.startswith(" - BLEU")]
    assert bleu and "mean-seg" not in bleu[0]


    with duckdb.connect(str(db), read_only=True) as con:
        seg_mean, corpus = con.execute(
            "select avg(value) filter (where level = 'seg'), any_value(value) filter (where "
            "level = 'sys') from scores where metric = 'GTM-2' and translator = 'sysA.en.txt' "
            "and refset = 'ref-A.en.txt'").fetchone()
    assert f"{seg_mean * 100:.1f}" in paired.stdout  # 77.6: the paired table's score
    assert f"{corpus * 100:.1f}" in plain.stdout  # 75.8: eval's score without a test
    assert f"{seg_mean * 100:.1f}" != f"{corpus * 100:.1f}"


def test_compare_says_its_score_is_the_segment_mean(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    assert ulcdb(db, "ingest", "testbed", PLAIN.parent / "ULC.config", "--name", "sample"
                 ).exit_code == 0
    result = ulcdb(db, "compare", "-b", "sysA", "-s", "sysB", "-m", "GTM-2", "-j", "1")
    assert result.exit_code == 0, result.output
    assert ("GTM-2: mean of resampled unit scores (score: the mean of the segment scores, not "
            "the metric's own system score of `ulcdb score`)") in result.stdout.splitlines() \
        + result.stderr.splitlines()

"""`ulcdb compare --analysis word-freq`: a frequency bucket holding no word of the reference
nor of any output has F = 0/0 (printed 0, as compare-mt does) and nothing to test; it was
given a p-value of 1, which reads as "no difference found".  Its p-value is now blank and the
caption names such buckets (issue 25).  Expected buckets from sacrebleu's 13a tokenizer and
compare-mt's cutoffs, counted here."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from tests.cli_helpers import sample_store, ulcdb
from ulcdb.compare.words import FREQ_CUTOFFS, bucket_labels, bucket_of

SAMPLE = Path(__file__).resolve().parents[2] / "sample"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = sample_store(tmp_path_factory.mktemp("word_freq") / "s.duckdb")
    return path


def _tokens(name: str) -> list[list[str]]:
    tok = Tokenizer13a()
    folder = "refs" if name.startswith("ref") else "systems"
    text = (SAMPLE / "plain" / folder / f"{name}.en.txt").read_text(encoding="utf-8")
    return [tok(line.strip()).split() for line in text.split("\n")[:-1]]


def test_empty_buckets_get_no_p_value_and_a_note(db: Path) -> None:
    ref = _tokens("ref-B")
    freq = Counter(w for sent in ref for w in sent)
    labels = bucket_labels(FREQ_CUTOFFS)
    used = {labels[bucket_of(freq[w], FREQ_CUTOFFS)]
            for name in ("ref-B", "sysA", "sysB") for sent in _tokens(name) for w in sent}
    empty = [b for b in labels if b not in used]
    assert empty == ["4", "[100,1000)", ">=1000"]
    args = ("compare", "-b", "sysA", "-s", "sysB", "-m", "BLEU", "-r", "ref-B", "--analysis",
            "word-freq", "-j", "1")
    result = ulcdb(db, *args, "-f", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    for r in rows:
        if r["system"] == "sysB":
            assert (r["p_value"] is None) == (r["bucket"] in empty), r["bucket"]
        if r["bucket"] in empty:
            assert (r["n_ref"], r["n_out"], r["fmeas"]) == (0, 0, 0.0)
    said = ("(sacrebleu's draws); buckets without a word of the reference or of any output: "
            "4, [100,1000), >=1000 (F undefined, shown 0 as compare-mt does; no p-value)")
    (caption,) = result.stderr.splitlines()  # said with what the numbers are, no note
    assert caption.endswith(said)
    table = ulcdb(db, *args)
    assert table.exit_code == 0 and table.stderr.splitlines()[0].endswith(said)

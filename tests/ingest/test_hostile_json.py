"""JSON score files whose objects hold a key twice: Python's json keeps the last value without
a word, so two COMET runs under one system name stored one of them (second hostile-input
audit, s8).  Refused naming the key, the store left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import refused, ulcdb

SIGNATURE = '"signature": "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0"'
RECORDS = ", ".join(f'{{"src": "a", "mt": "b", "ref": "c", "COMET": 0.{i}}}'
                    for i in range(1, 13))


@pytest.fixture
def db(sample_db: Path) -> Path:
    """The sample store (tests/conftest.py): a copy for each test."""
    return sample_db


@pytest.mark.parametrize(("text", "args", "said"), [
    (f'{{"sysA": [{RECORDS}], "sysA": [{RECORDS}]}}',
     ["--format", "comet", "--metric", "IMP", "--ref", "ref-A"],
     "not COMET JSON: an object holds the key 'sysA' twice (which value is meant?)"),
    (f'{{"name": "BLEU", "score": 12.5, "score": 31.0, {SIGNATURE}}}',
     ["--format", "sacrebleu", "--target", "sysA", "--ref", "ref-A"],
     "not sacrebleu JSON: an object holds the key 'score' twice (which value is meant?)"),
])
def test_a_key_twice_is_refused(db: Path, tmp_path: Path, text: str, args: list[str],
                                said: str) -> None:
    path = tmp_path / "scores.json"
    path.write_text(text, encoding="utf-8")
    assert refused(db, "ingest", "scores", path, *args) == f"Error: {path}: {said}"
    once = text.replace(', "sysA": [' + RECORDS + "]", "").replace(', "score": 31.0', "")
    path.write_text(once, encoding="utf-8")  # each key once: read
    result = ulcdb(db, "ingest", "scores", path, *args)
    assert result.exit_code == 0, result.output

"""`ulcdb compare --by genre` on a test bed whose documents have no genre (WMT21 en-de from
its plain files) printed one bucket "(none)" holding every segment: the whole-set test again,
shown as if it were a split.  It is refused, saying where the field comes from, before
anything is scored.  The sample's docs.tsv gives a genre and no domain."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import duckdb
import pytest

from tests.cli_helpers import sample_store, ulcdb


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_store(tmp_path_factory.mktemp("by_unset") / "s.duckdb")


def _scores(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute("select count(*) from scores").fetchone()[0])
    finally:
        con.close()


def test_by_a_field_no_document_has_is_refused(store: Path) -> None:
    result = ulcdb(store, "compare", "-b", "sysB", "-m", "BLEU", "--by", "domain")
    assert result.exit_code == 1
    assert result.output == ("Error: --by domain: no document of 'sample' has a domain, so "
                             "there is nothing to split by: give it in the --docs file's "
                             "columns or the XML's <doc> attributes at ingest\n")
    assert _scores(store) == 0  # refused before anything was scored


def test_by_a_field_the_documents_have_still_splits(store: Path) -> None:
    result = ulcdb(store, "compare", "-b", "sysB", "-m", "BLEU", "--by", "genre", "-f", "csv")
    assert result.exit_code == 0, result.output
    buckets = {r["bucket"] for r in csv.DictReader(io.StringIO(result.stdout))}
    assert buckets == {"culture", "news", "science"}  # the genres of sample/plain/docs.tsv

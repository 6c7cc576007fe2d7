"""--where and --by over the document fields on the sample, whose docs.tsv gives a genre and
no domain or origlang: an empty selection names the unset fields it mentions and only those,
and the buckets by field and by length come from the stored texts."""

from __future__ import annotations

from pathlib import Path

import pytest

import ulcdb
from ulcdb.compare.buckets import LENGTH_CUTS, LENGTH_LABELS, segment_labels
from ulcdb.compare.data import CompareError
from ulcdb.compare.run import CompareTask
from ulcdb.compare.where import WhereError, where_segments
from ulcdb.compare.words import bucket_of

PLAIN = Path(__file__).resolve().parents[2] / "sample" / "plain"
REFS = ("ref-A", "ref-B", "ref-C")
HINT = ("not set for any of its documents: give it in the --docs file's columns or the XML's "
        "<doc> attributes at ingest)")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> ulcdb.api.Database:
    database = ulcdb.open(tmp_path_factory.mktemp("where") / "w.duckdb")
    database.ingest_testbed(
        name="sample", source=PLAIN / "source.es.txt", docs=PLAIN / "docs.tsv",
        refs={r: PLAIN / "refs" / f"{r}.en.txt" for r in REFS},
        systems={s: PLAIN / "systems" / f"{s}.en.txt" for s in ("sysA", "sysB")},
        src_lang="es", tgt_lang="en")
    yield database
    database.close()


@pytest.mark.parametrize(("predicate", "hint"), [
    ("domain = 'news'", f" (domain is {HINT}"),
    ("origlang = 'es' or domain = 'x' or genre = 'x'", f" (domain, origlang are {HINT}"),
    ("genre = 'sport'", ""),
    ("seg_id < 0", ""),
])
def test_an_empty_selection_names_the_unset_fields(db: ulcdb.api.Database, predicate: str,
                                                   hint: str) -> None:
    with pytest.raises(WhereError) as err:
        where_segments(db.store, "sample", predicate)
    assert str(err.value) == f"--where {predicate!r} selects no segment of 'sample'{hint}"


def _docs() -> dict[int, tuple[str, str]]:
    rows = [line.split("\t") for line in (PLAIN / "docs.tsv").read_text().splitlines()[1:]]
    return {int(r[0]): (r[1], r[3]) for r in rows}


def test_where_selects_by_a_set_field(db: ulcdb.api.Database) -> None:
    genres = {g for _, g in _docs().values()}
    for genre in genres:
        want = {s for s, (_, g) in _docs().items() if g == genre}
        assert where_segments(db.store, "sample", f"genre = '{genre}'") == want


@pytest.mark.parametrize("by", ["doc", "genre", "length"])
def test_buckets_by_field_and_length(db: ulcdb.api.Database, by: str) -> None:
    task = CompareTask("sample", ("BLEU",), ("sysA", "sysB"), "+".join(REFS), "case:mixed")
    words = [len(line.split()) for line in
             (PLAIN / "refs" / "ref-A.en.txt").read_text(encoding="utf-8").splitlines()]
    want = {s: {"doc": d, "genre": g,
                "length": LENGTH_LABELS[bucket_of(words[s - 1], LENGTH_CUTS)]}[by]
            for s, (d, g) in _docs().items()}
    assert segment_labels(db.store, task, by) == want


def test_a_field_no_document_has_is_refused_where_buckets_are_made(
        db: ulcdb.api.Database) -> None:
    """The sample's documents have no domain: one bucket "(none)" would be the whole set; the
    refusal is where the buckets are made, so `ulcdb serve`'s compare page gets it too."""
    task = CompareTask("sample", ("BLEU",), ("sysA", "sysB"), "+".join(REFS), "case:mixed")
    with pytest.raises(CompareError, match="no document of 'sample' has a domain"):
        segment_labels(db.store, task, "domain")

"""mt-metrics-eval metric files read by DuckDB at once (``mtme_fast``, issue 30) give the same
store as line by line (``mtme.read_mtme_metric``), and a problem still names its file and
line, however deep in a big file, with the store left as it was."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from fast_readers import ReaderSpy, fast_then_exact, spy_parts, store_contents

from ulcdb.errors import Conflict, InputError
from ulcdb.formats import mtme, mtme_fast
from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.interchange import importer
from ulcdb.interchange.importer import ScoreImport, import_scores
from ulcdb.store.database import Store

SYSTEMS = ("S1", "S-2", "ref-A")  # ref-A is written refA, as mt-metrics-eval does
# the fast reader and the line-by-line one
READERS = ((mtme_fast, "read_mtme_sql"), (mtme, "read_mtme_metric"))
TABLES = ("metric", "refset", "refset_member", "score_batch", "seg_score", "doc_score",
          "sys_score", "assessment")


def _store(path: Path, docs: int, per_doc: int) -> Store:
    units = [(f"d{d}", k) for d in range(1, docs + 1) for k in range(1, per_doc + 1)]
    data = TestbedData(
        name="tb", src_lang="en", tgt_lang="de",
        documents=[Document(f"d{d}") for d in range(1, docs + 1)],
        segments=[SourceSegment(i, d, k, f"source {i}") for i, (d, k) in enumerate(units, 1)],
        translators=[TranslatorText(n, "reference" if n.startswith("ref") else "system",
                                    [f"{n} {i}" for i in range(1, len(units) + 1)])
                     for n in (*SYSTEMS, "ref-B")])
    store = Store(path)
    load_testbed(store, data)
    return store


def _value(*key: object) -> str:
    n = sum((i + 1) * ord(c) for i, c in enumerate("".join(map(str, key))))
    return f"{(n % 2000) / 1000 - 1:.6g}"


def _folder(root: Path, docs: int, per_doc: int) -> Path:
    """metric-scores/en-de: COMET-refB at seg, doc and sys level, BLEU-refA.refB at sys level,
    and a human DA file."""
    folder = root / "metric-scores" / "en-de"
    folder.mkdir(parents=True)
    n = docs * per_doc
    written = [s.replace("-", "") if s.startswith("ref") else s for s in SYSTEMS]
    for level, units in (("seg", n), ("doc", docs), ("sys", 1)):
        lines = [f"{s} " + ("None" if (s, u) == ("S1", 2) else
                            "-0.0" if (s, u) == ("S1", 3) else _value(level, s, u))
                 for s in written for u in range(1, units + 1)]
        (folder / f"COMET-refB.{level}.score").write_text("\n".join(lines) + "\n")
    (folder / "BLEU-refA.refB.sys.score").write_text("S1 31.5\nS-2 28.25\n")
    (root / "human-scores").mkdir()
    (root / "human-scores" / "en-de.wmt-z.sys.score").write_text("S1 0.5\nS-2 -0.25\n")
    return root






def test_fast_and_line_by_line_give_the_same_store(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = _folder(tmp_path / "wmt99", 3, 7)
    stores = []
    for fast in (True, False):
        with monkeypatch.context() as patch:
            used = ReaderSpy(patch, *READERS, fast)
            with _store(tmp_path / f"{fast}.duckdb", 3, 7) as store:
                report = import_scores(store, ScoreImport([root], rename={"BLEU": "BLEU-x"}))
                assert used.fast == [fast] and used.exact == (0 if fast else 4)
                # 3 systems x 21 segments, 3 x 3 documents (S1's second None); 3 + 2 systems
                assert report.stored == {"seg": 62, "doc": 8, "sys": 5}
                assert "wmt-z.sys.score: 2 human scores stored" in report.summary()
                stores.append(store_contents(store, TABLES))
    assert stores[0] == stores[1]
    with Store(tmp_path / "True.duckdb", read_only=True) as store:
        rows = store.query(
            "select t.name, s.seg_id, s.value from seg_score s join translator t "
            "using (translator_id) where s.seg_id <= 3 order by 1, 2")
        assert [r[:2] for r in rows if r[0] == "S1"] == [("S1", 1), ("S1", 3)]  # 2 is None
        assert str(dict(((r[0], r[1]), r[2]) for r in rows)[("S1", 3)]) == "0.0"  # not -0.0
        assert dict(((r[0], r[1]), r[2]) for r in rows)[("ref-A", 2)] == float(
            _value("seg", "refA", 2))
        assert store.query("select name from metric where origin = 'imported' "
                           "order by 1") == [("BLEU-x",), ("COMET",)]


def test_one_file_with_metric_and_ref_options(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = _folder(tmp_path / "wmt99", 2, 5)
    path = root / "metric-scores" / "en-de" / "COMET-refB.seg.score"
    src = path.with_name("QE-src.seg.score")
    path.rename(src)
    used = ReaderSpy(monkeypatch, *READERS)
    with _store(tmp_path / "s.duckdb", 2, 5) as store:
        report = import_scores(store, ScoreImport([src], metric="MyQE", refs=("ref-B",)))
        assert report.stored == {"seg": 29, "doc": 0, "sys": 0}
        assert store.query("select distinct m.name, r.name from seg_score join metric m "
                           "using (metric_id) join refset r using (refset_id)") == [
            ("MyQE", "ref-B")]
        before = store_contents(store, TABLES)
        assert import_scores(store, ScoreImport([src], metric="MyQE", refs=("ref-B",))
                             ).unchanged == 29
        lines = src.read_text().splitlines()
        lines[0] = "S1 0.123"  # one value of S1 changed
        src.write_text("\n".join(lines) + "\n")
        with pytest.raises(Conflict, match="seg-level scores of 1 metric/target"):
            import_scores(store, ScoreImport([src], metric="MyQE", refs=("ref-B",)))
        assert store_contents(store, TABLES) == before
    # the conflict, found in SQL, names its line there: the line reader never ran
    assert used.fast == [True, True, True] and used.exact == 0


def test_a_conflict_deep_in_a_big_file_is_named_without_the_line_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A value changed on line 12,346 of a 15,002-line file (two blank lines before it, which
    DuckDB's read_csv leaves out), imported again: the fast path names that file and line and
    both values, as the line reader does, and leaves the store as it was (the line reader
    read every file again to name it)."""
    root = _folder(tmp_path / "wmt99", 100, 50)  # 3 x 5,000 lines in the seg file
    path = root / "metric-scores" / "en-de" / "COMET-refB.seg.score"
    original = path.read_text()
    lines = original.splitlines()
    lines[3:3] = ["", ""]
    system, value = lines[12345].split()
    lines[12345] = f"{system} 0.125"
    said = []
    for fast in (True, False):
        path.write_text(original)
        with monkeypatch.context() as patch, _store(tmp_path / f"{fast}.duckdb", 100, 50) as store:
            import_scores(store, ScoreImport([root], rename={"BLEU": "BLEU-x"}))
            path.write_text("\n".join(lines) + "\n")
            before = store_contents(store, TABLES)
            used = ReaderSpy(patch, *READERS, fast)
            with pytest.raises(Conflict) as caught:
                import_scores(store, ScoreImport([root], rename={"BLEU": "BLEU-x"}))
            assert store_contents(store, TABLES) == before
            assert (used.fast, used.exact) == (([True], 0) if fast else ([False], 4))
            said.append(str(caught.value))
    assert said[0] == said[1]
    assert said[0].startswith(f"{path}:12346: seg-level scores of 1 metric/target/reference-set")
    assert system == "refA"  # written refA, stored as ref-A
    assert (f"e.g. COMET of ref-A against ref-B, variant case:mixed: stored {float(value)!r}, "
            "here 0.125)") in said[0]


BAD = [  # (change to the line "SYSTEM SCORE", what the message says)
    ("score", lambda s, v: f"{s} x", "score 'x' is not a number"),
    ("underscore", lambda s, v: f"{s} 1_0", "score '1_0' is not a number"),
    ("inf", lambda s, v: f"{s} inf", "is NaN or infinite"),
    ("fields", lambda s, v: f"{s} {v} 1", "expected 2 fields (SYSTEM SCORE), found 3"),
    ("system", lambda s, v: f"nobody {v}", "unknown system or reference 'nobody'"),
]


@pytest.mark.parametrize(("what", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_line_deep_in_a_big_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                what: str, change: Any, message: str) -> None:
    root = _folder(tmp_path / "wmt99", 100, 50)  # 3 x 5,000 lines in the seg file
    path = root / "metric-scores" / "en-de" / "COMET-refB.seg.score"
    lines = path.read_text().splitlines()
    line = 12345
    system, value = lines[line - 1].split()
    lines[line - 1] = change(system, value)
    path.write_text("\n".join(lines) + "\n")
    used = ReaderSpy(monkeypatch, *READERS)
    with _store(tmp_path / "s.duckdb", 100, 50) as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError) as caught:
            import_scores(store, ScoreImport([root]))
        assert store_contents(store, TABLES) == before  # the store as it was
    assert f"{path}:{line}:" in str(caught.value) and message in str(caught.value)
    assert used.fast == [False] and used.exact >= 1  # declined, then named by the line reader


def test_files_loaded_in_parts_give_the_same_store(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader holds one part of the files at a time (as the WMT files' parts, issue 30),
    in one transaction: the same store as the files loaded at once."""
    root = _folder(tmp_path / "wmt99", 3, 7)
    stores, reports = [], []
    for one_by_one in (False, True):
        with monkeypatch.context() as patch:
            parts = spy_parts(patch, mtme_fast) if one_by_one else []
            used = ReaderSpy(patch, *READERS)
            with _store(tmp_path / f"{one_by_one}.duckdb", 3, 7) as store:
                report = import_scores(store, ScoreImport([root], rename={"BLEU": "BLEU-x"}))
                stores.append(store_contents(store, TABLES))
                reports.append((report.stored, report.metrics_added, report.files))
            assert parts == ([4] if one_by_one else []) and used.fast == [True]
    assert stores[0] == stores[1] and reports[0] == reports[1]
    assert reports[1] == ({"seg": 62, "doc": 8, "sys": 5}, ["BLEU-x", "COMET"], 5)
    assert len(stores[1]["score_batch"]) == 4  # a batch a file


def test_two_files_of_one_stored_key_are_one_part_and_the_duplicate_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files that --rename makes one metric (same reference set and level): one part, so
    the loader finds the duplicate (the line reader then names it), not "already there"."""
    root = _folder(tmp_path / "wmt99", 3, 7)
    folder = root / "metric-scores" / "en-de"
    (folder / "COMETX-refB.sys.score").write_text((folder / "COMET-refB.sys.score").read_text())
    parts = spy_parts(monkeypatch, mtme_fast)
    used = ReaderSpy(monkeypatch, *READERS)
    with _store(tmp_path / "s.duckdb", 3, 7) as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError, match="duplicate score"):
            import_scores(store, ScoreImport([root], rename={"COMETX": "COMET",
                                                             "BLEU": "BLEU-x"}))
        assert store_contents(store, TABLES) == before
    assert parts == [1] and used.fast == [True] and used.exact >= 1


def _all_none(path: Path) -> None:
    """Every score of the mt-metrics-eval file ``path`` written ``None``."""
    path.write_text("".join(f"{ln.split()[0]} None\n" for ln in path.read_text().splitlines()))


def test_a_part_of_only_none_scores_loads_on_the_fast_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part (here COMET's segment file) whose every score is None, the import's other
    parts holding scores: stored as the line reader stores it, without it (before, the
    loader refused the part as "no scores found" and the line reader read everything
    again)."""
    root = _folder(tmp_path / "wmt99", 3, 7)
    _all_none(root / "metric-scores" / "en-de" / "COMET-refB.seg.score")
    def run(fast: bool) -> tuple[Any, dict[str, Any]]:
        with _store(tmp_path / f"{fast}.duckdb", 3, 7) as store:
            return (import_scores(store, ScoreImport([root], rename={"BLEU": "BLEU-x"})),
                    store_contents(store, TABLES))

    reports, stores, readers = fast_then_exact(monkeypatch, mtme_fast, READERS, run)
    assert all(r.stored == {"seg": 0, "doc": 8, "sys": 5} for r in reports)
    assert readers == [([True], 0, [4]), ([False], 4, [])]
    assert stores[0] == stores[1]
    assert len(stores[0]["score_batch"]) == 3  # the file without a score records none


NO_SCORE = [  # (how the files are read, the parts the fast path made, errors it raised)
    ("fast path", [], 1),  # refused by the lines' counts before the first part
    ("fast path, lines not counted", [1, 2, 3, 4], 1),  # refused after the last part
    ("line reader", [], 0),
]


@pytest.mark.parametrize(("how", "made", "fast_errors"), NO_SCORE,
                         ids=[n[0] for n in NO_SCORE])
def test_an_import_whose_every_score_is_none_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, made: list[int],
        fast_errors: int) -> None:
    """Every score of every metric file None: "no scores found", naming the first file, the
    store (human scores too) as it was.  The fast path refuses it from the lines' counts
    before making a part, or, where a reader gives no counts, after its last part (a part
    alone may hold only None); the line reader then names it."""
    root = _folder(tmp_path / "wmt99", 3, 7)
    folder = root / "metric-scores" / "en-de"
    for path in folder.iterdir():
        _all_none(path)
    made_parts: list[int] = []
    plan, read_sql, store_sql = mtme_fast.file_parts, mtme_fast.read_mtme_sql, importer.store_frame

    def counted(make: Any, number: int) -> Any:
        return lambda: (made_parts.append(number), make())

    monkeypatch.setattr(mtme_fast, "PART_ROWS", 1)  # a part a file
    monkeypatch.setattr(mtme_fast, "file_parts", lambda *args, **kwargs: [
        counted(make, n) for n, make in enumerate(plan(*args, **kwargs), 1)])
    if how == "fast path, lines not counted":
        monkeypatch.setattr(mtme_fast, "read_mtme_sql", lambda *args: dataclasses.replace(
            read_sql(*args), scored=None))
    said: list[str] = []  # what the loader raised, on the fast path and the line reader's

    def store_frame(*args: Any) -> Any:
        try:
            return store_sql(*args)
        except InputError as error:
            said.append(str(error))
            raise

    monkeypatch.setattr(importer, "store_frame", store_frame)
    used = ReaderSpy(monkeypatch, *READERS, how != "line reader")
    with _store(tmp_path / "s.duckdb", 3, 7) as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError) as caught:
            import_scores(store, ScoreImport([root], rename={"BLEU": "BLEU-x"}))
        assert store_contents(store, TABLES) == before
    first = sorted(folder.iterdir())[0]
    message = f"{first}: no scores found: every score is marked missing"
    assert str(caught.value) == message and used.exact >= 1
    assert used.fast == [how != "line reader"] and made_parts == made
    assert said == [message] * (fast_errors + 1)  # the fast path's, then the line reader's

"""WMT metric files read by DuckDB at once (``metrics_fast``, issue 30) give the same store as
line by line (``metrics_task.read_wmt_raw``), and any problem still names its file and line,
however deep in a big file, with the store left as it was."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import duckdb
import pytest
from fast_readers import ReaderSpy, fast_then_exact, spy_parts, store_contents

from ulcdb.errors import Conflict, InputError, UlcdbError
from ulcdb.formats.wmt import metrics_fast, metrics_task, wmt20
from ulcdb.interchange import load
from ulcdb.store.database import Store, named_query

SYSTEMS = ("sysA", "sysB", "Human-B.0")
DOCS = {"d1": 30, "d2": 20}  # document -> segments
# the fast reader and the line-by-line one
READERS = ((metrics_fast, "read_wmt_sql"), (metrics_task, "read_wmt_raw"))
TABLES = ("testbed", "document", "segment", "translator", "metric", "refset", "refset_member",
          "named_set", "named_set_member", "score_batch", "seg_score", "doc_score",
          "sys_score")


def _value(*key: object) -> str:
    """A deterministic score with a few digits (hash-free: stable across runs)."""
    n = sum((i + 1) * ord(c) for i, c in enumerate("".join(map(str, key))))
    return f"{(n % 2000) / 1000 - 1:.6g}"


def _release(root: Path, docs: dict[str, int] = DOCS, gz: bool = True) -> Path:
    """A tiny WMT20-layout release: de-en, one metric file per level (seg gzipped), the
    newstest2020 (ref-A) and newstestM2020 (ref-A + ref-B) reference sets."""
    (root / "input_details").mkdir(parents=True)
    units = [(doc, k) for doc, n in docs.items() for k in range(1, n + 1)]
    details = [f"{sid}\tnewstest2020\tde-en\t{doc}\t{k}" for sid, (doc, k) in enumerate(units, 1)]
    (root / "input_details" / "de-en.txt").write_text("\n".join(details) + "\n")
    lines: dict[str, list[str]] = {"seg": [], "doc": [], "sys": []}
    for refset in ("newstest2020", "newstestM2020"):
        for system in SYSTEMS:
            head = f"MetricX\tde-en\tnewstest2020\t{refset}\t{system}"
            lines["sys"].append(f"{head}\t{_value(refset, system)}")
            for doc, n in docs.items():
                lines["doc"].append(f"{head}\t{doc}\t{_value(refset, system, doc)}")
                lines["seg"] += [f"{head}\t{doc}\t{k}\t"
                                 + ("None" if (system, k) == ("sysB", 3) else
                                    _value(refset, system, doc, k)) for k in range(1, n + 1)]
    for level, rows in lines.items():
        folder = root / "metrics" / level
        folder.mkdir(parents=True)
        data = ("\n".join(rows) + "\n").encode()
        if level == "seg" and gz:
            (folder / "MetricX.seg.tsv.gz").write_bytes(gzip.compress(data))
        else:
            (folder / f"MetricX.{level}.tsv").write_bytes(data)
    return root


def _seg_file(root: Path) -> Path:
    return next((root / "metrics" / "seg").iterdir())


def _rewrite(path: Path, change: Any) -> None:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        lines = fh.read().splitlines()
    change(lines)
    with opener(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")




def _score(store: Store, level: str, target: str, refset: str, seg: int | None) -> Any:
    return store.scalar(
        "select s.value from stored_scores s join translator t using (translator_id) "
        "join refset r using (refset_id) where s.level = ? and t.name = ? and r.name = ? "
        "and s.seg_id is not distinct from ?", [level, target, refset, seg])




def _refused(db: Path, root: Path, match: str, **kwargs: Any) -> InputError:
    """The WMT20 import of ``root`` into the store ``db`` refused with an error matching
    ``match``, the store left as it was."""
    with Store(db) as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError, match=match) as caught:
            wmt20.ingest_wmt20(store, root, **kwargs)
        assert store_contents(store, TABLES) == before
    return caught.value


def test_fast_and_line_by_line_give_the_same_store(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = _release(tmp_path / "release")
    stores = []
    for fast in (True, False):
        with monkeypatch.context() as patch:
            used = ReaderSpy(patch, *READERS, fast)
            store = Store(tmp_path / f"{fast}.duckdb")
            report = wmt20.ingest_wmt20(store, root)
            assert used.fast == [fast] and used.exact == (0 if fast else 1)
            assert report.stored == {"seg": 2 * 3 * 50 - 4, "doc": 12, "sys": 6}  # 4 None
            stores.append(store_contents(store, TABLES))
            store.close()
    assert stores[0] == stores[1]
    fast = stores[0]
    assert len(fast["seg_score"]) == 296 and len(fast["score_batch"]) == 3
    # a value read back as written: sysA's segment 2 of d2 against newstestM2020 (ref-A+ref-B)
    with Store(tmp_path / "True.duckdb", read_only=True) as store:
        got = _score(store, "seg", "sysA", "ref-A+ref-B", 32)
    assert got == float(_value("newstestM2020", "sysA", "d2", 2))


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "line by line"])
def test_a_system_named_like_a_stored_one_is_refused(tmp_path: Path, fast: bool,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The release's systems go through the look-alike check of every other import: 'SYSB'
    beside a stored 'sysB' was added as a second system, which no table told apart."""
    root = _release(tmp_path / "release")
    used = ReaderSpy(monkeypatch, *READERS, fast)
    db = tmp_path / "s.duckdb"
    with Store(db) as store:
        wmt20.ingest_wmt20(store, root)
    sys_file = root / "metrics" / "sys" / "MetricX.sys.tsv"
    _rewrite(sys_file, lambda lines: lines.__setitem__(1, lines[1].replace("sysB", "SYSB")))
    error = _refused(db, root, "SYSB")
    assert str(error) == (f"{sys_file}:2: the system name 'SYSB' differs "
                          "from 'sysB' in test bed 'newstest2020:de-en' only by case or "
                          "Unicode normalisation: use one spelling")
    assert used.fast == [fast] * 2


def test_look_alike_systems_of_one_release_are_refused(tmp_path: Path) -> None:
    """Two spellings in a fresh store's release: the later one in sorted order is named."""
    root = _release(tmp_path / "release")
    _rewrite(root / "metrics" / "sys" / "MetricX.sys.tsv",
             lambda lines: lines.__setitem__(1, lines[1].replace("sysB", "SYSB")))
    error = _refused(tmp_path / "s.duckdb", root, "sysB")
    assert str(error).endswith(": the system name 'sysB' differs from 'SYSB' in test bed "
                               "'newstest2020:de-en' only by case or Unicode normalisation: "
                               "use one spelling")


def test_import_again_is_already_there_and_other_values_conflict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _release(tmp_path / "release")
    used = ReaderSpy(monkeypatch, *READERS)
    with Store(tmp_path / "s.duckdb") as store:
        wmt20.ingest_wmt20(store, root)
        before = store_contents(store, TABLES)
        again = wmt20.ingest_wmt20(store, root)
        assert again.stored == {"seg": 0, "doc": 0, "sys": 0}
        assert store_contents(store, TABLES) == before
        _rewrite(root / "metrics" / "sys" / "MetricX.sys.tsv",
                 lambda lines: lines.__setitem__(0, lines[0].rsplit("\t", 1)[0] + "\t0.125"))
        with pytest.raises(Conflict, match="sys-level scores of 1 metric/target"):
            wmt20.ingest_wmt20(store, root)
        assert store_contents(store, TABLES) == before  # nothing a user stored is silently replaced
        replaced = wmt20.ingest_wmt20(store, root, replace=True)
        assert replaced.replaced == 1  # sysA's system score against newstest2020
        assert _score(store, "sys", "sysA", "ref-A", None) == 0.125
    assert used.fast == [True] * 4


def test_the_scan_keeps_a_row_per_file_and_key_not_per_score(tmp_path: Path) -> None:
    """Issue 30: the first read keeps each file's keys (3 files x 2 reference sets x 3
    systems), not its 300 + 12 + 6 scores; the scores are read again part by part."""
    root = _release(tmp_path / "release")
    with Store(tmp_path / "s.duckdb") as store:
        rows = metrics_fast.read_wmt_sql(store, wmt20.metric_files(root), None)
        assert rows is not None and len(rows.keys.keys) == 6
        temp = {name: store.scalar(f"select count(*) from {name}") for (name,) in store.query(
            "select table_name from duckdb_tables() where temporary")}
        assert temp["_wmt_file_keys"] == 3 * 6
        assert max(temp.values()) == 3 * 6  # no table of scores
        assert store.query("select file_no, sum(n), sum(valued) from _wmt_file_keys "
                           "group by all order by 1") == [(0, 12, 12), (1, 300, 296), (2, 6, 6)]


def test_only_an_import_that_replaces_looks_for_unused_provenance(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: a fresh import's parts no longer scan every stored score for score_batch
    rows nothing points to; a replacing import drops the one it left."""
    root = _release(tmp_path / "release")
    calls: list[int] = []
    drop = Store.drop_orphan_batches
    monkeypatch.setattr(Store, "drop_orphan_batches",
                        lambda self: calls.append(drop(self)) or calls[-1])
    monkeypatch.setattr(metrics_fast, "PART_ROWS", 1)  # three parts
    with Store(tmp_path / "s.duckdb") as store:
        wmt20.ingest_wmt20(store, root)
        assert calls == []
        _rewrite(root / "metrics" / "sys" / "MetricX.sys.tsv", lambda lines: lines.__setitem__(
            slice(None), [ln.rsplit("\t", 1)[0] + "\t0.125" for ln in lines]))
        wmt20.ingest_wmt20(store, root, replace=True)
        assert calls == [1]  # the system file's first batch, every score of it replaced
        assert store.scalar("select count(*) from score_batch where batch_id not in "
                            "(select batch_id from stored_scores)") == 0


def test_stored_reference_sets_are_found_at_once_not_one_by_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: the loader finds a part's stored test beds, translators and reference sets
    in two queries; it creates only the reference sets the store lacks (one query each
    before, per reference set and part: 2,016 at 32.5M scores)."""
    root = _release(tmp_path / "release")
    created: list[tuple[str, ...]] = []
    ensure = load.ensure_refset
    monkeypatch.setattr(load, "ensure_refset", lambda store, tid, names, ids: (
        created.append(names), ensure(store, tid, names, ids))[1])
    monkeypatch.setattr(metrics_fast, "PART_ROWS", 1)  # three parts
    with Store(tmp_path / "s.duckdb") as store:
        wmt20.ingest_wmt20(store, root)
        assert sorted(created) == [("ref-A",), ("ref-A", "ref-B")]  # in the first part only
        wmt20.ingest_wmt20(store, root)
        assert len(created) == 2
        assert store.query("select name from refset order by 1") == [("ref-A",),
                                                                      ("ref-A+ref-B",)]


def test_two_keys_of_one_hash_send_the_files_to_the_line_reader(tmp_path: Path) -> None:
    """The second read finds a row's key by a hash of its file and names: should two keys
    the scan found share one (never seen), the files are not plain for the fast path."""
    with Store(tmp_path / "s.duckdb") as store:
        for hashes, declined in (([1, 2, 3], False), ([1, 2, 1], True)):
            store.con.execute("create or replace temp table _wmt_seen as select unnest(?) "
                              "::ubigint as h, false as bad", [hashes])
            assert store.scalar(named_query("wmt_fast_bad")) is declined


BAD = [  # (line of the seg file, change to it, what the message says)
    ("score", lambda f: f[:-1] + ["x"], "score 'x' is not a number"),
    ("underscore", lambda f: f[:-1] + ["1_0"], "score '1_0' is not a number"),
    ("inf", lambda f: f[:-1] + ["inf"], "is NaN or infinite"),
    ("empty", lambda f: f[:-1] + [""], "score '' is not a number"),
    ("seg", lambda f: f[:6] + ["1.5"] + f[7:], "segment number '1.5' is not a positive"),
    ("columns", lambda f: [*f, "extra"], "expected 8 tab-separated columns"),
    ("unit", lambda f: f[:6] + ["999"] + f[7:], "999"),
    ("document", lambda f: f[:5] + ["d9"] + f[6:], "document 'd9'"),
    ("duplicate", lambda f: f[:6] + ["1"] + f[7:], "duplicate score"),
]


@pytest.mark.parametrize(("what", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_line_deep_in_a_big_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                what: str, change: Any, message: str) -> None:
    root = _release(tmp_path / "release", {f"doc{i}": 100 for i in range(60)})  # 36,000 lines
    path = _seg_file(root)
    line = 34567
    _rewrite(path, lambda lines: lines.__setitem__(
        line - 1, "\t".join(change(lines[line - 1].split("\t")))))
    used = ReaderSpy(monkeypatch, *READERS)
    with Store(tmp_path / "s.duckdb") as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError) as caught:
            wmt20.ingest_wmt20(store, root)
        assert store_contents(store, TABLES) == before  # the store as it was
    assert f"{path}:{line}:" in str(caught.value)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert used.exact == 1  # the line reader named it, after the fast path declined or failed


def test_format_wmt_fast_and_line_by_line_give_the_same_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ingest scores --format wmt --create-testbed --details`: the same reader pair."""
    from ulcdb.interchange.importer import ScoreImport, import_scores

    root = _release(tmp_path / "release")
    stores = []
    for fast in (True, False):
        with monkeypatch.context() as patch:
            used = ReaderSpy(patch, *READERS, fast)
            with Store(tmp_path / f"wmt-{fast}.duckdb") as store:
                report = import_scores(store, ScoreImport(
                    [root / "metrics"], fmt="wmt", create_testbed=True,
                    details=[root / "input_details" / "de-en.txt"], rename={"MetricX": "X"}))
                assert used.fast == [fast] and used.exact == (0 if fast else 1)
                assert report.stored == {"seg": 296, "doc": 12, "sys": 6}
                stores.append(store_contents(store, TABLES))
    assert stores[0] == stores[1]
    assert [r[1] for r in stores[0]["metric"]] == ["X"]


def _second_metric(root: Path, name: str) -> None:
    """A copy of MetricX's files as metric ``name`` (files sys, doc, seg of each metric)."""
    for level in ("sys", "doc", "seg"):
        path = next((root / "metrics" / level).glob(f"MetricX.{level}.*"))
        copy = path.with_name(path.name.replace("MetricX", name))
        opener: Any = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as fh, opener(copy, "wt") as out:
            out.write(fh.read().replace("MetricX\t", f"{name}\t"))


def test_files_loaded_in_parts_give_the_same_store(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: the loader holds one part of the files at a time, in one transaction."""
    root = _release(tmp_path / "release")
    _second_metric(root, "MetricY")
    stores, reports = [], []
    for one_by_one in (False, True):
        with monkeypatch.context() as patch:
            parts = spy_parts(patch, metrics_fast) if one_by_one else []
            with Store(tmp_path / f"{one_by_one}.duckdb") as store:
                report = wmt20.ingest_wmt20(store, root)
                stores.append(store_contents(store, TABLES))
                reports.append((report.stored, report.metrics_added, report.files))
            assert parts == ([6] if one_by_one else [])
    assert stores[0] == stores[1] and reports[0] == reports[1]
    assert reports[1] == ({"seg": 592, "doc": 24, "sys": 12}, ["MetricX", "MetricY"], 6)
    assert len(stores[1]["score_batch"]) == 6


@pytest.mark.parametrize("how", ["same metric column", "renamed"])
def test_a_key_in_two_files_is_one_part_and_its_duplicate_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """A stored key with rows in two files: the files are one part, so the duplicate is
    found (and named by the line reader), not taken as already stored."""
    root = _release(tmp_path / "release")
    _second_metric(root, "MetricY")
    seg = root / "metrics" / "seg" / "MetricY.seg.tsv.gz"
    if how == "same metric column":
        _rewrite(seg, lambda lines: lines.__setitem__(
            slice(None), [ln.replace("MetricY\t", "MetricX\t") for ln in lines]))
    parts = spy_parts(monkeypatch, metrics_fast)
    used = ReaderSpy(monkeypatch, *READERS)
    rename = {"MetricY": "MetricX"} if how == "renamed" else None
    with Store(tmp_path / "s.duckdb") as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError, match="duplicate score"):
            wmt20.ingest_wmt20(store, root, rename=rename)
        assert store_contents(store, TABLES) == before
    assert parts == [1] and used.exact == 1


def test_a_bad_unit_in_the_last_part_leaves_the_store_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts before (system and document files) are rolled back with it."""
    root = _release(tmp_path / "release")
    path = _seg_file(root)
    _rewrite(path, lambda lines: lines.__setitem__(4, lines[4].replace("\t5\t", "\t999\t")))
    parts = spy_parts(monkeypatch, metrics_fast)
    used = ReaderSpy(monkeypatch, *READERS)
    caught = _refused(tmp_path / "s.duckdb", root, "999")
    assert parts == [3] and used.exact == 1 and f"{path}:5:" in str(caught)


NEW_SYSTEM = "MetricX\tde-en\tnewstest2020\tnewstest2020\tsysC\t0.5"
OLD_SYS_A = float(_value("newstest2020", "sysA"))  # sysA's system score against ref-A
CHANGED = [  # (what, how the system file changes between the two reads, its system scores
    # then, sysC's score against ref-A then)
    ("new system appended", lambda lines: lines.append(NEW_SYSTEM), 7, 0.5),
    ("a row of a key gone", lambda lines: lines.pop(0), 5, None),
    ("a key's row as a new key", lambda lines: lines.__setitem__(
        0, lines[0].replace("\tsysA\t", "\tsysC\t")), 6, OLD_SYS_A),
]


@pytest.mark.parametrize(("change", "sys_scores", "sys_c"), [c[1:] for c in CHANGED],
                         ids=[c[0] for c in CHANGED])
@pytest.mark.parametrize("part_rows", [metrics_fast.PART_ROWS, 1], ids=["one part", "3 parts"])
def test_a_file_changed_between_the_two_reads_is_read_line_by_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any, sys_scores: int,
        sys_c: float | None, part_rows: int) -> None:
    """A file rewritten by another process after the scan counted its keys' rows and before
    its rows are read again: the second read must find the rows the scan counted, else the
    fast path gives up and the line reader reads the files as they now are (before, the
    rows of a system the scan had not seen were dropped without a word)."""
    root = _release(tmp_path / "release")
    path = root / "metrics" / "sys" / "MetricX.sys.tsv"
    second_read = metrics_fast.read_part
    changed: list[bool] = []
    said: list[str] = []  # why the fast path gave up

    def change_then_read(*args: Any) -> None:
        if not changed:
            _rewrite(path, change)
            changed.append(True)
        try:
            second_read(*args)
        except (UlcdbError, duckdb.Error) as error:
            said.append(str(error))
            raise

    stores, readers = [], []
    for fast in (True, False):  # the change, then the line reader alone on the files as changed
        with monkeypatch.context() as patch:
            patch.setattr(metrics_fast, "PART_ROWS", part_rows)
            if fast:
                patch.setattr(metrics_fast, "read_part", change_then_read)
            used = ReaderSpy(patch, *READERS, fast)
            with Store(tmp_path / f"{fast}.duckdb") as store:
                optimizers = store.scalar(named_query("disabled_optimizers"))
                report = wmt20.ingest_wmt20(store, root)
                # as before, though the second read failed with a setting changed
                assert store.scalar(named_query("disabled_optimizers")) == optimizers
                stores.append(store_contents(store, TABLES, renumber=True))
                assert _score(store, "sys", "sysC", "ref-A", None) == sys_c
            assert report.stored["sys"] == sys_scores
            readers.append((used.fast, used.exact))
    assert changed and stores[0] == stores[1]
    assert readers == [([True], 1), ([False], 1)]  # the fast path gave up: the line reader read
    assert len(said) == 1 and str(path) in said[0] and "changed while it was read" in said[0]


def test_a_bad_line_appended_between_the_two_reads_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line the scan never saw, appended before the second read, with a score that is not
    a number: named by the line reader (before, its row was dropped and the import said
    nothing), the store left as it was."""
    root = _release(tmp_path / "release")
    path = root / "metrics" / "sys" / "MetricX.sys.tsv"
    second_read = metrics_fast.read_part

    def change_then_read(*args: Any) -> None:
        _rewrite(path, lambda lines: lines.append(NEW_SYSTEM.replace("0.5", "x")))
        second_read(*args)

    monkeypatch.setattr(metrics_fast, "read_part", change_then_read)
    used = ReaderSpy(monkeypatch, *READERS)
    caught = _refused(tmp_path / "s.duckdb", root, "score 'x' is not a number")
    assert f"{path}:7:" in str(caught) and used.fast == [True] and used.exact == 1


def _all_none(path: Path) -> None:
    """Every score of the WMT file ``path`` written ``None``."""
    _rewrite(path, lambda lines: lines.__setitem__(
        slice(None), [ln.rsplit("\t", 1)[0] + "\tNone" for ln in lines]))


def test_a_part_of_only_none_scores_loads_on_the_fast_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part (here MetricY's segment file) whose every score is None, the import's other
    parts holding scores: stored as the line reader stores it, without it (before, the
    loader refused the part as "no scores found" and the line reader read everything
    again)."""
    root = _release(tmp_path / "release")
    _second_metric(root, "MetricY")
    _all_none(root / "metrics" / "seg" / "MetricY.seg.tsv.gz")
    def run(fast: bool) -> tuple[Any, dict[str, Any]]:
        with Store(tmp_path / f"{fast}.duckdb") as store:
            return wmt20.ingest_wmt20(store, root), store_contents(store, TABLES)

    reports, stores, readers = fast_then_exact(monkeypatch, metrics_fast, READERS, run)
    # MetricY's seg: none
    assert all(r.stored == {"seg": 296, "doc": 24, "sys": 12} for r in reports)
    assert readers == [([True], 0, [6]), ([False], 1, [])]
    assert stores[0] == stores[1]
    assert len(stores[0]["score_batch"]) == 5  # the file without a score records none


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "line reader"])
def test_an_import_whose_every_score_is_none_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast: bool) -> None:
    """Every score of every file None: "no scores found", naming the first file, the store
    as it was; the fast path refuses it from the scan's counts before reading a part."""
    root = _release(tmp_path / "release")
    for path in wmt20.metric_files(root):
        _all_none(path)
    parts = spy_parts(monkeypatch, metrics_fast)
    monkeypatch.setattr(metrics_fast, "read_part", lambda *args: pytest.fail("part read"))
    used = ReaderSpy(monkeypatch, *READERS, fast)
    with Store(tmp_path / "s.duckdb") as store:
        before = store_contents(store, TABLES)
        with pytest.raises(InputError) as caught:
            wmt20.ingest_wmt20(store, root)
        assert store_contents(store, TABLES) == before
    first = wmt20.metric_files(root)[0]
    assert str(caught.value) == f"{first}: no scores found: every score is marked missing"
    assert (used.fast, used.exact) == ([fast], 1)
    assert parts == ([3] if fast else [])

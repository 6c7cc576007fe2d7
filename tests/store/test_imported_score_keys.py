"""Imported scores have one definition, the table macro ``imported_score_keys``: its rows are
those of the view as it was written before (issue 30's follow-up), under any narrowing, on a
store of two test beds holding imported and computed scores; ``scored_keys`` is the system
scores and those keys; and the callers (scoring's "used as they are" and what it skips,
meta's note) read them scoped to their test bed."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from cli_helpers import ulcdb

from ulcdb.ingest.load import load_testbed
from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.interchange.load import load_scores
from ulcdb.interchange.model import MetricInfo, ScoreFrame, ScoreSet, Source
from ulcdb.scoring.scorer import imported_metrics
from ulcdb.store.database import Store

# The view `imported_keys` as it read before the macro: the independent definition the macro
# must reproduce row for row.
OLD_VIEW = """
with imported as (
    select batch_id, origin from score_batch where origin <> 'computed'
),
keys as (
    select distinct metric_id, translator_id, refset_id, variant, batch_id
    from stored_scores semi join imported using (batch_id)
)
select k.metric_id, k.translator_id, k.refset_id, k.variant,
       list(distinct i.origin order by i.origin) as origins
from keys k join imported i using (batch_id)
group by all
"""
COLUMNS = "metric_id, translator_id, refset_id, variant, origins"
SEGS = 3


def _testbed(name: str) -> TestbedData:
    segs = [SourceSegment(n, "d1", n, f"source {n}") for n in range(1, SEGS + 1)]
    texts = [TranslatorText(t, "reference" if t.startswith("ref") else "system",
                            [f"{t} says {n} of {name}" for n in range(1, SEGS + 1)])
             for t in ("ref-A", "ref-B", "S1", "S2")]
    return TestbedData(name, "en", "de", documents=[Document("d1")], segments=segs,
                       translators=texts)


def _frame(testbed: str, metric: str, origin: str, keys: list[tuple[str, tuple[str, ...]]],
           levels: tuple[str, ...] = ("seg", "doc", "sys")) -> ScoreFrame:
    sets = []
    for (target, refs), level in itertools.product(keys, levels):
        s = ScoreSet(metric, target, refs, level)
        if level == "seg":
            for seg in range(1, SEGS + 1):
                s.add(0.1 * seg, seg=seg)
        elif level == "doc":
            s.add(0.5, doc_id="d1")
        else:
            s.add(0.25)
        sets.append(s)
    return ScoreFrame.from_sets(sets, Source(origin, "test"), testbed)


LEARNED = MetricInfo("", higher_is_better=True, description="a learned metric")


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Test beds one and two.  Imported: in one, COMET for S1 and S2 against ref-A (a.tsv),
    BLEU for S1 against ref-A (bleu.tsv), COMET for S1 against ref-A under case:lc (lc.tsv);
    in two, COMET for S1 against ref-B at segment level from b1.tsv and at system level from
    b2.tsv, BLEU for S2 against ref-B at segment level (bleu2.tsv).  Computed: BLEU for every
    other pair of both test beds (`ulcdb score`)."""
    db = tmp_path_factory.mktemp("imported") / "s.duckdb"
    with Store(db) as store:
        load_testbed(store, _testbed("one"))
        load_testbed(store, _testbed("two"))
        load_scores(store, _frame("one", "COMET", "a.tsv", [("S1", ("ref-A",)),
                                                           ("S2", ("ref-A",))]), flags=LEARNED)
        load_scores(store, _frame("one", "BLEU", "bleu.tsv", [("S1", ("ref-A",))]))
        load_scores(store, _frame("one", "COMET", "lc.tsv", [("S1", ("ref-A",))]),
                    variant="case:lc", flags=LEARNED)
        load_scores(store, _frame("two", "COMET", "b1.tsv", [("S1", ("ref-B",))], ("seg",)),
                    flags=LEARNED)
        load_scores(store, _frame("two", "COMET", "b2.tsv", [("S1", ("ref-B",))], ("sys",)),
                    flags=LEARNED)
        load_scores(store, _frame("two", "BLEU", "bleu2.tsv", [("S2", ("ref-B",))], ("seg",)))
    for bed in ("one", "two"):
        out = ulcdb(db, "score", "-t", bed, "-m", "BLEU", "-j", "1")
        assert out.exit_code == 0, out.output
        NOTES[bed] = out.output
    return db


NOTES: dict[str, str] = {}  # what `ulcdb score -m BLEU` printed per test bed


def _names(store: Store, rows: list[tuple]) -> set[tuple]:
    """(test bed, metric, target, reference set, variant, origins) of id-keyed rows."""
    metric = dict(store.query("select metric_id, name from metric"))
    target = dict(store.query("select translator_id, name from translator"))
    refset = {rid: (bed, name) for rid, bed, name in store.query(
        "select r.refset_id, t.name, r.name from refset r join testbed t using (testbed_id)")}
    return {(refset[r][0], metric[m], target[t], refset[r][1], v, tuple(o))
            for m, t, r, v, o in rows}


def test_macro_holds_the_imported_keys_and_nothing_computed(store_path: Path) -> None:
    with Store(store_path, read_only=True) as store:
        rows = store.query(f"select {COLUMNS} from imported_score_keys()")
        assert _names(store, rows) == {
            ("one", "COMET", "S1", "ref-A", "case:mixed", ("a.tsv",)),
            ("one", "COMET", "S2", "ref-A", "case:mixed", ("a.tsv",)),
            ("one", "BLEU", "S1", "ref-A", "case:mixed", ("bleu.tsv",)),
            ("one", "COMET", "S1", "ref-A", "case:lc", ("lc.tsv",)),
            ("two", "COMET", "S1", "ref-B", "case:mixed", ("b1.tsv", "b2.tsv")),
            ("two", "BLEU", "S2", "ref-B", "case:mixed", ("bleu2.tsv",))}
        # the computed scores are there: BLEU at system level for every other pair
        assert store.scalar("select count(*) from sys_score s join score_batch b "
                            "using (batch_id) where b.origin = 'computed'") > 10


def test_macro_and_view_equal_the_old_view(store_path: Path) -> None:
    with Store(store_path, read_only=True) as store:
        old = sorted(store.query(f"select {COLUMNS} from ({OLD_VIEW})"))
        assert len(old) == 6
        assert sorted(store.query(f"select {COLUMNS} from imported_score_keys()")) == old
        assert sorted(store.query(f"select {COLUMNS} from imported_keys")) == old


def test_every_narrowing_is_the_old_view_filtered(store_path: Path) -> None:
    """Test beds, reference sets, variant and metrics, each alone and together: the old
    view's rows filtered the same way (an unknown test bed gives nothing)."""
    with Store(store_path, read_only=True) as store:
        old = store.query(f"select {COLUMNS}, r.testbed_id, r.name from ({OLD_VIEW}) "
                          "join refset r using (refset_id)")
        tids = [r[0] for r in store.query("select testbed_id from testbed order by 1")]
        mids = dict(store.query("select name, metric_id from metric"))
        choices = itertools.product(
            [None, tids[:1], tids[1:], tids, [999]], [None, ["ref-A"], ["ref-B", "ref-A+ref-B"]],
            [None, "case:mixed", "case:lc"], [None, [mids["COMET"]], [mids["BLEU"], 999]])
        seen = set()
        for beds, refsets, var, metrics in choices:
            got = sorted(store.query(
                f"select {COLUMNS} from imported_score_keys(testbed_ids := ?, refsets := ?, "
                "var := ?, metric_ids := ?)", [beds, refsets, var, metrics]))
            want = sorted(r[:5] for r in old
                          if (beds is None or r[5] in beds)
                          and (refsets is None or r[6] in refsets)
                          and (var is None or r[3] == var)
                          and (metrics is None or r[0] in metrics))
            assert got == want, (beds, refsets, var, metrics)
            seen.add(len(got))
        assert {0, 1, 2, 6} <= seen  # the narrowings do narrow


def test_scored_keys_are_system_scores_and_imported_keys(store_path: Path) -> None:
    """What scoring counts as done, narrowed like ``imported_score_keys``: the old view's
    union of system-score keys and imported keys, filtered the same way."""
    with Store(store_path, read_only=True) as store:
        keys = "metric_id, translator_id, refset_id, variant"
        old = store.query(f"select k.*, r.testbed_id from (select {keys} from sys_score union "
                          f"select {keys} from ({OLD_VIEW})) k join refset r using (refset_id)")
        tids = [r[0] for r in store.query("select testbed_id from testbed order by 1")]
        bleu = store.scalar("select metric_id from metric where name = 'BLEU'")
        for beds, var, metrics in itertools.product([None, tids[1:], [999]],
                                                    [None, "case:lc"], [None, [bleu]]):
            got = sorted(store.query("select * from scored_keys(testbed_ids := ?, var := ?, "
                                     "metric_ids := ?)", [beds, var, metrics]))
            assert got == sorted(r[:4] for r in old
                                 if (beds is None or r[4] in beds)
                                 and (var is None or r[3] == var)
                                 and (metrics is None or r[0] in metrics)), (beds, var, metrics)
        assert len(old) > 20


def test_scoring_leaves_the_imported_keys_of_its_test_bed_alone(store_path: Path) -> None:
    assert "imported scores used as they are: BLEU (1 pairs)" in NOTES["one"]
    assert "imported scores used as they are: BLEU (1 pairs)" in NOTES["two"]
    with Store(store_path, read_only=True) as store:
        assert store.query("select level, value from scores where testbed = 'one' and "
                           "metric = 'BLEU' and translator = 'S1' and refset = 'ref-A' "
                           "order by level, seg_id") == [
            ("doc", 0.5), ("seg", 0.1), ("seg", 0.2), ("seg", 0.1 * 3), ("sys", 0.25)]
        # S2 against ref-B: imported at segment level in two, so computed in one alone
        assert store.query("select testbed, count(*) from scores where metric = 'BLEU' and "
                           "translator = 'S2' and refset = 'ref-B' and level = 'sys' "
                           "group by all") == [("one", 1)]
    again = ulcdb(store_path, "score", "-t", "two", "-m", "BLEU", "-j", "1")
    assert again.exit_code == 0 and "computed nothing new" in again.output, again.output


def test_meta_names_the_imported_metrics_of_one_reference_set(store_path: Path) -> None:
    with Store(store_path, read_only=True) as store:
        one, two = (store.testbed_id(b) for b in ("one", "two"))
        wanted = ["TER", "BLEU", "COMET"]
        assert imported_metrics(store, one, "ref-A", wanted) == ["BLEU", "COMET"]
        assert imported_metrics(store, one, "ref-B", wanted) == []
        assert imported_metrics(store, one, "ref-A", ["COMET"]) == ["COMET"]
        assert imported_metrics(store, two, "ref-A", wanted) == []
        assert imported_metrics(store, two, "ref-B", wanted) == ["BLEU", "COMET"]


def test_a_store_made_before_loses_its_stale_scored_keys_view(tmp_path: Path) -> None:
    """A store whose `scored_keys` is still the view of earlier versions: the next writable
    open drops it (schema/retired.sql), leaving the macro; a read-only open changes
    nothing and still gets the macro."""
    db = tmp_path / "old.duckdb"
    with Store(db) as store:
        store.con.execute("create view scored_keys as select 1 as stale")
        store.con.execute("update schema_info set value = 'old' where key = 'schema_hash'")
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from duckdb_views() "
                            "where view_name = 'scored_keys'") == 1
        assert store.query("select * from scored_keys()") == []
    with Store(db) as store:
        assert store.scalar("select count(*) from duckdb_views() "
                            "where view_name = 'scored_keys'") == 0
        assert store.query("select * from scored_keys()") == []

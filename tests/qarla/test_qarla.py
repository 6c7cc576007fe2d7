"""QARLA: QUEEN, KING, ORANGE and JACK from the SQL macros.

Golden values: Asiya 3.0 on the en-de sample (../shared/golden/ende_sample/asiya_meta.tsv,
references A, C, D; ende_sample_4refs_draftB with the draft of reference B as a fourth), fed
the very similarity scores Asiya used (see qarla_golden.py).  Hand-computed toy cases cover
the strict reading, trans-topic mode, references as targets and JACK, and a brute-force
count checks QUEEN on random scores full of ties.
"""

from __future__ import annotations

import random
from itertools import permutations
from pathlib import Path

import pytest
from golden import load_golden
from qarla_golden import FOUR_REFS, SETS, THREE_REFS, metric_set, sample_store
from typer.testing import CliRunner

from ulcdb.cli.main import app
from ulcdb.errors import NotFound, StoreError
from ulcdb.qarla.measures import (
    Scope,
    check_scores,
    exhaustive_king,
    jack_value,
    king_rows,
    optimize_king,
    queen_rows,
    queen_values,
)
from ulcdb.scoring.scorer import ensure_refset
from ulcdb.store.database import Store

LEVELS = ("seg", "doc", "sys")
VARIANT = "case:mixed"


# -- golden stores ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def store3(shared: Path):
    store = sample_store(shared, THREE_REFS)
    yield store
    store.close()


@pytest.fixture(scope="module")
def store4(shared: Path):
    store = sample_store(shared, FOUR_REFS)
    yield store
    store.close()


def _meta(shared: Path, folder: str):
    return load_golden(shared / "golden" / folder / "asiya_meta.tsv")


def _unit(level: str, doc_id: str | None, seg_id: int | None) -> tuple[str, str]:
    return ("" if level == "sys" else doc_id or "", str(seg_id) if level == "seg" else "")


def _queen(store: Store, metrics: list[str], level: str, cumulative: bool) -> dict:
    rows = store.query("select translator, doc_id, seg_id, queen from queen(?, ?, "
                       "doc_cumulative := ?) where role = 'system'", [metrics, level, cumulative])
    return {(t, *_unit(level, d, s)): q for t, d, s, q in rows}


def _check_queen_and_ulc(store: Store, meta, refset: str) -> int:
    checked = 0
    for set_name, metrics in SETS.items():
        for level in LEVELS:
            got = {"QUEEN": _queen(store, metrics, level, cumulative=True)}
            rows = store.query("select translator, doc_id, seg_id, ulc from ulc(?, ?) "
                               "where refset = ? and role = 'system'", [metrics, level, refset])
            got["ULC"] = {(t, *_unit(level, d, s)): u for t, d, s, u in rows}
            for r in meta:
                if r.metric in got and r.level == level and metric_set(r.options) == metrics:
                    value = got[r.metric].get((r.system, r.doc_id, r.seg_id))
                    assert value is not None and f"{value:.8f}" == r.value, (set_name, r)
                    checked += 1
    return checked


def _check_king(store: Store, meta) -> int:
    checked = 0
    for metrics in SETS.values():
        for level in LEVELS:
            got = {}
            for measure, king, orange in store.query(
                    "select measure, king, orange from king(?, ?, measures := "
                    "['single', 'ulc', 'queen'], doc_cumulative := true)", [metrics, level]):
                got[f"KING[{measure}]"], got[f"ORANGE[{measure}]"] = king, orange
            for r in meta:
                if r.metric.startswith(("KING[", "ORANGE[")) and r.level == level \
                        and metric_set(r.options) == metrics:
                    assert r.metric in got and f"{got[r.metric]:.8f}" == r.value, r
                    checked += 1
    return checked


def test_golden_queen_and_ulc_3refs(shared, store3):
    """Every QUEEN (seg, Asiya's cumulative doc, sys) and ULC row, both metric sets."""
    checked = _check_queen_and_ulc(store3, _meta(shared, "ende_sample"), "ref-A+ref-C+ref-D")
    assert checked == 2 * 2 * 20 * (56 + 7 + 1)


def test_golden_king_orange_3refs(shared, store3):
    """KING and ORANGE of each metric and of ULC at every -g level (QUEEN needs 4 refs)."""
    meta = _meta(shared, "ende_sample")
    assert _check_king(store3, meta) == 54
    assert [r.value for r in meta if r.metric == "KING/ORANGE"][0].startswith("FAILED")


def test_golden_4refs(shared, store4):
    """With the draft of ref B as 4th reference: QUEEN (48 triples), ULC, and KING/ORANGE
    including KING[QUEEN] and ORANGE[QUEEN] (cumulative document QUEEN at -g doc)."""
    meta = _meta(shared, "ende_sample_4refs_draftB")
    assert _check_queen_and_ulc(store4, meta, "ref-A+ref-Bdraft+ref-C+ref-D") == 5120
    assert _check_king(store4, meta) == 66
    triples = store4.scalar("select max(triples) from queen(['BLEU'], 'seg') "
                            "where role = 'system'")
    assert triples == 48


def test_document_queen_is_per_document(shared, store3):
    """Our document QUEEN counts the document's own segments: its hits are the differences
    of Asiya's cumulative counts (documents in test-bed order)."""
    meta = _meta(shared, "ende_sample")
    docs = [r[0] for r in store3.query("select doc_id from document order by doc_index")]
    metrics = SETS["five"]
    rows = store3.query("select translator, doc_id, hits, triples from queen(?, 'doc') "
                        "where role = 'system'", [metrics])
    ours = {(t, d): (h, n) for t, d, h, n in rows}
    golden = {(r.system, r.doc_id): float(r.value) for r in meta
              if r.metric == "QUEEN" and r.level == "doc" and metric_set(r.options) == metrics}
    for system in {t for t, _ in ours}:
        cum_hits = cum_triples = 0
        for doc in docs:
            hits, triples = ours[(system, doc)]
            cum_hits, cum_triples = cum_hits + hits, cum_triples + triples
            assert round(golden[(system, doc)] * cum_triples) == cum_hits


def test_queen_values_for_score_column(store3):
    values = queen_values(store3, "ende", "sys", SETS["five"], ["UEdin", "ICL"],
                          list(THREE_REFS), VARIANT)
    assert set(values) == {("UEdin", ""), ("ICL", "")}
    assert f"{values[('UEdin', '')]:.8f}" == "0.48511905"
    seg = queen_values(store3, "ende", "seg", SETS["five"], ["UEdin"], list(THREE_REFS), VARIANT,
                       segments=[1, 2])
    assert set(seg) == {("UEdin", "1"), ("UEdin", "2")}


def test_qarla_values_are_the_stored_scores_oriented(store3):
    """qarla_values (what KING reads) gives each level's stored scores with x oriented by
    higher_is_better and the unit keyed as documented; qarla_scores adds the target's test
    bed and nothing else."""
    metrics = SETS["five"]
    for level, table, unit in (("seg", "seg_score", "u.seg_id"), ("sys", "sys_score", "0"),
                               ("doc", "doc_score", "d.doc_index")):
        stored = store3.query(
            f"select u.metric_id, u.translator_id, u.refset_id, {unit}, u.value, "
            f"m.higher_is_better from {table} u join metric m using (metric_id) "
            f"join translator t using (translator_id) left join document d "
            f"on {'d.doc_id = u.doc_id' if level == 'doc' else 'false'} "
            f"and d.testbed_id = t.testbed_id where list_contains(?, m.name)", [metrics])
        want = sorted((m, t, r, n, v, v if up else -v) for m, t, r, n, v, up in stored)
        got = store3.query("select metric_id, translator_id, refset_id, unit, value, x "
                           "from qarla_values(?, ?)", [metrics, level])
        assert len(want) > 0 and sorted(got) == want
        joined = store3.query("select t.testbed_id, v.* from qarla_values(?, ?) v "
                              "join translator t using (translator_id)", [metrics, level])
        assert sorted(joined) == sorted(store3.query("select * from qarla_scores(?, ?)",
                                                     [metrics, level]))
    segs = store3.query("select distinct unit from qarla_values(?, 'seg', segs := [2, 5])",
                        [metrics])
    assert sorted(segs) == [(2,), (5,)]


def test_optimize_king_greedy_and_exhaustive(store3, store4):
    scope = Scope("ende", VARIANT, tuple(SETS["five"]), tuple(_systems(store3)),
                  THREE_REFS)
    lines: list[str] = []
    search = optimize_king(store3, scope, "seg", log=lines.append)
    assert search.measure == "ulc"  # 3 references: ULC-based KING
    kings = [k for _, k in search.ranking]
    assert kings == sorted(kings, reverse=True) and search.ranking[0][0] == "-PER"
    assert f"{kings[0]:.8f}" == "0.10714286"  # golden KING[-PER], -g seg
    assert search.king >= kings[0] and search.best[0] == "-PER"
    assert lines[-1].startswith("optimal set {") and len(lines) == 1 + 5 + 1 + 4 + 1
    scope4 = Scope("ende", VARIANT, tuple(SETS["two"]), tuple(_systems(store4)), FOUR_REFS)
    greedy = optimize_king(store4, scope4, "sys", log=lambda _: None)
    full = exhaustive_king(store4, scope4, "sys", log=lambda _: None)
    assert greedy.measure == full.measure == "queen"
    assert full.king >= greedy.king and f"{full.king:.8f}" == "0.25000000"


def _systems(store: Store) -> list[str]:
    return [r[0] for r in store.query("select name from translator where role = 'system' "
                                      "order by name")]


# -- toy stores ------------------------------------------------------------------------------

Scores = dict[tuple[str, str, str, int], float]  # (metric, target, other, seg_id) -> value


def toy_store(scores: Scores, refs: list[str], systems: list[str], n_segments: int,
              lower_is_better: tuple[str, ...] = (), path: str = ":memory:") -> Store:
    """Test bed 'toy' (documents d1: segments 1-2, d2: the rest) with hand-given segment
    scores of each target against single translators."""
    store = Store(path)
    add_testbed(store, "toy", scores, refs, systems, n_segments, lower_is_better)
    return store


def add_testbed(store: Store, name: str, scores: Scores, refs: list[str], systems: list[str],
                n_segments: int, lower_is_better: tuple[str, ...] = ()) -> None:
    with store.transaction():
        tid = store.scalar("insert into testbed (name) values (?) returning testbed_id", [name])
        store.insert_columns("document", {"testbed_id": [tid, tid], "doc_id": ["d1", "d2"],
                                          "doc_index": [1, 2]})
        segs = list(range(1, n_segments + 1))
        store.insert_columns("segment", {
            "testbed_id": [tid] * len(segs), "seg_id": segs,
            "doc_id": ["d1" if s <= 2 else "d2" for s in segs],
            "seg_in_doc": [s if s <= 2 else s - 2 for s in segs], "source": [""] * len(segs)})
        names = [*refs, *systems]
        store.insert_columns("translator", {
            "testbed_id": [tid] * len(names), "name": names,
            "role": ["reference"] * len(refs) + ["system"] * len(systems)})
        known = {m for (m,) in store.query("select name from metric")}
        for m in sorted({k[0] for k in scores} - known):
            store.con.execute("insert into metric (name, family, linguistic_level, "
                              "higher_is_better, description) values (?, 'toy', 'lexical', ?, "
                              "'toy')", [m, m not in lower_is_better])
        batch = store.scalar("insert into score_batch (family, signature) values ('toy', "
                             "'toy') returning batch_id")
        ids = store.translators(tid)
        refsets = {o: ensure_refset(store, tid, (o,), ids) for o in {k[2] for k in scores}}
        metric_ids = dict(store.query("select name, metric_id from metric"))
        keys = list(scores)
        store.insert_columns("seg_score", {
            "metric_id": [metric_ids[k[0]] for k in keys],
            "translator_id": [ids[k[1]] for k in keys],
            "refset_id": [refsets[k[2]] for k in keys],
            "variant": [VARIANT] * len(keys), "seg_id": [k[3] for k in keys],
            "value": [scores[k] for k in keys], "batch_id": [batch] * len(keys)})


R3 = ["R1", "R2", "R3"]
PAIRS_SEG1 = {("R1", "R2"): 0.5, ("R2", "R1"): 0.5, ("R1", "R3"): 0.3, ("R3", "R1"): 0.4,
              ("R2", "R3"): 0.6, ("R3", "R2"): 0.6}


def _hand_scores() -> Scores:
    s: Scores = {}
    for (a, b), v in PAIRS_SEG1.items():
        s[("m1", a, b, 1)], s[("m2", a, b, 1)] = v, 0.5
        s[("m1", a, b, 2)], s[("m2", a, b, 2)] = 0.2, 0.5
    for r, v1, v2 in (("R1", 0.5, 0.4), ("R2", 0.35, 0.9), ("R3", 0.4, 0.5)):
        s[("m1", "S1", r, 1)], s[("m2", "S1", r, 1)] = v1, v2
        s[("m1", "S1", r, 2)], s[("m2", "S1", r, 2)] = 0.3, 0.5
    for r, v1 in (("R1", 0.2), ("R2", 0.5), ("R3", 0.1)):
        s[("m1", "S2", r, 1)], s[("m2", "S2", r, 1)] = v1, 0.6
        s[("m1", "S2", r, 2)], s[("m2", "S2", r, 2)] = 0.1, 0.6
    for a, b in (("S1", "S2"), ("S2", "S1")):
        s[("m1", a, b, 1)], s[("m2", a, b, 1)] = 0.45, 0.3
        s[("m1", a, b, 2)], s[("m2", a, b, 2)] = 0.2, 0.3
    return s


@pytest.fixture(scope="module")
def hand():
    store = toy_store(_hand_scores(), R3, ["S1", "S2"], n_segments=2)
    yield store
    store.close()


def _q(store: Store, metrics: list[str], target: str, level: str = "seg", unit: int = 1,
       **options) -> tuple[int, int]:
    scope = Scope("toy", VARIANT, tuple(metrics), ("S1", "S2"), tuple(R3),
                  strict=options.get("strict", False),
                  trans_topic=options.get("trans_topic", False))
    for r in queen_rows(store, scope, level):
        if r.translator == target and (level != "seg" or r.unit == str(unit)):
            return r.hits, r.triples
    raise AssertionError(f"no QUEEN for {target}")


def test_hand_queen_default_reading(hand):
    # r = R1 (0.5): 4 pairs at or below; R2 (0.35): 1; R3 (0.4): 2 (0.4 ties with x(R3, R1)).
    assert _q(hand, ["m1"], "S1") == (7, 18)
    assert _q(hand, ["m1"], "S2") == (4, 18)
    # m2: every pair 0.5; x(S1, R1) = 0.4 fails, so r = R1 gives nothing.
    assert _q(hand, ["m1", "m2"], "S1") == (3, 18)


def test_hand_queen_strict_reading(hand):
    # r, r', r'' distinct: R1 vs (R2, R3) pairs at 0.6: 0; R2 (0.35) vs 0.3, 0.4: 1; R3 (0.4)
    # vs 0.5, 0.5: 0.
    assert _q(hand, ["m1"], "S1", strict=True) == (1, 6)


def test_hand_queen_trans_topic(hand):
    # Segment 2's six pairs are all 0.2, below every x(S1, r) of segment 1: 7 + 3 * 6.
    assert _q(hand, ["m1"], "S1", trans_topic=True) == (25, 36)
    assert _q(hand, ["m1"], "S1", level="sys", trans_topic=True)[1] == 2 * 36


def test_hand_queen_of_references(hand):
    # R1 against {R2, R3}: x(R1, R2) = 0.5, x(R1, R3) = 0.3, both below x(R2, R3) = 0.6.
    assert _q(hand, ["m1"], "R1") == (0, 4)
    # R3 against {R1, R2}: x(R3, R2) = 0.6 beats both 0.5 pairs, x(R3, R1) = 0.4 none.
    assert _q(hand, ["m1"], "R3") == (2, 4)


def test_hand_queen_levels(hand):
    # Segment 2: x(S1, r) = 0.3 against pairs of 0.2: all 18 triples.
    assert _q(hand, ["m1"], "S1", unit=2) == (18, 18)
    assert _q(hand, ["m1"], "S1", level="sys") == (25, 36)
    doc = hand.query("select hits, triples from queen(['m1'], 'doc') where translator = 'S1'")
    assert doc == [(25, 36)]


def test_hand_jack(hand):
    # Segment 1: R1 hit (x(S1, S2) = 0.45 <= x(S1, R1) = 0.5), R2 hit through S2
    # (0.45 <= 0.5), R3 none.  Segment 2: S2 has QUEEN 0, so no pair of systems.
    scope = Scope("toy", VARIANT, ("m1",), ("S1", "S2"), tuple(R3))
    result = jack_value(hand, scope, "seg")
    assert (result.hits, result.cases) == (2, 6)
    assert result.jack == pytest.approx(1 / 3)
    # With m2 too: x2(S1, S2) = 0.3 <= every x2(S1, r); x2(S2, S1) = 0.3 <= 0.6.  QUEEN with
    # {m1, m2}: S1 3/18, S2 4/18 (m2 always passes for S2), same hits.
    assert jack_value(hand, Scope("toy", VARIANT, ("m1", "m2"), ("S1", "S2"), tuple(R3)),
                      "seg").hits == 2


def test_lower_is_better_metrics_are_negated():
    scores = {(k[0], k[1], k[2], k[3]): -v for k, v in _hand_scores().items()}
    store = toy_store(scores, R3, ["S1", "S2"], n_segments=2, lower_is_better=("m1", "m2"))
    try:
        assert _q(store, ["m1"], "S1") == (7, 18)
    finally:
        store.close()


def test_queen_needs_reference_pairs_in_the_segment():
    """Segment 2 without any score of a reference against another has no QUEEN (it counted
    18 triples without a hit before issue 28); a NULL score (a failed parse) is no hit but
    keeps its segment's row."""
    scores: dict = {k: v for k, v in _hand_scores().items() if not (k[3] == 2 and k[1] in R3)}
    scores[("m1", "S2", "R1", 1)] = None  # was 0.2, below every pair: no hit either way
    store = toy_store(scores, R3, ["S1", "S2"], n_segments=2)
    try:
        rows = store.query("select level, translator, seg_id, hits, triples from "
                           "queen(['m1'], 'all') where role = 'system' and level <> 'doc'")
        assert sorted(rows, key=str) == [("seg", "S1", 1, 7, 18), ("seg", "S2", 1, 4, 18),
                                         ("sys", "S1", None, 7, 18), ("sys", "S2", None, 4, 18)]
    finally:
        store.close()


def test_variants_are_kept_apart(tmp_path):
    """The same keys scored under two variants: each variant's QUEEN and KING are those of a
    store holding that variant alone (the macros group by the variant's position in
    `score_variants`, not by its text; 'a-other' sorts before 'case:mixed')."""
    base = _hand_scores()
    other = {k: v * 0.7 + (0.25 if k[1] == "S2" else 0.0) for k, v in base.items()}
    both = toy_store(base, R3, ["S1", "S2"], n_segments=2, path=str(tmp_path / "both.duckdb"))
    alone = toy_store(other, R3, ["S1", "S2"], n_segments=2,
                      path=str(tmp_path / "alone.duckdb"))
    alone.close()

    def measures(store: Store, variant: str) -> tuple[list, list]:
        scope = Scope("toy", variant, ("m1", "m2"), ("S1", "S2"), tuple(R3))
        return (queen_rows(store, scope, "seg") + queen_rows(store, scope, "sys"),
                king_rows(store, scope, "seg", ["single", "ulc"]))

    try:
        before = measures(both, VARIANT)
        both.con.execute(f"attach '{tmp_path / 'alone.duckdb'}' as other (read_only)")
        both.con.execute(
            "insert into seg_score select m.metric_id, t.translator_id, f.refset_id, "
            "'a-other', s.seg_id, s.value, null, s.batch_id from other.seg_score s "
            "join other.metric om on om.metric_id = s.metric_id "
            "join metric m on m.name = om.name "
            "join other.translator ot on ot.translator_id = s.translator_id "
            "join translator t on t.name = ot.name "
            "join other.refset ofs on ofs.refset_id = s.refset_id "
            "join refset f on f.name = ofs.name")
        both.con.execute("detach other")
        assert both.scalar("select names from score_variants") == ["a-other", VARIANT]
        assert measures(both, VARIANT) == before
        with Store(tmp_path / "alone.duckdb") as single:
            assert measures(both, "a-other") == measures(single, VARIANT)
        assert measures(both, "a-other") != before
    finally:
        both.close()


def test_orange_is_king_s_orange_of_the_test_beds_asked(store3):
    """orange(...) gives king's ORANGE column (Asiya's, checked against the golden file in
    the KING tests), and like king reads only the test beds in `testbeds` (it took no such
    parameter: the call was a binder error)."""
    tb = store3.scalar("select name from testbed")
    for level in LEVELS:
        call = f"(['BLEU', 'NIST'], '{level}', testbeds := ?) order by measure"
        oranges = store3.query(f"select measure, orange, cases from orange{call}", [[tb]])
        kings = store3.query(f"select measure, orange, cases from king{call}", [[tb]])
        assert oranges == kings and len(oranges) == 3  # BLEU, NIST, ULC
        assert store3.query(f"select * from orange{call}", [["elsewhere"]]) == []


def test_too_few_references(hand):
    scope = Scope("toy", VARIANT, ("m1",), ("S1", "S2"), ("R1", "R2"))
    with pytest.raises(StoreError, match="QUEEN needs at least 3 references: the reference "
                                         "set has 2"):
        queen_rows(hand, scope, "sys")
    with pytest.raises(StoreError, match="needs at least 4 references"):
        king_rows(hand, Scope("toy", VARIANT, ("m1",), ("S1",), tuple(R3)), "seg", ["queen"])



def test_missing_scores_are_named():
    # m1 scored against every single reference and system, m2 only against R1 and only by
    # S1: QUEEN lacks m2 against R2 and R3 only when they are asked for, JACK lacks m2's
    # system-vs-system scores.
    scores = {k: v for k, v in _hand_scores().items()
              if k[0] == "m1" or (k[1] == "S1" and k[2] == "R1")}
    store = toy_store(scores, R3, ["S1", "S2"], n_segments=2)
    try:
        check_scores(store, Scope("toy", VARIANT, ("m1", "m2"), ("S1", "S2"), ("R1",)))
        with pytest.raises(NotFound, match="no segment scores of m3 against single "
                                           "references in test bed 'toy'"):
            check_scores(store, Scope("toy", VARIANT, ("m1", "m3"), ("S1",), tuple(R3)))
        with pytest.raises(NotFound, match="no segment scores of m1 against"):
            check_scores(store, Scope("toy", "other", ("m1",), ("S1",), tuple(R3)))
        assert jack_value(store, Scope("toy", VARIANT, ("m1",), ("S1", "S2"), tuple(R3)),
                          "seg").hits == 2
        with pytest.raises(NotFound, match="JACK needs system-vs-system scores"):
            jack_value(store, Scope("toy", VARIANT, ("m1", "m2"), ("S1", "S2"), tuple(R3)),
                       "seg")
    finally:
        store.close()

# -- brute force -----------------------------------------------------------------------------

def _brute(s: Scores, metrics, target, pool, seg, segs, strict, trans_topic) -> tuple[int, int]:
    hits = triples = 0
    for r in pool:
        for s2 in (segs if trans_topic else [seg]):
            for r1, r2 in permutations(pool, 2):
                if strict and r in (r1, r2):
                    continue
                triples += 1
                hits += all(s[(m, target, r, seg)] >= s[(m, r1, r2, s2)] for m in metrics)
    return hits, triples


@pytest.mark.parametrize("strict,trans_topic", [(False, False), (True, False), (False, True)])
def test_queen_matches_brute_force(strict, trans_topic):
    """Random scores on a 0.1 grid (many ties), 4 references, with and without holdout."""
    rng = random.Random(7)
    refs, systems, segs, metrics = ["R1", "R2", "R3", "R4"], ["S1", "S2"], [1, 2, 3], \
        ["m1", "m2"]
    scores: Scores = {(m, t, o, g): rng.randint(1, 5) / 10 for m in metrics
                      for t in refs + systems for o in refs if o != t for g in segs}
    store = toy_store(scores, refs, systems, n_segments=3)
    try:
        rows = store.query(
            "select held_out, translator_id, seg_id, hits, triples from queen_hits(['m1', "
            "'m2'], strict := ?, trans_topic := ?, holdout := true)", [strict, trans_topic])
        names = {i: n for n, i in store.translators(store.testbed_id("toy")).items()}
        names[0] = ""
        assert len(rows) == len(refs) * (len(systems) + 1) * len(segs)
        for held, target, seg, hits, triples in rows:
            pool = [r for r in refs if r not in (names[held], names[target])]
            assert (hits, triples) == _brute(scores, metrics, names[target], pool, seg, segs,
                                             strict, trans_topic)
        plain = store.query("select translator, seg_id, hits from queen(['m1', 'm2'], 'seg', "
                            "strict := ?, trans_topic := ?)", [strict, trans_topic])
        assert len(plain) == (len(refs) + len(systems)) * len(segs)
        for target, seg, hits in plain:
            pool = [r for r in refs if r != target]
            assert hits == _brute(scores, metrics, target, pool, seg, segs, strict,
                                  trans_topic)[0]
    finally:
        store.close()


REFS4, SYSTEMS2, SEGS3, METRICS2 = ["R1", "R2", "R3", "R4"], ["S1", "S2"], [1, 2, 3], ["m1", "m2"]


def two_testbeds(seed: int) -> tuple[Store, dict[str, Scores]]:
    """Test beds 'toy' and 'toy2' with the same reference names and segment numbers and
    random scores of each target against each reference."""
    rng = random.Random(seed)
    beds = {name: {(m, t, o, g): rng.randint(1, 5) / 10 for m in METRICS2
                   for t in REFS4 + SYSTEMS2 for o in REFS4 if o != t for g in SEGS3}
            for name in ("toy", "toy2")}
    store = toy_store(beds["toy"], REFS4, SYSTEMS2, n_segments=3)
    add_testbed(store, "toy2", beds["toy2"], REFS4, SYSTEMS2, n_segments=3)
    return store, beds


@pytest.mark.parametrize("strict,trans_topic", [(False, False), (True, False), (False, True)])
def test_queen_of_a_test_bed_ignores_the_others(strict, trans_topic):
    """Two test beds with the same reference names and segment numbers: each test bed's
    QUEEN counts its own reference pairs only (they used to meet in one segment's pairs)."""
    refs, systems, segs, metrics = REFS4, SYSTEMS2, SEGS3, METRICS2
    store, beds = two_testbeds(5)
    try:
        rows = store.query("select testbed, translator, seg_id, hits, triples from queen(['m1', "
                           "'m2'], 'seg', strict := ?, trans_topic := ?)", [strict, trans_topic])
        assert len(rows) == 2 * (len(refs) + len(systems)) * len(segs)
        for bed, target, seg, hits, triples in rows:
            pool = [r for r in refs if r != target]
            assert (hits, triples) == _brute(beds[bed], metrics, target, pool, seg, segs, strict,
                                             trans_topic)
    finally:
        store.close()


@pytest.mark.parametrize("macro", [
    "queen(['m1', 'm2'], 'all'{})",
    "king(['m1', 'm2'], 'seg', measures := ['single', 'ulc', 'queen']{})",
    "queen(['m1'], 'seg', strict := true, trans_topic := true{})"])
def test_macros_restricted_to_a_test_bed_give_its_rows(macro):
    """testbeds := [...] (what the CLI and the API pass: one test bed's QUEEN does not
    compute every other test bed's first) gives exactly that test bed's rows."""
    store, _ = two_testbeds(7)
    try:
        every = store.query(f"select * from {macro.format('')} where testbed = 'toy2' "
                            "order by all")
        one = store.query(f"select * from {macro.format(', testbeds := [$$toy2$$]')} "
                          "order by all")
        assert every and one == every
    finally:
        store.close()


def test_jack_matches_brute_force():
    rng = random.Random(11)
    refs, systems, segs, metrics = ["R1", "R2", "R3"], ["S1", "S2", "S3"], [1, 2, 3, 4], \
        ["m1", "m2"]
    names = refs + systems
    scores: Scores = {(m, t, o, g): rng.randint(3 if o in systems else 1, 5) / 10
                      for m in metrics for t in names for o in names
                      if o != t and not (t in refs and o in systems) for g in segs}
    store = toy_store(scores, refs, systems, n_segments=len(segs))
    try:
        scope = Scope("toy", VARIANT, tuple(metrics), tuple(systems), tuple(refs))
        result = jack_value(store, scope, "seg")
    finally:
        store.close()
    hits = 0
    for g in segs:
        good = [a for a in systems if _brute(scores, metrics, a, refs, g, segs, False, False)[0]]
        for r in refs:
            hits += any(all(scores[(m, a, b, g)] <= scores[(m, a, r, g)] for m in metrics)
                        for a in good for b in good if a != b)
    assert (result.hits, result.cases) == (hits, len(refs) * len(segs))
    assert 0 < hits < len(refs) * len(segs)


# -- the command line ------------------------------------------------------------------------

def _cli(db: Path, *args: str):
    return CliRunner().invoke(app, ["--db", str(db), *args])


def test_cli_queen_and_jack(tmp_path: Path):
    db = tmp_path / "toy.duckdb"
    toy_store(_hand_scores(), R3, ["S1", "S2"], n_segments=2, path=str(db)).close()
    result = _cli(db, "queen", "-m", "m1", "-G", "all", "--doref", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert "sys,S1,system,R1+R2+R3,case:mixed,,25,36,0.6944444444444444" in result.output
    assert "seg,R1,reference,R2+R3,case:mixed,1,0,4,0.0" in result.output
    result = _cli(db, "queen", "-m", "m1", "-r", "R1,R2")
    assert result.exit_code == 1
    assert "QUEEN needs at least 3 references: the reference set has 2" in result.output
    result = _cli(db, "jack", "-m", "m1", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert "seg,0.3333333333333333,2,6,R1+R2+R3,case:mixed" in result.output
    result = _cli(db, "king", "-m", "m1", "--by", "queen")
    assert result.exit_code == 1 and "needs at least 4 references" in result.output


def test_cli_tables_say_what_the_numbers_are(tmp_path: Path):
    """Each QARLA table names the metric set, level, references and variant in its title and
    prints the signature of the scores beneath, as `ulcdb score` and sacrebleu do."""
    db = tmp_path / "toy.duckdb"
    toy_store(_hand_scores(), R3, ["S1", "S2"], n_segments=2, path=str(db)).close()
    for command, title in (("queen", "QUEEN over {m1}, sys level, references R1+R2+R3, "
                                      "variant case:mixed"),
                           ("jack", "JACK over {m1}, references R1+R2+R3, variant case:mixed")):
        result = _cli(db, command, "-m", "m1")
        assert result.exit_code == 0, result.output
        text = " ".join(result.output.split())  # the title may wrap
        assert title in text and "m1: toy" in result.output.splitlines()
    result = _cli(db, "king", "-m", "m1,m2", "-G", "seg", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert "level,measure,KING,cases,systems,refs,variant" in result.output.splitlines()


def test_cli_commands_have_help():
    for command in ("queen", "king", "jack"):
        result = CliRunner().invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "Example:" in result.output

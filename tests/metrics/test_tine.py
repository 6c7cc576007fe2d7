"""TINE (issue 13): the paper's worked example, hand-computed cosines and edge cases, VerbNet
alignment, and the metric through ulcdb score and meta on the WMT21 ru-en sample."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.annotation.model import PREDICATE, ROLE, Analysis, Span, Token
from ulcdb.metrics import tine
from ulcdb.metrics.base import Params
from ulcdb.metrics.tine import Frame
from ulcdb.store.database import Store

SHARED = Path(os.environ.get("ULCDB_SHARED", Path(__file__).resolve().parents[3] / "shared"))
VERBNET = SHARED / "resources" / "verbnet3.zip"
needs_verbnet = pytest.mark.skipif(not VERBNET.is_file(), reason=f"no {VERBNET}")


def _thesaurus(table: dict[str, list[str]]):
    return lambda w: table.get(w, [])


# The paper's section 3: H "The lack of snow discourages people from ordering ski stays in
# hotels and boarding houses." / R "The lack of snow is putting people off booking ski
# holidays in hotels and guest houses."; order and book share VerbNet's get-13.5.1.
SKI = [f"ski{i}" for i in range(20)]
THESAURUS = _thesaurus({"ski": SKI, "stays": [f"stay{i}" for i in range(20)],
                        "holidays": [f"holiday{i}" for i in range(20)]})
H_FRAMES = [Frame("discourage", {"A0": ("The", "lack", "of", "snow"), "A1": ("people",)}),
            Frame("order", {"A0": ("people",), "A1": ("ski", "stays"),
                            "AM-LOC": ("in", "hotels", "and", "boarding", "houses")})]
R_FRAMES = [Frame("put", {"A0": ("The", "lack", "of", "snow"), "A1": ("people",)}),
            Frame("book", {"A0": ("people",), "A1": ("ski", "holidays"),
                           "AM-LOC": ("in", "hotels", "and", "guest", "houses")})]


def test_the_05_of_ski_stays_follows_from_the_cosine() -> None:
    """{ski, stays} vs {ski, holidays}, each word followed by its 20 neighbours: ski's 21
    types are shared, the rest are not: 21 / sqrt(42 x 42) = 0.5."""
    assert tine.arg_score(["ski", "stays"], ["ski", "holidays"], THESAURUS) == 0.5
    assert tine.arg_score(["people"], ["people"], THESAURUS) == 1.0


def test_the_papers_worked_example(monkeypatch: pytest.MonkeyPatch) -> None:
    """verb score (order, book) = (1 + 0.5 + 0.72) / 3 = 0.74; A = 0.74 / 2 = 0.37, with the
    paper's 0.72 for AM-LOC (which needs Lin's thesaurus) given."""
    real = tine.arg_score

    def arg_score(h, r, similar):
        return 0.72 if "hotels" in h else real(h, r, similar)

    monkeypatch.setattr(tine, "arg_score", arg_score)
    aligned = {("order", "book")}
    assert tine.verb_score(H_FRAMES[1], R_FRAMES[1], THESAURUS) == pytest.approx(2.22 / 3)
    a = tine.adequacy(H_FRAMES, R_FRAMES, lambda x, y: (x, y) in aligned, THESAURUS)
    assert a == pytest.approx(2.22 / 3 / 2) and round(a, 2) == 0.37


def test_lexical_cosine_by_hand() -> None:
    # types shared: a, c (2); tokens 4 and 3: 2 / sqrt(12)
    assert tine.cosine(["a", "b", "a", "c"], ["a", "c", "d"]) == pytest.approx(2 / math.sqrt(12))
    assert tine.cosine(["The", "cat"], ["the", "cat"]) == pytest.approx(0.5)  # case-sensitive
    assert tine.cosine([], ["a"]) == 0.0


def test_edge_cases() -> None:
    # no verbs, or none aligned: A = 0 and TINE = 0.8 L
    assert tine.adequacy([], R_FRAMES, lambda x, y: True, THESAURUS) == 0.0
    assert tine.adequacy(H_FRAMES, [], lambda x, y: True, THESAURUS) == 0.0
    assert tine.adequacy(H_FRAMES, R_FRAMES, lambda x, y: False, THESAURUS) == 0.0
    assert tine.combine(0.6, 0.0) == pytest.approx(0.8 * 0.6)
    # a reference frame without arguments scores 0; every pair is tried (no 1-1 alignment)
    assert tine.verb_score(H_FRAMES[1], Frame("book", {}), THESAURUS) == 0.0
    both = tine.adequacy([H_FRAMES[1], H_FRAMES[1]], [R_FRAMES[1]],
                         lambda x, y: True, THESAURUS)
    assert both == pytest.approx(2 * tine.verb_score(H_FRAMES[1], R_FRAMES[1], THESAURUS))


def _analysis(words: str, verb: int | None = None,
              roles: dict[str, tuple[int, int]] | None = None) -> Analysis:
    roles = roles or {}
    tokens = tuple(Token(w, w.lower()) for w in words.split())
    spans: list[Span] = []
    if verb is not None:
        spans.append(Span(PREDICATE, 1, verb, verb + 1, tokens[verb].lemma or ""))
        spans += [Span(ROLE, 2 + i, a, b, label, 1) for i, (label, (a, b)) in
                  enumerate(roles.items())]
    return Analysis(tokens=tokens, spans=tuple(spans), layers=frozenset({PREDICATE, ROLE}))


def test_multi_reference_max_and_tine_b(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tine, "verbnet_aligned", lambda a, b: False)
    fam = tine.TineFamily()
    fam._similar = THESAURUS
    hyp = _analysis("the cat sat on the mat", 2, {"A0": (0, 2)})
    close = _analysis("the cat sat on the mat", 2, {"A0": (0, 2)})
    far = _analysis("a dog ran", 2, {"A0": (0, 2)})
    params = Params()
    one, two = (fam.segment_scores(hyp, r, params) for r in (far, close))
    assert two["TINE-L"] == 5 / 6 and two["TINE-A"] == 1.0  # 5 types, 6 tokens; same verb
    assert two["TINE"] == pytest.approx((5 / 6 + 0.25) / 1.25)
    bleu = tine.segment_bleu("the cat sat on the mat".split(), "the cat sat on the mat".split(),
                             params)
    assert bleu == pytest.approx(1.0) and two["TINE-B"] == pytest.approx(1.0)
    assert one["TINE"] == 0.0
    from ulcdb.metrics.ling import best_over_refs

    best = best_over_refs(hyp, [far, close], lambda h, r: fam.segment_scores(h, r, params),
                          fam.names(), fam.layer)
    assert best["TINE"] == two["TINE"]


@needs_verbnet
def test_verbnet_alignment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ulcdb.metrics import tine_resources

    monkeypatch.setenv("ULCDB_VERBNET", str(VERBNET))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tine_resources.verbnet.cache_clear()
    tine_resources.verb_classes.cache_clear()
    assert "get-13.5.1" in tine_resources.verb_classes("order")
    assert tine.verbnet_aligned("order", "book")  # the paper's pair
    assert tine.verbnet_aligned("spook", "terrify")  # amuse-31.1, the paper's example
    assert not tine.verbnet_aligned("discourage", "put")


def test_missing_verbnet_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ulcdb.metrics import tine_resources

    monkeypatch.setenv("ULCDB_VERBNET", str(tmp_path / "nope.zip"))
    tine_resources.verbnet.cache_clear()
    with pytest.raises(tine_resources.ResourceMissing, match="no such file or folder"):
        tine_resources.verbnet()
    tine_resources.verbnet.cache_clear()


@needs_verbnet
def test_tine_through_score_and_meta(shared: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from ulcdb.metrics import tine_resources

    monkeypatch.setenv("ULCDB_VERBNET", str(VERBNET))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    tine_resources.verbnet.cache_clear()
    bed = shared / "testbeds" / "wmt21_newstest2021_ruen" / "sample"
    db = tmp_path / "t.duckdb"
    steps = [("ingest", "testbed", bed / "segments_long.tsv", "--name", "ruen", "--src-lang",
              "ru", "--tgt-lang", "en"),
             ("score", "-m", "TINE,BLEU,MTR-exact", "-G", "all", "-j", "1", "-f", "csv")]
    for step in steps:
        result = ulcdb(db, *step)
        assert result.exit_code == 0, result.output
    with Store(db, read_only=True) as store:
        rows = store.query("select translator, seg_id, metric, value from scores where "
                           "level = 'seg' and refset = 'ref-A+ref-B' and metric like 'TINE%'")
        sig = store.scalar("select distinct signature from score_batch where family = 'TINE' "
                           "and signature like '%nrefs:2%'")
    seg: dict[tuple, dict[str, float]] = {}
    for t, s, m, v in rows:
        seg.setdefault((t, s), {})[m] = v
    assert len(seg) == 10 * 64  # the 10 systems against both references
    for v in seg.values():  # the max over references is at least the best-L reference's
        assert 0 <= v["TINE"] <= 1 and v["TINE"] >= 0.8 * v["TINE-L"] - 1e-12
    assert any(v["TINE-A"] > 0 for v in seg.values())
    assert "verbnet:3.3" in sig and "verbocean:none" in sig and "alpha:1|beta:0.25" in sig
    for level in ("seg", "sys"):
        result = ulcdb(db, "meta", "-c", "DA-raw", "-G", level, "-m", "TINE,TINE-B,TINE-L,"
                       "TINE-A,BLEU,MTR-exact", "--bootstrap", "0", "-f", "csv")
        assert result.exit_code == 0, result.output
        assert all(f"\n{m}," in result.output for m in ("TINE", "TINE-B", "BLEU"))

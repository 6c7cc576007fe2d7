"""KING's 'queen' measure is planned only when asked: `king_quality` writes its arguments into
the statement query() plans (`sql_literal`).  Names holding quotes, backslashes or SQL must
read back as the same names, and every parameter must reach QUEEN's macros."""

from __future__ import annotations

import random

from tests.qarla.test_qarla import METRICS2, REFS4, SEGS3, SYSTEMS2, toy_store

HOSTILE = ["R'1", 'R"2', "R\\3", "R4'); drop table metric; --"]
CALL = ("select measure, king, orange, cases from king(['m1', 'm2'], ?, measures := "
        "['single', 'ulc', 'queen'], refs := ?, systems := ?, strict := ?, trans_topic := ?, "
        "segs := ?, doc_cumulative := ?, testbeds := ['toy']) order by measure")
# level, systems, strict, trans_topic, segs, doc_cumulative
CASES = [("seg", SYSTEMS2[:1], False, False, None, False),
         ("seg", SYSTEMS2[1:], False, False, None, False),
         ("seg", SYSTEMS2, True, False, [1, 3], False),
         ("sys", SYSTEMS2, False, True, None, False),
         ("doc", SYSTEMS2, False, False, None, False),
         ("doc", SYSTEMS2, False, False, None, True)]


def _scores(refs: list[str]) -> dict:
    rng = random.Random(5)
    names = refs + SYSTEMS2
    return {(m, t, o, g): rng.randint(1, 5) / 10 for m in METRICS2 for t in names
            for o in refs if o != t for g in SEGS3}


def test_queen_measure_reads_its_arguments_as_given():
    plain = toy_store(_scores(REFS4), REFS4, SYSTEMS2, n_segments=3)
    hostile = toy_store(_scores(HOSTILE), HOSTILE, SYSTEMS2, n_segments=3)
    try:
        results = []
        for level, systems, *rest in CASES:
            want = plain.query(CALL, [level, REFS4, systems, *rest])
            got = hostile.query(CALL, [level, HOSTILE, systems, *rest])
            assert got == want and [r[0] for r in want] == ["QUEEN"]  # single scores only
            results.append(want)
        assert hostile.scalar("select count(*) from metric") == 2
        # each argument reaches QUEEN: systems, strict + segs, trans_topic, doc_cumulative
        assert len({str(r) for r in results}) == len(results)
    finally:
        plain.close()
        hostile.close()

"""A tiny WMT20-layout metrics release for tests: en-de with references A, B and P, three MT
systems and the human translations Human-A.0, Human-B.0 and Human-P.0, each the text of its
reference (as WMT20's are: scored 1.0 against it), written to a folder with the values kept
to count the expected numbers from (tests/qarla/test_qarla_wmt20.py, the serve mirror's)."""

from __future__ import annotations

import random
from pathlib import Path

REFSETS = {"newstest2020": "ref-A", "newstestB2020": "ref-B", "newstestP2020": "ref-P"}
HUMANS = {"Human-A.0": "ref-A", "Human-B.0": "ref-B", "Human-P.0": "ref-P"}
MT = ("sysA", "sysB", "sysC")
METRICS = ("MetricX", "MetricY")
N_SEGS = 6
VARIANT = "case:mixed"
Scores = dict[tuple[str, str, str, int], float]  # (metric, target, reference, seg) -> value


def release(root: Path, seed: int = 7, refsets: dict[str, str] = REFSETS) -> Scores:
    """en-de with references A, B, P (or ``refsets``): every system and human translation
    against every single reference (the human ones against their own reference too, at 1.0,
    as WMT20's parbleu file has them), values from a few levels so that ties are common; two
    documents."""
    rng = random.Random(seed)
    (root / "input_details").mkdir(parents=True)
    units = [("d1", k) for k in range(1, 4)] + [("d2", k) for k in range(1, N_SEGS - 2)]
    (root / "input_details" / "en-de.txt").write_text("".join(
        f"{sid}\tnewstest2020\ten-de\t{doc}\t{k}\n" for sid, (doc, k) in enumerate(units, 1)))
    scores: Scores = {}
    for metric in METRICS:
        seg, sys_rows = [], []
        for refset, ref in refsets.items():
            for target in (*MT, *HUMANS):
                head = f"{metric}\ten-de\tnewstest2020\t{refset}\t{target}"
                values = []
                for seg_id, (doc, k) in enumerate(units, 1):
                    own = HUMANS.get(target) == ref
                    value = 1.0 if own else rng.choice([0.2, 0.4, 0.5, 0.6, 0.8])
                    scores[metric, target, ref, seg_id] = value
                    values.append(value)
                    seg.append(f"{head}\t{doc}\t{k}\t{value}")
                sys_rows.append(f"{head}\t{sum(values) / len(values)}")
        for level, rows in (("seg", seg), ("sys", sys_rows)):
            folder = root / "metrics" / level
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{metric}.{level}.tsv").write_text("\n".join(rows) + "\n")
    return scores

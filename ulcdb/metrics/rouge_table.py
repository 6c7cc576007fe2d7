"""ROUGE-1.5.5's rounded R, P and F of many segments at once, with numpy.

``rouge.rpf`` scores one segment: each ratio rounded as Perl's ``sprintf("%7.5f")``, F from
the rounded R and P, rounded again.  Here a whole column of segments goes through the same
operations in the same order, so every value has the same bits:

- a ratio is one IEEE division, as in Python; ROUGE-W's ``ratio ** (1 / 1.2)`` is Python's
  ``**`` on each value (numpy's power may differ in the last bit);
- rounding to 5 decimals: the nearest integer of ``value * 1e5`` divided by ``1e5`` is the
  double nearest the printed decimal (one correctly rounded division, as reading the printed
  text back is), and that integer is the printed one unless ``value * 1e5`` lies within
  1e-6 of a half; those few values (and any beyond 1e3) are printed and read back as
  ``rouge.round5`` does.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
_UNSURE = 1e-6  # distance of value * 1e5 from a half below which the rounding is printed


def round5(value: float) -> float:
    """Perl's ``sprintf("%7.5f", value)`` read back as a number."""
    return float(f"{value:.5f}")


def round5_all(values: Floats) -> Floats:
    """``round5`` of every value, to the bit."""
    scaled = values * 1e5
    out: Floats = np.rint(scaled) / 1e5
    unsure = ~(np.abs(values) <= 1e3) | (np.abs(scaled - np.floor(scaled) - 0.5) < _UNSURE)
    if unsure.any():
        out[unsure] = [round5(v) for v in values[unsure].tolist()]
    return out


def ratios(hit: Floats, total: Floats, inverse: float | None = None) -> Floats:
    """``hit / total`` (0 where the total is 0), to the power ``inverse`` where given."""
    counted = total != 0
    out: Floats = np.divide(hit, total, out=np.zeros(len(hit)), where=counted)
    if inverse is not None:
        out[counted] = [v ** inverse for v in out[counted].tolist()]
    return out


def f_values(hit: Floats, ref_total: Floats, hyp_total: Floats, alpha: float,
             inverse: float | None = None) -> Floats:
    """The rounded F of ``rouge.rpf`` for every segment (R and P rounded first)."""
    recall = round5_all(ratios(hit, ref_total, inverse))
    precision = round5_all(ratios(hit, hyp_total, inverse))
    denominator = (1 - alpha) * precision + alpha * recall
    positive = denominator > 0
    f = np.divide(precision * recall, denominator, out=np.zeros(len(hit)), where=positive)
    return np.where(positive, round5_all(f), 0.0)

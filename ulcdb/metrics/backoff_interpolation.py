"""Backoff x_b and interpolation x_i of every linguistic metric x (ULC manual 4.7).

The numbers come from the SQL view ``ling_backoff`` (schema/views/ling_backoff.sql), which
``scores`` unions in: it derives ``<x>-b`` and ``<x>-i`` from the stored segment scores of x
and Ol.  This family only puts those names in the catalogue (family 'backoff' and
'interpolation'), so that metric sets, ``ulcdb score -m SR-Or-*-b`` and ``scores``-based
consumers (ULC, meta-evaluation) know them.  Its ``compute`` returns nothing: the scoring
engine must also compute ``requirements(name)`` (x and Ol) for the view to have rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params

SUFFIXES = {"b": "backoff", "i": "interpolation"}
_IMPL = "ULC 0.4.2 / Asiya x_b and x_i (manual 4.7), as SQL view ling_backoff"


@cache
def base_specs() -> tuple[MetricSpec, ...]:
    """Catalogue entries of the linguistic metrics that get -b and -i variants."""
    from ulcdb.metrics.cp import CpFamily
    from ulcdb.metrics.dp import DpFamily
    from ulcdb.metrics.dr.family import DrDocFamily, DrFamily
    from ulcdb.metrics.ne import NeFamily
    from ulcdb.metrics.sp import SpFamily
    from ulcdb.metrics.sr import SrFamily

    return tuple(s for fam in (SpFamily(), DpFamily(), CpFamily(), NeFamily(), SrFamily(),
                               DrFamily(), DrDocFamily()) for s in fam.specs())


def derived_names() -> list[str]:
    return [f"{s.name}-{k}" for s in base_specs() for k in SUFFIXES]


def requirements(name: str) -> list[str]:
    """The stored metrics a derived metric is computed from: x and Ol."""
    return [name[:-2], "Ol"]


def _describe(base: MetricSpec, kind: str) -> str:
    if kind == "b":
        what = (f"Backoff of {base.name} (ULC manual 4.7, x_b): {base.name} where its "
                "analysis succeeded; where it failed (NULL), Ol times the mean of "
                f"{base.name} over the segments of the same target and reference set that "
                "parsed (NULL when none did).")
    else:
        what = (f"Interpolation of {base.name} (ULC manual 4.7, x_i): ({base.name} + Ol) / 2 "
                f"for every segment, a failed (NULL) {base.name} counted as 0.")
    return (f"{base.name}-{kind}: {what} Document and system: mean of the segment values. "
            "Computed by the SQL view ling_backoff from stored x and Ol scores (same target, "
            f"reference set and variant). Base metric: {base.description}")


class BackoffFamily(Family):
    """Catalogue of x-b and x-i; values come from the ``ling_backoff`` view."""

    name = "backoff"
    version = "1"
    derived = True  # values are SQL-derived, not computed here

    def specs(self) -> Sequence[MetricSpec]:
        return [MetricSpec(f"{b.name}-{k}", fam, _describe(b, k), b.linguistic_level,
                           b.higher_is_better, b.range_min, b.range_max, _IMPL)
                for b in base_specs() for k, fam in SUFFIXES.items()]

    def compute(self, hyps: Sequence[str], refs: Sequence[Sequence[str]], docs: Documents,
                params: Params) -> dict[str, LevelScores]:
        return {}

"""Lexical overlap ``Ol`` (ULC manual 4.2.4, Table 3) exactly as Asiya 3.0 computes it.

Per segment and reference, Ol = |H ∩ R| / |H ∪ R| over word multisets, i.e.
Σ min(count_H(w), count_R(w)) / Σ max(count_H(w), count_R(w)).  With several references the
segment keeps the maximum over references (manual 4.2.3, note 1).  Document and system
values are the mean of their segment values (Asiya; not a pooled ratio).

Tokenisation reproduces Asiya's Perl (``split " "`` and ``lc`` under ``unicode_strings`` on
UTF-8 *bytes*): the UTF-8 bytes are read as Latin-1 text, then ``str.split()`` and
``str.lower()``.  So U+00A0 separates words, leaving its lead byte ``\\xC2`` (lower-cased to
``\\xE2``) on the previous token, and lower-casing works byte by byte on Latin-1 letters:
the lead byte ``\\xC3`` of ``Ä`` (``\\xC3\\x84``) and of ``ä`` (``\\xC3\\xA4``) both become
``\\xE3``, so ``Ä`` and ``ä`` stay different words; ASCII letters are lower-cased as usual.
Asiya's Ol always lower-cases, so ``Params.lowercase`` changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params, mean_levels

_IMPL = "Asiya 3.0 Ol (ULC manual 4.2.4)"


class OverlapFamily(Family):
    """``Ol``: lexical overlap of word multisets."""

    name = "Ol"
    version = "1"

    def specs(self) -> Sequence[MetricSpec]:
        return [
            MetricSpec(
                "Ol", self.name,
                "Lexical overlap (ULC manual 4.2.4): per segment Σmin / Σmax of the word "
                "counts of hypothesis and reference (|H ∩ R| / |H ∪ R| over multisets); "
                "several references: maximum over references per segment; document and "
                "system: mean of the segment values. Words as Asiya's Perl sees them: UTF-8 "
                "bytes read as Latin-1, split on whitespace (U+00A0 included) and lower-cased "
                "byte-wise (Latin-1 letters only); always lower-cased, whatever "
                "Params.lowercase says. A segment with no word on either side scores 0. "
                "Range 0-1, higher is better. Reference implementation: Asiya 3.0; no known "
                "departure.",
                reference_implementation=_IMPL,
            )
        ]

    def case(self, params: Params) -> str:
        return "lc"  # Asiya's Ol always lower-cases

    def signature_fields(self, params: Params) -> dict[str, object]:
        return {"tok": "latin1-bytes-split", "multiref": "max", "doc": "mean-seg",
                "sys": "mean-seg", "impl": "asiya-3.0"}

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """``compute`` for every reference set; each (hypothesis, reference) overlap once."""
        hyp_counts = [Counter(asiya_words(h)) for h in hyps]
        values: dict[int, list[float]] = {}
        for refs in refsets:
            for ref in refs:
                if id(ref) not in values:
                    values[id(ref)] = [overlap(h, Counter(asiya_words(line)))
                                       for h, line in zip(hyp_counts, ref, strict=True)]
        out = []
        for refs in refsets:
            columns = [values[id(ref)] for ref in refs]
            seg: list[float | None] = [max(column[i] for column in columns)
                                       for i in range(len(hyps))]
            out.append({
                "Ol": mean_levels(seg, docs)
            })
        return out


def asiya_words(line: str) -> list[str]:
    """Asiya's words: UTF-8 bytes as Latin-1, whitespace-split, lower-cased."""
    return line.encode("utf-8").decode("latin-1").lower().split()


def overlap(hyp: Counter[str], ref: Counter[str]) -> float:
    """Σmin / Σmax of the two multisets' counts; 0 when both are empty."""
    common = sum((hyp & ref).values())
    union = hyp.total() + ref.total() - common  # Σmax = Σa + Σb - Σmin
    return common / union if union else 0.0

"""TER (translation edit rate) as sacrebleu 2.6.0 computes it, under ULC's and Asiya's names.

``1-TER`` is the ULC manual's name (section 4.1), ``-TER`` Asiya 3.0's.  Both come from the
same statistics as sacrebleu's ``TER()`` with its defaults (tercom tokenisation,
case-insensitive, no normalisation, punctuation kept): per segment the minimum number of
edits over the references and the *average* reference length.  A segment's score is
sacrebleu's ``sentence_score``; a document's and the system's are ``corpus_score``, i.e.
Σedits / Σaverage-reference-length over their segments (``seg_stats`` holds the two sums'
terms, so both are plain aggregations).

Speed: sacrebleu's shift search is pure Python (about 16 s for 1,002 segments against three
references).  When numba is importable, the search runs as a compiled, step-for-step
transcription of sacrebleu 2.6.0's ``lib_ter`` (same beam, same tie-breaking, same shift
ranking and the same 1,000-candidate cap; Apache-2.0, Memsource); otherwise sacrebleu's own
``translation_edit_rate`` runs (``ulcdb.metrics.ter_kernel``).  The tests check that both give
the same edit counts.  A worker process searches each (tokenised hypothesis, tokenised
reference) pair once: systems with the same output for a segment share the search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sacrebleu.metrics.ter import TER
from sacrebleu.utils import sum_of_lists

from ulcdb.metrics.base import Documents, Family, LevelScores, MetricSpec, Params
from ulcdb.metrics.ter_kernel import EditRate, edit_rate

_DEPARTURE = (
    "Reference implementation: sacrebleu 2.6.0 TER() (tercom 0.7.25 algorithm, "
    "case-insensitive, no normalisation, punctuation kept, beam 25, shift size 10, shift "
    "distance 50). Known departure from tercom 0.7.25 (and so from Asiya's TERp-based -TER): "
    "tokens are split with Python str.split(), which also splits on U+00A0 no-break spaces "
    "(tercom's Java \\s+ does not), so reference lengths and edits differ on segments holding "
    "U+00A0; in rare other segments sacrebleu's beam/shift search finds a different edit "
    "count (-9..+6 edits over the full WMT21 sets). Case-insensitive whatever Params.lowercase "
    "says, as tercom and sacrebleu are by default."
)


class TerFamily(Family):
    """``1-TER`` and ``-TER`` from sacrebleu's TER statistics."""

    has_kernels = True
    name = "TER"
    version = "1"

    def specs(self) -> Sequence[MetricSpec]:
        common = "Σedits / Σaverage reference length over the unit's segments; "
        return [
            MetricSpec(
                "1-TER", self.name,
                "1 - TER (ULC manual 4.1). TER = minimum number of word edits (insertions, "
                "deletions, substitutions, shifts of word sequences) turning the hypothesis "
                "into the closest reference, divided by the average reference length; "
                "several references: minimum edits over them. Document and system: 1 - "
                + common + "segment: 1 - sacrebleu sentence TER. Higher is better, at most "
                "1, no lower bound (below 0 when edits exceed the reference length). "
                + _DEPARTURE,
                range_min=None, range_max=1.0,
                reference_implementation="sacrebleu 2.6.0 TER()",
            ),
            MetricSpec(
                "-TER", self.name,
                "Negated TER (Asiya 3.0's -TER): -(minimum edits over the references / "
                "average reference length). Document and system: -(" + common.rstrip("; ")
                + "); segment: -sacrebleu sentence TER. Higher is better, at most 0, no "
                "lower bound. Asiya computes it with TERp (= tercom here); ulcdb uses "
                "sacrebleu. " + _DEPARTURE,
                range_min=None, range_max=0.0,
                reference_implementation="sacrebleu 2.6.0 TER()",
            ),
        ]

    def signature_body(self, params: Params, nrefs: int) -> str:
        metric = TER()
        metric.num_refs = nrefs
        return f"{self.name}|{metric.get_signature().format()}|family:{self.version}"

    def compute_many(self, hyps: Sequence[str],
                     refsets: Sequence[Sequence[Sequence[str]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Scores against every reference set, each (hypothesis, reference) pair searched
        once: per segment ``[min edits over the set's references, average reference length]``
        (sacrebleu's statistics: the integer sum of the lengths over their number)."""
        metric = TER()
        per_ref = _pair_edits(metric, hyps, refsets)
        out = []
        for refs in refsets:
            columns = [per_ref[id(ref)] for ref in refs]
            stats = []
            for i in range(len(hyps)):
                best, total_len, count = int(1e16), 0, 0
                for column in columns:
                    cell = column[i]
                    if cell is None:
                        continue
                    edits, ref_len = cell
                    total_len += ref_len
                    best = min(best, edits)
                    count += 1
                stats.append([float(best), total_len / count])
            seg, doc, sys_ = _levels(stats, docs, lambda s: _ter(metric, s))
            out.append({
                "1-TER": _transform(seg, doc, sys_, stats, lambda t: 1.0 - t),
                "-TER": _transform(seg, doc, sys_, stats, lambda t: 0.0 - t),
            })
        return out


def _pair_edits(
    metric: TER, hyps: Sequence[str], refsets: Sequence[Sequence[Sequence[str]]]
) -> dict[int, list[tuple[int, int] | None]]:
    """Per distinct reference (by identity): (edits, reference length) of every segment.

    A (hypothesis, reference) pair of tokenised lines met before in this process (another
    system with the same output for the segment) takes the edits found then."""
    rate = edit_rate()
    vocab: dict[str, int] = {}
    lines_hyp = [metric._preprocess_segment(hyp) for hyp in hyps]
    out: dict[int, list[tuple[int, int] | None]] = {}
    if sum(map(len, _EDITS.values())) > _EDITS_SIZE:
        _EDITS.clear()
    searched = _EDITS.setdefault(rate, {})
    for refs in refsets:
        for ref in refs:
            if id(ref) in out:
                continue
            column: list[tuple[int, int] | None] = []
            for hyp, line in zip(lines_hyp, _reference_lines(metric, ref), strict=True):
                if line is None:
                    column.append(None)
                    continue
                found = searched.get((hyp, line))
                if found is None:
                    found = searched[hyp, line] = rate(hyp.split(), line.split(), vocab)
                column.append(found)
            out[id(ref)] = column
    return out


# Per search (compiled or sacrebleu's): (tokenised hypothesis, tokenised reference) ->
# (edits, reference length), for the pairs this process has searched (cleared when it holds
# more than _EDITS_SIZE).
_EDITS: dict[EditRate, dict[tuple[str, str], tuple[int, int]]] = {}
_EDITS_SIZE = 1 << 19
# Tokenised references shared by the targets a worker process scores, the last few only.
_REFERENCES: dict[tuple[str | None, ...], list[str | None]] = {}
_REFERENCES_SIZE = 4


def _reference_lines(metric: TER, ref: Sequence[str | None]) -> list[str | None]:
    """A reference's lines as sacrebleu tokenises references (twice), None kept."""
    key = tuple(ref)
    lines = _REFERENCES.pop(key, None)
    if lines is None:
        lines = [None if line is None else
                 metric._preprocess_segment(metric._preprocess_segment(line)) for line in ref]
        while len(_REFERENCES) >= _REFERENCES_SIZE:
            del _REFERENCES[next(iter(_REFERENCES))]
    _REFERENCES[key] = lines  # most recently used last
    return lines


def _ter(metric: TER, stats: Sequence[float]) -> float:
    return metric._compute_score_from_stats(list(stats)).score / 100.0


def _levels(
    stats: list[list[float]], docs: Documents, score: Callable[[Sequence[float]], float]
) -> tuple[list[float | None], dict[str, float | None], float | None]:
    """Segment, document and system scores from summed statistics (sacrebleu's summation)."""
    seg: list[float | None] = [score(row) for row in stats]
    doc: dict[str, float | None] = {
        d: score(sum_of_lists(stats[a:b])) for d, a, b in docs.spans()
    }
    return seg, doc, score(sum_of_lists(stats)) if stats else None


def _transform(
    seg: list[float | None],
    doc: dict[str, float | None],
    sys_: float | None,
    stats: list[list[float]],
    fn: Callable[[float], float],
) -> LevelScores:
    def f(v: float | None) -> float | None:
        return None if v is None else fn(v)

    return LevelScores(
        seg=[f(v) for v in seg],
        doc={d: f(v) for d, v in doc.items()},
        sys=f(sys_),
        seg_stats=stats,  # the one table -TER and 1-TER share: stored once
    )

"""The contract every metric family implements.

A *family* (BLEU, NIST, ROUGE, ...) computes several named metrics in one pass over a
test set: the outputs of one translator (``hyps``), one or more references (``refs``,
sacrebleu's layout: ``refs[k][i]`` is reference ``k`` for segment ``i``) and the document
of every segment (``doc_ids``, contiguous runs).  It returns, per metric name, the
segment, document and system scores, each computed with the metric's own formula at that
level (corpus BLEU for a document, not a mean of segment BLEU).

Families are pure: no store, no files.  The store layer calls them and persists the result.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

LEXICAL = "lexical"
SHALLOW_SYNTACTIC = "shallow-syntactic"
SYNTACTIC = "syntactic"
SHALLOW_SEMANTIC = "shallow-semantic"
SEMANTIC = "semantic"


@dataclass(frozen=True)
class MetricSpec:
    """Catalogue entry of one metric (one row of the ``metric`` table)."""

    name: str
    family: str
    description: str
    linguistic_level: str = LEXICAL
    higher_is_better: bool = True
    range_min: float | None = 0.0
    range_max: float | None = 1.0
    reference_implementation: str = ""


@dataclass(frozen=True)
class Params:
    """Options that change numbers; every one of them goes into the signature."""

    lowercase: bool = False  # ULC's CASE=lc
    # The annotation run linguistic metrics read: spaCy's default model unless a user names
    # stanza, a model, or an imported tool (`ulcdb ingest annotations --tool NAME`).
    annotator: str = "spacy"
    annotator_model: str | None = None
    lang: str | None = None  # the test bed's target language, recorded in every signature

    def case_tag(self) -> str:
        return "lc" if self.lowercase else "mixed"

    def annotation_tag(self) -> str:
        """'' for the default annotation, else ``ann:TOOL`` or ``ann:TOOL/MODEL``."""
        if self.annotator == "spacy" and self.annotator_model is None:
            return ""
        model = f"/{self.annotator_model}" if self.annotator_model else ""
        return f"ann:{self.annotator}{model}"


@dataclass
class LevelScores:
    """Scores of one metric for one (translator, reference set) pair."""

    seg: list[float | None]
    doc: dict[str, float | None]
    sys: float | None
    # Sufficient statistics per segment where the metric has them (BLEU, chrF, TER...).
    seg_stats: list[list[float]] | None = None


@dataclass(frozen=True)
class Documents:
    """Document structure of a test set: ``doc_ids[i]`` is the document of segment ``i``."""

    doc_ids: tuple[str, ...]

    def spans(self) -> list[tuple[str, int, int]]:
        """Contiguous ``(doc_id, start, end)`` runs in test-set order (end exclusive)."""
        out: list[tuple[str, int, int]] = []
        start = 0
        for i in range(1, len(self.doc_ids) + 1):
            if i == len(self.doc_ids) or self.doc_ids[i] != self.doc_ids[start]:
                out.append((self.doc_ids[start], start, i))
                start = i
        return out


class Family(ABC):
    """A metric family: computes all its metrics for one translator vs one reference set."""

    name: str
    version: str = "1"
    # Target languages it handles (None: any) and, where limited, why (ulcdb.metrics.languages).
    languages: frozenset[str] | None = None
    language_note: str = ""
    # Capabilities: scores Analysis objects (annotated texts), not strings; or is derived
    # (x-b / x-i: catalogue entries only, SQL computes the scores from other metrics).
    needs_analysis: bool = False
    derived: bool = False
    has_kernels: ClassVar[bool] = False  # numba kernels, compiled on first use (``warm_up``)
    # Scores whole documents from imported document analyses where the annotation has them
    # (DR_doc on Boxer's document DRSs): the scorer attaches each document's to its first
    # segment's Analysis (``doc_drs``).
    needs_documents: bool = False

    @abstractmethod
    def specs(self) -> Sequence[MetricSpec]:
        """Catalogue entries of the metrics this family produces."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if cls.compute is Family.compute and cls.compute_many is Family.compute_many \
                and "specs" in cls.__dict__:
            raise TypeError(f"{cls.__name__} must implement compute or compute_many")

    def compute(self, hyps: Sequence[Any], refs: Sequence[Sequence[Any]],
                docs: Documents, params: Params) -> dict[str, LevelScores]:
        """Score ``hyps`` (texts; Analysis objects where ``needs_analysis``) against
        ``refs`` at segment, document and system level.

        A family implements this or ``compute_many`` (its path over several reference
        sets), never both: the other one is derived, so there is one computation."""
        return self.compute_many(hyps, [refs], docs, params)[0]

    def compute_many(self, hyps: Sequence[Any],
                     refsets: Sequence[Sequence[Sequence[Any]]], docs: Documents,
                     params: Params) -> list[dict[str, LevelScores]]:
        """Score one target against several reference sets."""
        return [self.compute(hyps, refs, docs, params) for refs in refsets]

    def warm_up(self) -> None:
        """Load or compile what every task of the family needs (compiled kernels, word
        lists) in the driver, before the worker processes fork from it: they inherit it
        instead of each loading or compiling it again.  A family with numba kernels
        (``has_kernels``) scores a one-segment example, which compiles them (or loads them
        from numba's cache); nothing for the others."""
        if self.has_kernels:
            self.compute(["warm up the kernel"], [["warm up a kernel"]], Documents(("d",)),
                         Params())

    def metric_languages(self, metric: str) -> frozenset[str] | None:
        """Target languages ``metric`` handles (None: any)."""
        return self.languages

    def language_note_for(self, metric: str) -> str:
        """Why ``metric`` handles only its languages."""
        return self.language_note

    def metrics_for(self, params: Params) -> list[str]:
        """The metrics this family computes for ``params`` (its target language)."""
        return [s.name for s in self.specs()]

    def signature(self, params: Params, nrefs: int) -> str:
        """Everything that changes a number, sacrebleu style: ``NAME|nrefs:N|case:C|`` the
        family's own options (``signature_fields``) ``|version:V``, then ``|lang:L``, the
        target language it ran for, where there is one (the one place a signature is put
        together: families give fields, or a whole body as TER and chrF do)."""
        lang = self.language_used(params)
        return self.signature_body(params, nrefs) + (f"|lang:{lang}" if lang else "")

    def signature_body(self, params: Params, nrefs: int) -> str:
        """The signature without the language."""
        fields = {"nrefs": nrefs, "case": self.case(params), **self.signature_fields(params),
                  "version": self.version}
        return "|".join([self.name, *(f"{k}:{v}" for k, v in fields.items())])

    def language_used(self, params: Params) -> str | None:
        """The target language the family ran for: the test bed's (None: not known)."""
        return params.lang

    def case(self, params: Params) -> str:
        """The case the family scores in (some lower-case whatever params say)."""
        return params.case_tag()

    def signature_fields(self, params: Params) -> dict[str, object]:
        """The options, beyond references, case and version, that change this family's numbers
        (the tokeniser, smoothing, the reference implementation...), in signature order."""
        return {}


def check_inputs(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], docs: Documents) -> None:
    """Raise ``ValueError`` unless every reference and the documents cover every hypothesis."""
    if not refs:
        raise ValueError("at least one reference is needed")
    for k, ref in enumerate(refs):
        if len(ref) != len(hyps):
            raise ValueError(f"reference {k} has {len(ref)} segments, hypotheses {len(hyps)}")
    if len(docs.doc_ids) != len(hyps):
        raise ValueError(f"{len(docs.doc_ids)} document ids for {len(hyps)} segments")


def build_specs(family: str, names: Iterable[str], describe: Callable[[str], str],
                **common: object) -> list[MetricSpec]:
    """Catalogue entries of a family whose metrics differ only in name and description."""
    return [MetricSpec(name=n, family=family, description=describe(n), **common)  # type: ignore[arg-type]
            for n in names]


def mean(values: Sequence[float | None]) -> float | None:
    """Mean of the non-missing values; ``None`` when there are none."""
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def mean_levels(seg: list[float | None], docs: Documents) -> LevelScores:
    """Document and system scores as the means of the segment scores (NULLs left out)."""
    return LevelScores(seg=seg, doc={d: mean(seg[a:b]) for d, a, b in docs.spans()},
                       sys=mean(seg))

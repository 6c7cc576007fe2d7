"""The in-memory analysis of one translation, as annotators produce it and metrics read it.

It mirrors the store's annotation tables: tokens (``ann_token``) and spans over tokens
(``ann_span``: base chunks, named entities, constituents, semantic roles and predicates), and
an imported discourse representation structure (``annotated_text.drs``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

OK, EMPTY, FAILED = "ok", "empty", "failed"

# Span layers.
CHUNK = "chunk"  # base phrases, label = chunk type (NP, VP, PP, ...)
ENTITY = "entity"  # named entities, label = type (PERSON, ORG, ...)
CONSTITUENT = "constituent"  # constituency tree nodes, parent = span_id of the parent node
PREDICATE = "predicate"  # verb predicates of semantic role frames, label = lemma
ROLE = "role"  # semantic roles, label = A0/A1/AM-TMP/..., parent = span_id of the predicate


@dataclass(frozen=True)
class Token:
    form: str
    lemma: str | None = None
    tag: str | None = None  # fine-grained PTB tag
    pos: str | None = None  # coarse (UD) tag
    head: int | None = None  # index of the head token in the text, -1 for a root
    deprel: str | None = None
    sent: int = 0


@dataclass(frozen=True)
class Span:
    layer: str
    span_id: int
    start: int  # first token (index in the text)
    end: int  # one past the last token
    label: str
    parent: int | None = None


@dataclass(frozen=True)
class Analysis:
    """Tokens and spans of one text; ``status`` is ok, empty or failed (then metrics give
    NULL, never 0, which is what backoff needs)."""

    tokens: tuple[Token, ...] = ()
    spans: tuple[Span, ...] = ()
    status: str = OK
    message: str | None = None
    layers: frozenset[str] = field(default_factory=frozenset)  # span layers this run produced
    # An imported discourse representation structure (Boxer's, as ulcdb.metrics.dr.drs
    # JSON); None: DR metrics build one from the tokens and spans.
    drs: str | None = None
    # The imported DRS of the document this segment opens (Boxer run on <META>-separated
    # documents), attached by the scorer for document-level DR metrics; None elsewhere.
    doc_drs: str | None = None

    def layer(self, name: str) -> list[Span]:
        return [s for s in self.spans if s.layer == name]

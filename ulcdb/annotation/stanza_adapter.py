"""Stanza -> Analysis: words (lemma, xpos, upos, head, deprel), NER when present, Stanza's
constituency tree when its parser ran; chunks, semantic roles (and constituents when no tree
is there) come from the dependency-based stand-ins of ``derive``.

Stanza (``pip install 'ulcdb[stanza]'``) is imported lazily.  Its models are downloaded
separately (``stanza.download("en")``); without one, annotating stops with one line saying
so.  Documents can also be built without a model, e.g.
``stanza.utils.conll.CoNLL.conll2doc(input_str=...)``, as the tests do.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ulcdb.annotation.annotators import DEFAULT_MODELS
from ulcdb.annotation.derive import full_analysis
from ulcdb.annotation.model import CONSTITUENT, EMPTY, ENTITY, FAILED, Analysis, Span, Token
from ulcdb.errors import UlcdbError

if TYPE_CHECKING:  # stanza has no type information (and is not always installed)
    from stanza import Pipeline
    from stanza.models.common.doc import Document, Word
    from stanza.models.constituency.tree import Tree

DEFAULT_MODEL = DEFAULT_MODELS["stanza"]
PROCESSORS = "tokenize,mwt,pos,lemma,depparse,ner,constituency"
_NLP: dict[str, Pipeline] = {}


def _stanza() -> ModuleType:
    try:
        return importlib.import_module("stanza")
    except ImportError as exc:
        raise UlcdbError("stanza is not installed (pip install 'ulcdb[stanza]')") from exc


def model_dir() -> Path:
    """Where Stanza keeps its models: ``$STANZA_RESOURCES_DIR``, else its default."""
    default: str = importlib.import_module("stanza.resources.common").DEFAULT_MODEL_DIR
    return Path(os.environ.get("STANZA_RESOURCES_DIR") or default)


def check_model(lang: str) -> None:
    """Stop with one line saying how to get the model when Stanza has none for ``lang``
    (before a run is recorded or anything is annotated)."""
    folder = model_dir()
    if not (folder / "resources.json").is_file() or not (folder / lang).is_dir():
        raise UlcdbError(f"stanza has no model for {lang!r} in {folder}: get it with "
                         f"python -c 'import stanza; stanza.download(\"{lang}\")' "
                         "(STANZA_RESOURCES_DIR says where to keep it)")


def load(model: str | None = None) -> Pipeline:
    stanza = _stanza()
    lang = model or DEFAULT_MODEL
    if lang not in _NLP:
        check_model(lang)
        try:
            _NLP[lang] = stanza.Pipeline(lang=lang, dir=str(model_dir()), processors=PROCESSORS,
                                         download_method=None, verbose=False)
        except Exception as exc:  # e.g. a processor the language has no model for
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise UlcdbError(f"stanza cannot load its {lang!r} models from {model_dir()}: "
                             f"{reason}") from exc
    return _NLP[lang]


def version(model: str | None = None) -> str:
    """Stanza's version and the model; a missing model stops here, before a run is made."""
    stanza_version: str = _stanza().__version__
    check_model(model or DEFAULT_MODEL)
    return f"stanza {stanza_version}, {model or DEFAULT_MODEL}"


def document_to_analysis(doc: Document) -> Analysis:
    """One Stanza Document -> Analysis."""
    tokens: list[Token] = []
    ents: list[Span] = []
    trees: list[Span] = []
    has_ner = False
    for s_idx, sent in enumerate(doc.sentences):
        base = len(tokens)
        for w in sent.words:
            head = int(w.head) if w.head is not None else 0
            tokens.append(Token(w.text, w.lemma, w.xpos, w.upos,
                                base + head - 1 if head > 0 else -1, w.deprel, s_idx))
        for tok in sent.tokens:
            if getattr(tok, "ner", None) is not None:
                has_ner = True
        tree = getattr(sent, "constituency", None)
        if tree is not None:
            _tree_spans(tree, base, trees)
    if not tokens:
        return Analysis(status=EMPTY, message="empty text")
    if has_ner:
        for n, e in enumerate(doc.ents):
            ids = [w.id for t in e.tokens for w in t.words]
            first = _word_index(doc, e.tokens[0].words[0])
            ents.append(Span(ENTITY, n, first, first + len(ids), e.type))
    a = full_analysis(tokens, ents, entity_layer=has_ner)
    if trees:
        spans = tuple(s for s in a.spans if s.layer != CONSTITUENT) + tuple(trees)
        a = Analysis(a.tokens, spans, a.status, a.message, a.layers)
    return a


def _word_index(doc: Document, word: Word) -> int:
    n = 0
    for sent in doc.sentences:
        if sent is word.sent:
            index: int = n + word.id - 1
            return index
        n += len(sent.words)
    raise ValueError("word not in document")


def _tree_spans(tree: Tree, base: int, out: list[Span]) -> None:
    """Stanza's constituency tree as CONSTITUENT spans (pre-terminals included, no ROOT)."""
    def walk(node: Tree, start: int, parent: int | None) -> int:
        if not node.children:  # a leaf word
            return start + 1
        sid = len(out)
        out.append(Span(CONSTITUENT, sid, start, start, node.label, parent))
        end = start
        for child in node.children:
            end = walk(child, end, sid)
        out[sid] = Span(CONSTITUENT, sid, start, end, node.label, parent)
        return end

    offset = base
    nodes = tree.children if tree.label == "ROOT" else [tree]
    for node in nodes:
        offset = walk(node, offset, None)


def analyse_serial(texts: Sequence[str], model: str | None = None) -> list[Analysis]:
    out: list[Analysis] = []
    nlp = None
    for text in texts:
        if not text.strip():
            out.append(Analysis(status=EMPTY, message="empty text"))
            continue
        nlp = nlp or load(model)
        try:
            out.append(document_to_analysis(nlp(text)))
        except Exception as exc:
            out.append(Analysis(status=FAILED, message=f"{type(exc).__name__}: {exc}"))
    return out


def analyse(texts: Sequence[str], model: str | None = None, jobs: int = 1, chunk: int = 500,
            batch_size: int = 0, engine: object = None) -> Iterator[list[Analysis]]:
    """Analyses in order, one list per chunk (Stanza batches internally; one process, also
    with --engine ray: Stanza models cannot be had here to test a cluster with)."""
    for i in range(0, len(texts), chunk):
        yield analyse_serial(texts[i:i + chunk], model)

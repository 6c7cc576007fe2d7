"""spaCy -> Analysis: tokens, lemmas, PTB and UD tags, dependencies, entities; chunks,
constituents and semantic roles come from the dependency-based stand-ins of ``derive``.

Throughput: texts are parsed with ``nlp.pipe`` in worker processes that also convert the
Docs, so the conversion runs in parallel with parsing and only compact tuples cross
process boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ulcdb.annotation.annotators import DEFAULT_MODELS
from ulcdb.annotation.derive import full_analysis
from ulcdb.annotation.model import EMPTY, ENTITY, FAILED, Analysis, Span, Token
from ulcdb.errors import UlcdbError
from ulcdb.scoring.workers import init_worker, pool_context, worker_args

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

    from ulcdb.scoring.engines import Engine

DEFAULT_MODEL = DEFAULT_MODELS["spacy"]
BATCH_SIZE = 256

_NLP: dict[str, Language] = {}


def load(model: str | None = None) -> Language:
    """The spaCy pipeline (cached per process)."""
    import spacy

    name = model or DEFAULT_MODEL
    if name not in _NLP:
        try:
            _NLP[name] = spacy.load(name)
        except OSError as exc:  # E050: no such package or path
            raise UlcdbError(f"spaCy model {name!r} is not installed (the default is "
                             f"{DEFAULT_MODEL!r})") from exc
    return _NLP[name]


def version(model: str | None = None) -> str:
    from spacy.about import __version__

    nlp = load(model)
    return f"spacy {__version__}, {nlp.meta.get('name')} {nlp.meta.get('version')}"


def doc_to_analysis(doc: Doc) -> Analysis:
    """One spaCy Doc -> Analysis (tokens, entities, derived layers)."""
    if not len(doc) or not doc.text.strip():
        return Analysis(status=EMPTY, message="empty text")
    tokens = []
    sent = -1
    for t in doc:
        if t.is_sent_start or sent < 0:
            sent += 1
        head = t.head.i
        tokens.append(Token(t.text, t.lemma_, t.tag_, t.pos_, -1 if head == t.i else head,
                            t.dep_, sent))
    ents = [Span(ENTITY, n, e.start, e.end, e.label_) for n, e in enumerate(doc.ents)]
    return full_analysis(tokens, ents)


def _safe(doc: Doc) -> Analysis:
    try:
        return doc_to_analysis(doc)
    except Exception as exc:  # a bad analysis is recorded, never fatal
        return Analysis(status=FAILED, message=f"{type(exc).__name__}: {exc}")


def _chunk_job(args: tuple[str | None, list[str], int]) -> list[Analysis]:
    model, texts, batch_size = args
    return analyse_serial(texts, model, batch_size)


def analyse_serial(texts: Sequence[str], model: str | None = None,
                   batch_size: int = BATCH_SIZE) -> list[Analysis]:
    """Analyse in this process; empty texts are not sent to spaCy."""
    out: dict[int, Analysis] = {}
    todo = []
    for i, text in enumerate(texts):
        if not text.strip():
            out[i] = Analysis(status=EMPTY, message="empty text")
        else:
            todo.append(i)
    nlp = load(model)
    try:
        for i, doc in zip(todo, nlp.pipe((texts[i] for i in todo), batch_size=batch_size),
                          strict=True):
            out[i] = _safe(doc)
    except Exception:  # one bad text fails the batch: redo one by one to isolate it
        for i in todo:
            if i not in out:
                try:
                    out[i] = _safe(nlp(texts[i]))
                except Exception as exc:
                    out[i] = Analysis(status=FAILED, message=f"{type(exc).__name__}: {exc}")
    return [out[i] for i in range(len(texts))]


def analyse(texts: Sequence[str], model: str | None = None, jobs: int = 1,
            chunk: int = 500, batch_size: int = BATCH_SIZE,
            engine: Engine | None = None) -> Iterator[list[Analysis]]:
    """Analyses of ``texts`` in order, one list per chunk of ``chunk`` texts, parsed by
    ``jobs`` worker processes (each runs ``nlp.pipe`` and converts its own Docs), or by the
    workers of ``engine`` (each loads the model once)."""
    pieces = [list(texts[i:i + chunk]) for i in range(0, len(texts), chunk)]
    if engine is not None:
        yield from engine.map(_chunk_job, [(model, p, batch_size) for p in pieces],
                              label=lambda t: f"spaCy chunk of {len(t[1])} texts")
        return
    if jobs <= 1 or len(pieces) <= 1:
        for piece in pieces:
            yield analyse_serial(piece, model, batch_size)
        return
    context = pool_context()
    with context.Pool(jobs, initializer=init_worker, initargs=worker_args(context)) as pool:
        yield from pool.imap(_chunk_job, [(model, p, batch_size) for p in pieces])

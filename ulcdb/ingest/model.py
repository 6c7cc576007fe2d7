"""In-memory form of a test bed, as every reader returns it, before it reaches the store."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Document:
    doc_id: str
    genre: str | None = None
    domain: str | None = None
    origlang: str | None = None


@dataclass
class SourceSegment:
    seg_id: int  # 1..n in test-bed order
    doc_id: str
    seg_in_doc: int  # 1-based position in its document
    source: str


@dataclass
class TranslatorText:
    name: str
    role: str  # "system" or "reference"
    texts: list[str]  # one per segment, test-bed order
    origin: str = ""  # file it came from


@dataclass
class NamedSet:
    kind: str  # "metric", "system", "reference" or "segment"
    name: str
    members: list[str]
    line: int | None = None  # where the input defines it, for error messages


@dataclass
class TestbedData:
    """Everything a reader found: segments, documents, translators, optional named sets."""

    name: str
    src_lang: str | None = None
    tgt_lang: str | None = None
    origin: str = ""
    documents: list[Document] = field(default_factory=list)
    segments: list[SourceSegment] = field(default_factory=list)
    translators: list[TranslatorText] = field(default_factory=list)
    sets: list[NamedSet] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)  # e.g. CASE from a ULC.config
    # False when the input had no document information (one document named after the test
    # bed): adding to an existing test bed then keeps the documents it has.
    has_documents: bool = True
    # "src_lang"/"tgt_lang" whose value is only guessed from file names: it fills an empty
    # language of an existing test bed but never conflicts with a stored one.
    guessed_languages: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)  # what the reader changed, for the report
    # Names written without dashes (mt-metrics-eval's ``refA``): adding to an existing test
    # bed maps each back to the stored translator whose name it is once dashes are dropped.
    dashless_names: bool = False
    # Human scores the test-bed file itself carries (a long TSV's da_raw, mqm_avg_score...):
    # stored with the test bed, in the same transaction.
    assessments: list[Assessment] = field(default_factory=list)

    __test__ = False  # not a pytest class


@dataclass
class Assessment:
    """One human judgment.  ``level`` is seg, doc or sys; ``seg_id``/``doc_id`` as the level needs.

    ``translator`` is a system or reference name of the test bed; ``line`` is where it was read,
    for error messages.
    """

    translator: str
    criterion: str  # adequacy, fluency, DA-raw, DA-z, MQM, ...
    value: float
    level: str = "seg"
    seg_id: int | None = None
    doc_id: str | None = None
    judge: str = ""
    line: int | None = None

"""The store's entities as the Python API returns them: ``db.testbeds()``,
``db.translators()``, ``db.documents()`` and ``db.metrics()`` give lists of these frozen
dataclasses, one field per column of their table in ``schema/tables``, in its order (the DDL
is the source of truth; tests check these classes against it).

Example::

    import ulcdb

    with ulcdb.open("ulcdb.duckdb", read_only=True) as db:
        systems = [t.name for t in db.translators() if t.role == "system"]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar


@dataclass(frozen=True)
class Testbed:
    __test__ = False  # not a pytest class
    testbed_id: int
    name: str
    src_lang: str | None
    tgt_lang: str | None
    origin: str | None
    options: str | None  # JSON: the options its config gave
    created_at: datetime


@dataclass(frozen=True)
class Translator:
    translator_id: int
    testbed_id: int
    name: str
    role: str  # system or reference
    origin: str | None


@dataclass(frozen=True)
class Document:
    testbed_id: int
    doc_id: str
    doc_index: int  # 1-based position in the test bed
    genre: str | None
    domain: str | None
    origlang: str | None


@dataclass(frozen=True)
class Metric:
    metric_id: int
    name: str
    family: str
    linguistic_level: str
    higher_is_better: bool
    range_min: float | None
    range_max: float | None
    description: str
    reference_implementation: str | None
    origin: str  # builtin or imported


ENTITIES = (Testbed, Translator, Document, Metric)
Entity = TypeVar("Entity", Testbed, Translator, Document, Metric)


def from_rows(entity: type[Entity], columns: Sequence[str],
              rows: Sequence[Sequence[Any]]) -> list[Entity]:
    """``rows`` of a query whose ``columns`` include the entity's fields (others ignored)."""
    fields = {f.name for f in dataclasses.fields(entity)}
    return [entity(**{k: v for k, v in zip(columns, row, strict=True) if k in fields})
            for row in rows]

"""The API's entity types (ulcdb.store.models) agree with the DDL in schema/tables, column for
column (name, order, type, nullability), and come back from a real store."""

from __future__ import annotations

import dataclasses
import typing
from datetime import datetime
from pathlib import Path

import pytest

import ulcdb
from ulcdb.store.database import Store
from ulcdb.store.models import ENTITIES, Testbed

DUCKDB_TYPES = {int: "INTEGER", str: "VARCHAR", bool: "BOOLEAN", float: "DOUBLE",
                datetime: "TIMESTAMP"}


def test_entities_match_ddl(tmp_path: Path) -> None:
    with Store(tmp_path / "m.duckdb") as store:
        for entity in ENTITIES:
            table = entity.__name__.lower()
            ddl = store.query("select column_name, data_type, is_nullable = 'YES' from "
                              "information_schema.columns where table_name = ? "
                              "order by ordinal_position", [table])
            hints = typing.get_type_hints(entity)
            fields = []
            for f in dataclasses.fields(entity):
                args = typing.get_args(hints[f.name])
                base = next(a for a in args if a is not type(None)) if args else hints[f.name]
                fields.append((f.name, DUCKDB_TYPES[base], type(None) in args))
            assert fields == ddl, table


def test_the_api_returns_them(tmp_path: Path) -> None:
    db = tmp_path / "m.duckdb"
    with Store(db) as store:
        store.con.execute("insert into testbed (name, tgt_lang) values ('tb', 'en')")
    with ulcdb.open(db, read_only=True) as api:
        (testbed,) = api.testbeds()
    assert isinstance(testbed, Testbed)
    assert (testbed.testbed_id, testbed.name, testbed.src_lang, testbed.tgt_lang) == (
        1, "tb", None, "en")
    assert isinstance(testbed.created_at, datetime)
    with pytest.raises(dataclasses.FrozenInstanceError):
        testbed.name = "other"  # type: ignore[misc]

"""Stores made before the score tables lost their primary key (issue 30) keep it and work the
same: an import, the same import again ("already there"), another value refused, then
replaced."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ingest_progress import _files

from ulcdb.errors import Conflict
from ulcdb.interchange.importer import ScoreImport, import_scores
from ulcdb.store.database import Store

OLD_SEG_SCORE = """create table seg_score (
    metric_id integer not null, translator_id integer not null, refset_id integer not null,
    variant varchar not null, seg_id integer not null, value double, stats double[],
    batch_id integer not null,
    primary key (metric_id, translator_id, refset_id, variant, seg_id))"""


def test_a_store_with_the_old_key_imports_and_replaces(tmp_path: Path) -> None:
    details, files = _files(tmp_path)
    db = tmp_path / "old.duckdb"
    with Store(db) as store:
        store.con.execute("drop table seg_score")
        store.con.execute(OLD_SEG_SCORE)
        store.con.execute("delete from schema_info where key = 'schema_hash'")  # views again
    refsets = {"ref": ("ref",)}
    with Store(db) as store:
        assert store.scalar("select count(*) from duckdb_constraints() where table_name = "
                            "'seg_score' and constraint_type = 'PRIMARY KEY'") == 1
        first = import_scores(store, ScoreImport(files, fmt="wmt", create_testbed=True,
                                                 details=[details], refset_map=refsets))
        again = import_scores(store, ScoreImport(files, fmt="wmt", refset_map=refsets))
        changed = tmp_path / "changed" / files[0].name
        changed.parent.mkdir()
        text = files[0].read_text(encoding="utf-8")
        changed.write_text(text.replace("S1\td1\t1\t0.11", "S1\td1\t1\t0.9"), encoding="utf-8")
        with pytest.raises(Conflict, match="already stored with other values"):
            import_scores(store, ScoreImport([changed], fmt="wmt", refset_map=refsets))
        replaced = import_scores(store, ScoreImport([changed], fmt="wmt", refset_map=refsets,
                                                    replace=True))
        values = store.query("select value from seg_score order by translator_id, seg_id")
    assert first.stored == {"seg": 6, "doc": 0, "sys": 2}
    assert again.unchanged == 8 and again.stored == {"seg": 0, "doc": 0, "sys": 0}
    assert replaced.replaced == 3 and replaced.stored["seg"] == 3
    assert replaced.unchanged == 3  # S2's segments
    assert [v for (v,) in values] == [0.9, 0.12, 0.21, 0.11, 0.12, 0.21]

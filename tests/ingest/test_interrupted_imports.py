"""Ctrl-C in the middle of an import (a KeyboardInterrupt just after its first bulk insert) leaves
the store exactly as it was, for every kind of import, and says so (exit 130) (second
hostile-input audit, s8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_helpers import dump, ulcdb

from ulcdb.ingest import load_assessments
from ulcdb.store.database import Store

SAMPLE = Path(__file__).resolve().parents[2] / "sample"
PLAIN = SAMPLE / "plain"


@pytest.fixture
def db(sample_db: Path) -> Path:
    """The sample store (tests/conftest.py): a copy for each test."""
    return sample_db


def conllu(tmp_path: Path) -> Path:
    texts = (PLAIN / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    blocks = ["\n".join([f"# seg_id = {i}", *(f"{j}\t{w}\t{w}\tX\t_\t_\t0\troot\t_\t_"
                                              for j, w in enumerate(t.split(), 1))])
              for i, t in enumerate(texts, 1)]
    path = tmp_path / "a.conllu"
    path.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    return path


def scores(tmp_path: Path) -> Path:
    path = tmp_path / "scores.tsv"
    path.write_text("system\tseg_id\tscore\n" + "".join(
        f"{s}\t{i}\t0.{i}\n" for s in ("sysA", "sysB") for i in range(1, 13)), encoding="utf-8")
    return path


IMPORTS = {
    "testbed": lambda tmp: ["ingest", "testbed", SAMPLE / "ULC.config", "--name", "other"],
    "systems": lambda tmp: ["ingest", "testbed", "--name", "sample", "--source",
                            PLAIN / "source.es.txt",
                            "--sys", f"s1={PLAIN / 'refs' / 'ref-A.en.txt'}",
                            "--sys", f"s2={PLAIN / 'refs' / 'ref-B.en.txt'}"],
    "replace": lambda tmp: ["ingest", "testbed", "--name", "sample", "--source",
                            PLAIN / "source.es.txt", "--replace",
                            "--sys", f"sysA={PLAIN / 'systems' / 'sysB.en.txt'}"],
    "scores": lambda tmp: ["ingest", "scores", scores(tmp), "--format", "table", "--metric",
                           "IMP", "--ref", "ref-A", "--map", "target=system", "--map",
                           "seg_id=seg_id", "--map", "value=score"],
    "assessments": lambda tmp: ["ingest", "assessments", SAMPLE / "human" / "adequacy.csv",
                                "-c", "adequacy"],
    "annotations": lambda tmp: ["ingest", "annotations", conllu(tmp), "--translator", "sysA",
                                "--format", "conllu"],
}


@pytest.mark.parametrize("kind", list(IMPORTS))
def test_ctrl_c_mid_import_leaves_the_store_as_it_was(db: Path, tmp_path: Path, kind: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    args = IMPORTS[kind](tmp_path)
    if kind == "replace":  # scores of sysA that --replace drops: their loss must roll back
        made = ulcdb(db, *IMPORTS["scores"](tmp_path))
        assert made.exit_code == 0, made.output
    before = dump(db)
    # assessments are merged in SQL from a table of the file's rows: Ctrl-C once they are in
    owner: Any = load_assessments if kind == "assessments" else Store
    name = "_merge" if kind == "assessments" else "insert_arrow"
    real = getattr(owner, name)
    calls: list[int] = []

    def interrupted(*args: Any) -> Any:
        done = real(*args)
        calls.append(1)
        raise KeyboardInterrupt  # the first rows written (after --replace dropped rows)
        return done

    monkeypatch.setattr(owner, name, interrupted)
    result = ulcdb(db, *args)
    assert calls == [1], result.output
    assert result.exit_code == 130, result.output
    assert result.output.startswith("Error: interrupted: the store keeps what was committed "
                                    "before; the unfinished step was rolled back")
    monkeypatch.undo()
    assert dump(db) == before
    again = ulcdb(db, *args)  # the store is not locked, nor left in a half-done state
    assert again.exit_code == 0, again.output

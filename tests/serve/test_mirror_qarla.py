"""The serve mirror's QUEEN and KING tables hold what `ulcdb queen` and `ulcdb king` give by
default: over all the test bed's references, comparing its systems but those that are a
reference's own text (WMT20's Human-A.0 is ref-A).  Before, the mirror compared every system,
so with ref-B held out Human-A.0 had no score against ref-A, was never beaten, and KING was 0
on every WMT20 pair; the copies had QUEEN rows too.  The store: the tiny WMT20-layout release
of tests/wmt20_release.py; the expected KING is also counted by hand from its files."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner
from wmt20_release import HUMANS, METRICS, MT, N_SEGS, Scores, release

from ulcdb.cli.main import app
from ulcdb.formats.wmt import wmt20
from ulcdb.serve.mirror import build_mirror
from ulcdb.store.database import Store

TESTBED = "newstest2020:en-de"
SEED = 4  # a release where the MT systems do not always beat the references (KING > 0)


def _store(root: Path, refsets: dict[str, str] | None = None) -> tuple[Path, Scores]:
    scores = release(root / "release", SEED, **({"refsets": refsets} if refsets else {}))
    db = root / "s.duckdb"
    with Store(db) as store:
        wmt20.ingest_wmt20(store, root / "release")
    return db, scores


def _cli(db: Path, *args: str) -> list[dict[str, str]]:
    result = CliRunner().invoke(app, ["--db", str(db), *args, "--format", "csv"])
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.output.splitlines() if ln.startswith(("level,", "sys,"))]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def _mirror(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(build_mirror(db, db.with_suffix(".sqlite")).path)
    rows = con.execute(sql).fetchall()
    con.close()
    return rows


def test_mirror_king_is_ulcdb_king_by_default(tmp_path: Path) -> None:
    """References A and B: Human-A.0 and Human-B.0 are left out of the systems compared
    (Human-P.0 stays: P is no reference of the test bed), as `ulcdb king` leaves them out."""
    db, scores = _store(tmp_path, {"newstest2020": "ref-A", "newstestB2020": "ref-B"})
    mirrored = _mirror(db, "select metric_set, level, measure, king, orange, n_systems "
                           "from king order by 1, 2, 3")
    assert {r[0] for r in mirrored} == {"all"} and {r[1] for r in mirrored} == {"sys"}
    cli = _cli(db, "king", "-m", ",".join(METRICS), "-G", "sys", "--orange")
    assert [(r[2], r[3], r[4], r[5]) for r in mirrored] == [
        (r["measure"], pytest.approx(float(r["KING"])), pytest.approx(float(r["ORANGE"])), 4)
        for r in sorted(cli, key=lambda r: r["measure"])]
    systems = (*MT, "Human-P.0")
    for metric, king in zip(METRICS, (r[3] for r in mirrored), strict=True):
        beaten = 0  # per held-out reference h: q(h) = x(h, other) against the systems'
        for h, other in (("ref-A", "ref-B"), ("ref-B", "ref-A")):
            human = next(name for name, ref in HUMANS.items() if ref == h)
            q_h = _mean(scores, metric, human, other)
            beaten += all(_mean(scores, metric, s, other) <= q_h for s in systems)
        assert king == pytest.approx(beaten / 2)
    assert [r[3] for r in mirrored] == [0.5, 0.5]  # was 0 and 0: the copies never beaten


def _mean(scores: Scores, metric: str, target: str, ref: str) -> float:
    """The system score of the release's sys file: the mean of the segment values."""
    return sum(scores[metric, target, ref, s] for s in range(1, N_SEGS + 1)) / N_SEGS


def test_the_references_texts_have_no_queen_rows(tmp_path: Path) -> None:
    """References A, B and P: the mirror's system rows of QUEEN are `ulcdb queen`'s, and
    Human-A.0, Human-B.0 and Human-P.0 (the references' texts) have none."""
    db, _ = _store(tmp_path)
    mirrored = _mirror(db, "select translator, hits, triples, queen from queen "
                           "where metric_set = 'all' and level = 'sys' and role = 'system' "
                           "order by translator")
    cli = _cli(db, "queen", "-m", ",".join(METRICS), "-G", "sys")
    assert mirrored == [(r["translator"], int(r["hits"]), int(r["triples"]),
                         pytest.approx(float(r["QUEEN"]))) for r in cli]
    assert [r[0] for r in mirrored] == list(MT) and all(r[2] == 18 * N_SEGS for r in mirrored)
    assert _mirror(db, "select count(*) from queen where translator like 'Human-%'") == [(0,)]


def test_each_test_bed_gets_queen_and_king_by_its_own_references(tmp_path: Path) -> None:
    """The reference counts are each test bed's: with en-de (references A, B and P) and
    de-en (A and B; the same release written as de-en) in one store, QUEEN is computed for
    en-de alone (it needs 3; a store-wide count gave de-en QUEEN rows from 2 references),
    and KING for both (en-de's has no rows: the release has no scores against two
    references), de-en's as in a store of its own."""
    two = {"newstest2020": "ref-A", "newstestB2020": "ref-B"}
    release(tmp_path / "release", SEED)
    release(tmp_path / "de-en", SEED, two)
    root = tmp_path / "release"
    (root / "input_details" / "de-en.txt").write_text(
        (tmp_path / "de-en" / "input_details" / "en-de.txt").read_text()
        .replace("\ten-de\t", "\tde-en\t"))
    for path in (tmp_path / "de-en" / "metrics").rglob("*.tsv"):
        mine = root / path.relative_to(tmp_path / "de-en")
        mine.write_text(mine.read_text() + path.read_text().replace("\ten-de\t", "\tde-en\t"))
    db = tmp_path / "s.duckdb"
    with Store(db) as store:
        wmt20.ingest_wmt20(store, root)
    queen = _mirror(db, "select distinct testbed from queen")
    king = _mirror(db, "select testbed, measure, king, orange, n_systems from king "
                       "where level = 'sys' order by 1, 2")
    alone, _ = _store(tmp_path / "alone", two)
    assert queen == [(TESTBED,)]
    assert [r[1:] for r in king if r[0] == "newstest2020:de-en"] == _mirror(
        alone, "select measure, king, orange, n_systems from king where level = 'sys' "
               "order by 1") != []
    parts = _mirror(db, "select key from ulcdb_mirror_parts where key like '[\"king\"%' "
                        "or key like '[\"queen\"%'")
    assert sorted((json.loads(k)[0], json.loads(k)[1]["testbed"]) for (k,) in parts) == [
        ("king", "newstest2020:de-en")] * 2 + [("king", TESTBED)] * 2 + [("queen", TESTBED)]

"""Ingest through the CLI: formats, no-op re-ingest, --replace, and bad input leaving the store
exactly as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import copy_store, ulcdb

from ulcdb.store.database import SCHEMA_VERSION, Store

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample"

TABLES = ("testbed", "document", "segment", "translator", "translation", "assessment",
          "named_set", "named_set_member", "metric", "refset", "seg_score", "sys_score")



def fingerprint(db: Path) -> dict[str, tuple]:
    """Row count and an order-independent content hash of every core table."""
    with Store(db, read_only=True) as store:
        return {t: store.query(f"select count(*), sum(hash(t::varchar)) from {t} t")[0]
                for t in TABLES}


def plain_args(name: str = "sample") -> list[str]:
    p = SAMPLE / "plain"
    args = ["ingest", "testbed", "--name", name, "--source", p / "source.es.txt",
            "--docs", p / "docs.tsv"]
    for r in "ABC":
        args += ["--ref", f"ref-{r}={p / 'refs' / f'ref-{r}.en.txt'}"]
    for s in "ABCD":
        args += ["--sys", f"sys{s}={p / 'systems' / f'sys{s}.en.txt'}"]
    return args


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("ingest")
    path = tmp_path / "store.duckdb"
    result = ulcdb(path, *plain_args())
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def db(built_db: Path, tmp_path: Path) -> Path:
    """The plain sample ingested (built once per module): a copy for each test."""
    return copy_store(built_db, tmp_path, built_db.name)


def test_plain_ingest_counts(db: Path) -> None:
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from segment") == 12
        assert store.scalar("select count(*) from document") == 3
        roles = dict(store.query("select role, count(*) from translator group by role"))
        assert roles == {"system": 4, "reference": 3}
        assert store.scalar("select count(*) from translation") == 7 * 12
        # text_hash is the md5 of the text, as DuckDB computes it too
        assert store.scalar("select count(*) from translation where text_hash <> md5(text)") == 0


def test_reingest_identical_is_noop(db: Path) -> None:
    before = fingerprint(db)
    result = ulcdb(db, *plain_args())
    assert result.exit_code == 0
    assert "unchanged: ref-A, ref-B, ref-C, sysA, sysB, sysC, sysD" in result.output
    assert fingerprint(db) == before


def test_xml_and_plain_agree(db: Path, tmp_path: Path) -> None:
    result = ulcdb(db, "ingest", "testbed", SAMPLE / "xml" / "sample.es-en.xml", "--name", "x")
    assert result.exit_code == 0, result.output
    with Store(db, read_only=True) as store:
        rows = store.query(
            "select translator, seg_id, text from translations where testbed = ? "
            "except select translator, seg_id, text from translations where testbed = ?",
            ["x", "sample"])
        assert rows == []
        assert store.scalar("select count(*) from translations where testbed = 'x'") == 84


def test_add_system_then_conflict_then_replace(db: Path, tmp_path: Path) -> None:
    p = SAMPLE / "plain"
    new = tmp_path / "sysE.txt"
    new.write_text((p / "systems" / "sysA.en.txt").read_text(encoding="utf-8"), encoding="utf-8")
    base = ["ingest", "testbed", "--name", "sample", "--source", p / "source.es.txt", "--docs",
            p / "docs.tsv"]
    assert ulcdb(db, *base, "--sys", f"sysE={new}").exit_code == 0
    changed = tmp_path / "sysA.txt"
    lines = (p / "systems" / "sysA.en.txt").read_text(encoding="utf-8").splitlines()
    changed.write_text("\n".join(["changed", *lines[1:]]) + "\n", encoding="utf-8")
    before = fingerprint(db)
    result = ulcdb(db, *base, "--sys", f"sysA={changed}")
    assert result.exit_code == 1
    assert "sysA" in result.output and "--replace" in result.output
    assert fingerprint(db) == before
    result = ulcdb(db, *base, "--sys", f"sysA={changed}", "--replace")
    assert result.exit_code == 0 and "replaced: sysA" in result.output
    with Store(db, read_only=True) as store:
        assert store.scalar("select text from translations where translator = 'sysA' and "
                            "seg_id = 1") == "changed"


def _bad_cases(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    p = SAMPLE / "plain"
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    badutf = tmp_path / "bad.txt"
    lines = (p / "systems" / "sysA.en.txt").read_bytes().split(b"\n")
    lines[4] = b"caf\xe9 au lait"
    badutf.write_bytes(b"\n".join(lines))
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    badxml = tmp_path / "bad.xml"
    badxml.write_text('<?xml version="1.0"?>\n<dataset id="x">\n<doc id="d1">\n<src lang="es">'
                      '<p><seg id="1">hola</seg></p></src>\n</dataset>\n', encoding="utf-8")
    base = ["ingest", "testbed", "--name", "sample", "--source", p / "source.es.txt",
            "--docs", p / "docs.tsv"]
    return {
        "line count": ([*base, "--sys", f"sysZ={short}"], "short.txt"),
        "invalid utf-8": ([*base, "--sys", f"sysZ={badutf}"], "bad.txt:5"),
        "empty file": ([*base, "--sys", f"sysZ={empty}"], "empty.txt"),
        "malformed xml": (["ingest", "testbed", badxml, "--name", "y"], "bad.xml:"),
        "duplicate name": ([*base, "--sys", f"sysA={p / 'systems' / 'sysA.en.txt'}",
                            "--ref", f"sysA={p / 'refs' / 'ref-A.en.txt'}"], "sysA"),
    }


@pytest.mark.parametrize("case", ["line count", "invalid utf-8", "empty file", "malformed xml",
                                  "duplicate name"])
def test_bad_testbed_input_leaves_store_unchanged(db: Path, tmp_path: Path, case: str) -> None:
    args, expected = _bad_cases(tmp_path)[case]
    before = fingerprint(db)
    result = ulcdb(db, *args)
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert expected in lines[0]
    assert fingerprint(db) == before


def test_assessments_ingest_and_errors(db: Path, tmp_path: Path) -> None:
    result = ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "adequacy.csv",
                   "-c", "adequacy")
    assert result.exit_code == 0, result.output
    assert "120 stored" in result.output
    result = ulcdb(db, "ingest", "assessments", SAMPLE / "human" / "da.tsv", "--map",
                   "system=system", "--map", "seg_id=seg_id", "--map", "score=da_raw",
                   "--map", "judge=judge", "-c", "DA-raw")
    assert result.exit_code == 0, result.output
    before = fingerprint(db)
    bad = {
        "unknown.tsv": ("system\tseg_id\tda\nsysX\t1\t50\n", "unknown.tsv:2", "sysX"),
        "noseg.tsv": ("system\tseg_id\tda\nsysA\t1\t50\nsysA\t13\t50\n", "noseg.tsv:3",
                      "segment 13"),
        "nonnum.tsv": ("system\tseg_id\tda\nsysA\t1\tgood\n", "nonnum.tsv:2", "good"),
        "dup.tsv": ("system\tseg_id\tda\nsysA\t1\t50\nsysA\t1\t51\n", "dup.tsv:3", "duplicate"),
    }
    for name, (text, where, what) in bad.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = ulcdb(db, "ingest", "assessments", path, "--map", "system=system", "--map",
                       "seg_id=seg_id", "--map", "score=da", "-c", "DA-raw")
        assert result.exit_code == 1, name
        assert where in result.output and what in result.output, result.output
        assert fingerprint(db) == before
    # the same criterion with other values is refused unless --replace
    changed = tmp_path / "changed.tsv"
    changed.write_text("system\tseg_id\tjudge\tda_raw\nsysA\t1\tJ1\t1\n", encoding="utf-8")
    args = ["ingest", "assessments", changed, "--map", "system=system", "--map",
            "seg_id=seg_id", "--map", "score=da_raw", "--map", "judge=judge", "-c", "DA-raw"]
    result = ulcdb(db, *args)
    assert result.exit_code == 1 and "--replace" in result.output
    assert fingerprint(db) == before
    assert ulcdb(db, *args, "--replace").exit_code == 0


def test_info_list_and_sql(db: Path) -> None:
    result = ulcdb(db, "info", "--format", "csv")
    assert result.exit_code == 0
    assert result.output.splitlines()[1].startswith("sample,es-en,3,12,4,3")
    result = ulcdb(db, "list", "systems", "--format", "csv")
    rows = [ln.split(",") for ln in result.output.splitlines()[1:]]
    assert [(r[0], r[-1]) for r in rows] == [(f"sys{s}", "12") for s in "ABCD"]
    result = ulcdb(db, "sql", "select count(*) as n from translations where role = 'reference'",
                   "--format", "json")
    assert result.exit_code == 0 and '"n": 36' in result.output
    result = ulcdb(db, "sql", "select * from nowhere")
    assert result.exit_code == 1 and result.output.startswith("Error: SQL error")


def test_schema_version_checks(tmp_path: Path) -> None:
    import duckdb

    path = tmp_path / "v.duckdb"
    Store(path).close()
    for version, word in ((SCHEMA_VERSION + 1, "newer"), (0, "older")):
        con = duckdb.connect(str(path))
        con.execute("update schema_info set value = ? where key = 'schema_version'",
                    [str(version)])
        con.close()
        result = ulcdb(path, "info")
        assert result.exit_code == 1 and word in result.output


@pytest.mark.parametrize("what", ["testbeds", "systems", "references", "documents", "criteria",
                                  "metrics", "sets"])
def test_every_list_command_runs(db: Path, what: str) -> None:
    result = ulcdb(db, "list", what, "--format", "csv")
    assert result.exit_code == 0, result.output
    assert len(result.output.splitlines()) >= 1


def test_wmt21_ende_in_two_formats_agree(shared: Path, tmp_path: Path) -> None:
    """The shared en-de test bed as plain files and as long TSV: the same store content."""
    tb = shared / "testbeds" / "wmt21_newstest2021_ende"
    db = tmp_path / "ende.duckdb"
    result = ulcdb(db, "ingest", "testbed", tb / "segments_long.tsv", "--name", "ende")
    assert result.exit_code == 0, result.output
    # the long TSV's mqm_avg_score column
    assert "human scores: 5797 MQM assessments read: 5797 stored" in result.output
    args = ["ingest", "testbed", "--name", "ende", "--source", tb / "source.en.txt",
            "--docs", tb / "docs.tsv"]
    for r in "ACD":
        args += ["--ref", f"ref-{r}={tb / 'refs' / f'ref-{r}.de.txt'}"]
    for path in sorted((tb / "systems").glob("*.de.txt")):
        args += ["--sys", f"{path.name.split('.')[0]}={path}"]
    result = ulcdb(db, *args)
    assert result.exit_code == 0, result.output
    assert "added" not in result.output and "unchanged: ref-A, ref-C, ref-D" in result.output
    # ... equal, row for row, to the MQM file of the release: nothing new, nothing replaced
    result = ulcdb(db, "ingest", "assessments", tb / "human" / "mqm_seg.tsv", "--skip-unknown")
    assert result.exit_code == 0 and "0 stored, 5797 already there, 0 replaced" in \
        result.output
    with Store(db, read_only=True) as store:
        assert store.scalar("select count(*) from segment") == 1002
        assert store.scalar("select count(*) from document") == 68
        roles = dict(store.query("select role, count(*) from translator group by role"))
        assert roles == {"system": 20, "reference": 4}  # the long TSV also has ref-B's draft


LONG_WITH_SCORES = (
    "seg_id\tdoc_id\tsource\ttranslator\tkind\ttranslation\tda_raw\tda_z\tda_n\tnote\n"
    "7\td\thola\tS\tsystem\thello\t80\t0.5\t2\tx\n"
    "9\td\tadios\tS\tsystem\tbye\t\t\t\t\n"
    "7\td\thola\tR\treference\thi\t95\t1.25\t1\t\n"
    "9\td\tadios\tR\treference\tbye\t60\t-0.5\t1\t\n")


def test_long_tsv_human_scores_are_stored(tmp_path: Path) -> None:
    """da_raw / da_z become DA-raw / DA-z segment assessments on the renumbered segments (an
    empty cell is no judgment); other columns are named as ignored."""
    path = tmp_path / "long.tsv"
    path.write_text(LONG_WITH_SCORES, encoding="utf-8")
    db = tmp_path / "l.duckdb"
    result = ulcdb(db, "ingest", "testbed", path, "--name", "long")
    assert result.exit_code == 0, result.output
    assert "column(s) da_n, note of long.tsv ignored" in result.output
    # 3 rows of two criteria each: counted per criterion, not as 6 assessments of 3 rows
    assert ("human scores: 3 DA-raw and 3 DA-z assessments read from 3 rows: 6 stored, "
            "0 already there, 0 replaced") in result.output
    with Store(db, read_only=True) as store:
        rows = store.query("select criterion, translator, seg_id, value from assessments "
                           "order by all")
    assert rows == [("DA-raw", "R", 1, 95.0), ("DA-raw", "R", 2, 60.0), ("DA-raw", "S", 1, 80.0),
                    ("DA-z", "R", 1, 1.25), ("DA-z", "R", 2, -0.5), ("DA-z", "S", 1, 0.5)]


def test_long_tsv_bad_human_score_leaves_no_store(tmp_path: Path) -> None:
    path = tmp_path / "long.tsv"
    path.write_text(LONG_WITH_SCORES.replace("\t60\t", "\tsixty\t"), encoding="utf-8")
    db = tmp_path / "l.duckdb"
    result = ulcdb(db, "ingest", "testbed", path, "--name", "long")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "long.tsv:5: da_raw 'sixty' is not a number" in result.output
    assert not db.exists()


def test_long_tsv_missing_row_is_refused(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "long.tsv"
    path.write_text("seg_id\tdoc_id\tsource\ttranslator\tkind\ttranslation\n"
                    "1\td\thola\tS\tsystem\thello\n2\td\tadios\tS\tsystem\tbye\n"
                    "1\td\thola\tR\treference\thi\n", encoding="utf-8")
    before = fingerprint(db)
    result = ulcdb(db, "ingest", "testbed", path, "--name", "long")
    assert result.exit_code == 1
    assert "long.tsv:3: R has no row for segment 2" in result.output
    assert fingerprint(db) == before


def test_set_define_reads_the_members_once(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`set define` learns what a set held from the read that saves it (``save_set`` returns
    it); it read the members a second time first, to say what a redefinition replaced."""
    reads: list[str] = []
    query = Store.query

    def counted(self: Store, sql: str, params: object = None) -> list[tuple]:
        if "named_set_member" in sql:
            reads.append(sql)
        return query(self, sql, params)

    monkeypatch.setattr(Store, "query", counted)
    said, counts = [], []
    for members in (("sysA", "sysB"), ("sysC",), ("sysC",)):
        reads.clear()
        said.append(ulcdb(db, "set", "define", "system", "pair", *members).output.strip())
        counts.append(len(reads))
    assert counts == [0, 1, 1]  # a new set has no members to read (it was 1, 2, 2)
    assert said == ["system set 'pair': created",
                    "system set 'pair': redefined (it held sysA sysB)",
                    "system set 'pair': unchanged"]

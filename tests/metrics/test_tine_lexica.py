"""Lin's thesaurus and VerbOcean for TINE (issue 13): their published layouts read and checked
line by line, installed once, used instead of the stand-ins and named in the signature."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import ulcdb
from ulcdb.errors import Conflict, InputError
from ulcdb.metrics import tine, tine_lexica, tine_resources
from ulcdb.metrics.base import Params

SIM_N = """(holidays (desc 0.5) (
vacations\t0.30
trips\t0.20
))
("stays" (desc 0.2) (
visits\t0.25
vacations\t0.20
))
"""
SIM_V = """(stays (desc 0.1) (
remains\t0.40
))
"""
VERBOCEAN = """# VerbOcean 2004-05-20
order [similar] book :: 11.2
buy [opposite-of] sell :: 5.0
book [happens-before] fly :: 3.1
"""


@pytest.fixture
def resources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ULCDB_RESOURCES", str(tmp_path / "res"))
    tine_lexica._load.cache_clear()
    tine_resources.similar_words.cache_clear()
    yield tmp_path
    tine_lexica._load.cache_clear()
    tine_resources.similar_words.cache_clear()


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_lin_entries_merged_best_first(resources: Path) -> None:
    table = tine_lexica.read_lin([_write(resources, "simN.lsp", SIM_N),
                                  _write(resources, "simV.lsp", SIM_V)])
    assert table == {"holidays": ["vacations", "trips"],
                     "stays": ["remains", "visits", "vacations"]}


@pytest.mark.parametrize(("text", "line", "what"), [
    ("holidays 0.5\n", 1, "expected an entry's first line"),
    ("(holidays (desc 0.5) (\nvacations\n))\n", 2, "expected 'NEIGHBOUR<TAB>SCORE'"),
])
def test_bad_lin_lines_are_named(resources: Path, text: str, line: int, what: str) -> None:
    path = _write(resources, "simN.lsp", text)
    with pytest.raises(InputError, match=what) as err:
        tine_lexica.read_lin([path])
    assert err.value.line == line and err.value.path == str(path)
    with pytest.raises(InputError, match="not closed"):
        tine_lexica.read_lin([_write(resources, "open.lsp", "(a (desc 1) (\nb\t0.5\n")])


def test_verbocean_relations_directed_and_opposites_left_out(resources: Path) -> None:
    tine_lexica.install("verbocean", [_write(resources, "vo.txt", VERBOCEAN)])
    assert tine_lexica.verbocean_related("order", "book")
    assert not tine_lexica.verbocean_related("book", "order")  # the code's key: hyp ref
    assert not tine_lexica.verbocean_related("buy", "sell")
    assert tine_lexica.verbocean_related("book", "fly")
    with pytest.raises(InputError, match="VERB1 \\[RELATION\\] VERB2") as err:
        tine_lexica.read_verbocean(_write(resources, "bad.txt", "# c\nx [similar] y\n"))
    assert err.value.line == 2


def test_installed_resources_replace_the_stand_ins(resources: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    glove = tine.TineFamily().signature(Params(), 1)
    assert "verbocean:none" in glove and "thesaurus:lin-" not in glove
    _, lin_id, n = tine_lexica.install("lin-thesaurus", [_write(resources, "simN.lsp", SIM_N)])
    _, vo_id, _ = tine_lexica.install("verbocean", [_write(resources, "vo.txt", VERBOCEAN)])
    assert n == 2 and len(lin_id) == 12
    tool = tine.TineFamily().signature(Params(), 1)
    assert f"thesaurus:lin-{lin_id}-k20" in tool and f"verbocean:verbocean-{vo_id}" in tool
    assert tine_resources.similar_words("stays") == ("visits", "vacations")
    assert tine_resources.similar_words("unknown") == ()
    # order/book now align through VerbOcean even when VerbNet says nothing
    monkeypatch.setattr(tine_resources, "verb_classes", lambda lemma: frozenset())
    assert tine.verbnet_aligned("order", "book") and not tine.verbnet_aligned("buy", "sell")
    # {stays} vs {holidays}: 3 types each after expansion, 'vacations' shared: 1 / 3
    assert tine.arg_score(["stays"], ["holidays"], tine_resources.similar_words) == \
        pytest.approx(1 / 3)


def test_a_different_copy_needs_replace(resources: Path) -> None:
    tine_lexica.install("lin-thesaurus", [_write(resources, "simN.lsp", SIM_N)])
    other = _write(resources, "simV.lsp", SIM_V)
    with pytest.raises(Conflict, match="--replace"):
        tine_lexica.install("lin-thesaurus", [other])
    tine_lexica.install("lin-thesaurus", [other], replace=True)
    assert tine_lexica.lin_neighbours("stays", 20) == ("remains",)


def test_cli_refuses_a_bad_file_and_installs_nothing(resources: Path) -> None:
    bad = _write(resources, "vo.txt", "order [similar] book :: 1\nbroken line\n")
    result = ulcdb(resources / "s.duckdb", "ingest", "resource", "verbocean", bad)
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"Error: {bad}:2: expected 'VERB1 [RELATION] VERB2 :: "
                                     "SCORE', got 'broken line'")
    assert not (resources / "res").exists()
    good = _write(resources, "vo2.txt", VERBOCEAN)
    result = ulcdb(resources / "s.duckdb", "ingest", "resource", "verbocean", good)
    assert result.exit_code == 0 and "3 entries installed" in result.stdout


@pytest.mark.parametrize(("data", "line"), [
    # latin-1 (Lin's files predate UTF-8): its byte 0x85 was read as U+0085, a line break
    # for str.splitlines, so the bad line was named one line too early
    (b"# VerbOcean\n\n# by caf\xe9\x85s team\nbuy [similar] sell :: 1.5\n\nbad line\n", 6),
    (b"# VerbOcean\n# a form\x0cfeed\n\nbuy [similar] sell :: 1.5\nbad line\n", 5),
    ("# VerbOcean\n# a line\u2028separator\nbuy [similar] sell :: 1.5\nbad line\n"
     .encode(), 4),
    # a byte order mark and CRLF line ends: the first line was refused as '\ufeff# VerbOcean'
    (b"\xef\xbb\xbf# VerbOcean\r\n\r\n# c\r\nbuy [similar] sell :: 1.5\r\nbad line\r\n", 5),
])
def test_a_bad_line_after_blank_and_comment_lines_is_named_by_its_line(
        resources: Path, data: bytes, line: int) -> None:
    path = resources / "vo.txt"
    path.write_bytes(data)
    result = ulcdb(resources / "s.duckdb", "ingest", "resource", "verbocean", path)
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"Error: {path}:{line}: expected 'VERB1 [RELATION] "
                                     "VERB2 :: SCORE', got 'bad line'")
    assert data.splitlines()[line - 1].rstrip(b"\r") == b"bad line"  # the file's own line

"""Every example in README.md and docs/ runs, and shows what it prints (issue 27).

Each page is one session: its ``bash`` and ``python`` blocks run in order in a fresh folder
holding the bundled ``sample/`` (and ``examples/``), beside the shared WMT data as
``../shared``, with ``ulcdb`` meaning this checkout's ``python -m ulcdb``.  A ``text`` block
right after a runnable block is its expected standard output, compared line by line (a line
``...`` stands for any number of lines).  An HTML comment on the line before a block marks it:

- ``<!-- example: skip="why" -->``: not run, the reason given to pytest;
- ``<!-- example: xfail="why" -->``: run, expected to fail until the change named lands;
- ``<!-- example: mirror=STORE -->`` on an ``sql`` block: every statement runs on the served
  copy (``ulcdb serve``'s SQLite mirror) of STORE and must return rows.

A page whose first line is ``<!-- examples: shared -->`` needs ``../shared`` and is skipped
without it; ``<!-- examples: slow -->`` marks a page that takes over a minute.  The command
and metric references are generated (``docs/hooks/reference.py``); the tests below check them
against the Typer app and the catalogue.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r'^<!-- example: (skip|xfail|mirror)=("?)(.*)\2 -->$')
PAGE_MARK = re.compile(r"^<!-- examples: (shared|slow)(?:, (shared|slow))? -->$")
RUNNABLE = {"bash", "python"}


@dataclass
class Block:
    line: int
    lang: str
    code: str
    mark: tuple[str, str] | None = None
    expected: str | None = None


@dataclass
class Page:
    path: Path
    blocks: list[Block] = field(default_factory=list)
    marks: set[str] = field(default_factory=set)


def parse(path: Path) -> Page:
    """The page's fenced blocks: runnable ones with their mark and expected output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    page = Page(path)
    if lines and (m := PAGE_MARK.match(lines[0])):
        page.marks = {g for g in m.groups() if g}
    i, previous = 0, None
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence or not fence.group(1):
            if lines[i].strip():
                previous = None if MARK.match(lines[i]) is None else previous
            i += 1
            continue
        lang, start = fence.group(1), i
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        code = "\n".join(lines[i + 1:end]) + "\n"
        mark = MARK.match(lines[start - 1]) if start else None
        if lang == "text" and previous is not None and previous.expected is None:
            previous.expected = code
        elif lang in RUNNABLE or (lang == "sql" and mark):
            block = Block(start + 1, lang, code, (mark.group(1), mark.group(3)) if mark else None)
            page.blocks.append(block)
            previous = block
        else:
            previous = None
        i = end + 1
    return page


def _matches(expected: str, got: str) -> bool:
    """Line by line after trailing spaces; a line '...' matches any run of lines."""
    want = [ln.rstrip() for ln in expected.rstrip("\n").splitlines()]
    have = [ln.rstrip() for ln in got.rstrip("\n").splitlines()]

    def match(w: int, h: int) -> bool:
        if w == len(want):
            return h == len(have)
        if want[w] == "...":
            return any(match(w + 1, k) for k in range(h, len(have) + 1))
        return h < len(have) and want[w] == have[h] and match(w + 1, h + 1)

    return match(0, 0)


def _session(tmp: Path, shared: Path | None) -> tuple[Path, dict[str, str]]:
    """A user's folder: sample/ and examples/ as shipped, ../shared beside it."""
    home = tmp / "work"
    home.mkdir()
    for name in ("sample", "examples"):
        (home / name).symlink_to(REPO / name)
    if shared is not None:
        (tmp / "shared").symlink_to(shared)
    env = {k: v for k, v in os.environ.items() if k != "ULCDB_DB"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    env["ULCDB_PYTHON"] = sys.executable
    env["COLUMNS"] = "100"
    return home, env


PRELUDE = 'set -euo pipefail\nulcdb() { "$ULCDB_PYTHON" -m ulcdb "$@"; }\n'


def _run(block: Block, home: Path, env: dict[str, str]) -> str:
    if block.lang == "bash":
        proc = subprocess.run(["bash", "-c", PRELUDE + block.code], cwd=home, env=env,
                              capture_output=True, text=True, timeout=1200)
    else:
        proc = subprocess.run([sys.executable, "-"], input=block.code, cwd=home, env=env,
                              capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        raise AssertionError(f"line {block.line}: exit {proc.returncode}\n{block.code}\n"
                             f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}")
    return proc.stdout


def _mirror_sql(block: Block, home: Path) -> None:
    from ulcdb.serve.mirror import build_mirror

    path = build_mirror(home / block.mark[1]).path  # type: ignore[index]
    con = sqlite3.connect(path)
    statements = [s for s in re.sub(r"--[^\n]*", "", block.code).split(";") if s.strip()]
    for sql in statements:
        assert con.execute(sql).fetchall(), f"line {block.line}: no rows from {sql.strip()}"
    con.close()


def _page_params() -> list[object]:
    params = []
    for path in PAGES:
        page = parse(path)
        if not page.blocks:
            continue
        marks = [getattr(pytest.mark, m) for m in sorted(page.marks)]
        params.append(pytest.param(page, id=str(path.relative_to(REPO)), marks=marks))
    return params


@pytest.mark.parametrize("page", _page_params())
def test_examples_run(page: Page, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    shared = None
    if "shared" in page.marks:
        shared = request.getfixturevalue("shared")
    home, env = _session(tmp_path, shared)
    skipped, xfails, exports = [], [], ""
    for block in page.blocks:
        kind, why = block.mark or ("", "")
        if kind == "skip":
            skipped.append(f"line {block.line}: {why}")
            continue
        if kind == "mirror":
            _mirror_sql(block, home)
            continue
        if block.lang == "bash":  # a page's blocks are one shell session: exports carry on
            block = Block(block.line, block.lang, exports + block.code, block.mark,
                          block.expected)
            exports += "".join(ln + "\n" for ln in block.code.splitlines()
                               if re.match(r"^export \w+=", ln))
        try:
            out = _run(block, home, env)
            if block.expected is not None:
                assert _matches(block.expected, out), (
                    f"line {block.line}: output differs\n--- docs\n{block.expected}--- got\n{out}")
        except AssertionError:
            if kind != "xfail":
                raise
            xfails.append(f"line {block.line}: {why}")
    if xfails:
        pytest.xfail("; ".join(xfails))
    if skipped:
        # the page's other examples passed; say which were not run and why
        request.node.add_report_section("call", "skipped examples", "\n".join(skipped))


def test_every_example_is_counted() -> None:
    """What the docs claim runs (issue 27 counts them): 41 examples, 28 of them with their
    output shown and compared, at most 8 skipped with a reason."""
    pages = [parse(p) for p in PAGES]
    runnable = sum(len(p.blocks) for p in pages)
    skipped = sum(1 for p in pages for b in p.blocks if b.mark and b.mark[0] == "skip")
    with_output = sum(1 for p in pages for b in p.blocks if b.expected is not None)
    assert runnable >= 41 and with_output >= 28 and skipped <= 8, (runnable, with_output,
                                                                     skipped)


def _hooks():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("docs_reference",
                                                  REPO / "docs" / "hooks" / "reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_command_reference_has_every_command_and_option() -> None:
    """The generated reference names every command and every option of the Typer app, and
    every command has help with an example."""
    hooks = _hooks()
    text = hooks.cli_markdown()
    commands = list(hooks.commands())
    assert len(commands) >= 40
    for words, cmd in commands:
        assert f"`{words}`" in text, words
        assert cmd.help, words
        if not hasattr(cmd, "list_commands") and words != "ulcdb":
            assert "Example" in cmd.help, words
        for p in cmd.params:
            for opt in ([] if getattr(p, "hidden", False) else getattr(p, "opts", [])):
                if opt.startswith("-"):
                    assert f"`{opt}`" in text, (words, opt)
    page = (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    assert "<!-- generated: cli -->" in page


def test_metric_reference_has_every_metric_and_set() -> None:
    from ulcdb.metrics import catalogue, registry

    hooks = _hooks()
    text = hooks.metrics_markdown()
    names = [e.spec.name for e in catalogue.entries(None)]
    assert len(names) > 1000 and all(f"| `{n}` |" in text for n in names)
    sets = hooks.sets_markdown()
    assert all(f"| `{s}` |" in sets for s in registry.BUILTIN_SETS)
    page = (REPO / "docs" / "reference" / "metrics.md").read_text(encoding="utf-8")
    assert "<!-- generated: metrics -->" in page and "<!-- generated: sets -->" in page


def test_readme_is_a_front_door() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 220
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest -q" in text and "python -m pytest -q\n" in ci
    assert "mkdocs build --strict" in ci


def main(argv: list[str]) -> None:
    """`python tests/docs/test_docs.py [--update] PAGE.md`: run a page's examples and print what
    each prints; with --update, write it into the page's text blocks (check the diff)."""
    import tempfile

    update = argv[0] == "--update"
    path = Path(argv[-1]).resolve()
    page = parse(path)
    shared = Path(os.environ.get("ULCDB_SHARED", REPO.parent / "shared"))
    outputs: dict[int, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        home, env = _session(Path(tmp), shared if shared.exists() else None)
        exports = ""
        for block in page.blocks:
            if block.mark and block.mark[0] in ("skip", "mirror"):
                continue
            if block.lang == "bash":
                code, exports = exports + block.code, exports + "".join(
                    ln + "\n" for ln in block.code.splitlines() if ln.startswith("export "))
                block = Block(block.line, "bash", code, block.mark, block.expected)
            try:
                outputs[block.line] = _run(block, home, env)
            except AssertionError as exc:
                if not (block.mark and block.mark[0] == "xfail"):
                    raise
                print(f"=== line {block.line}: fails as marked\n{exc}", flush=True)
                continue
            print(f"=== line {block.line}\n{outputs[block.line]}", flush=True)
    if update:
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in sorted(outputs, reverse=True):
            end = next(j for j in range(line, len(lines)) if lines[j].startswith("```"))
            k = end + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k < len(lines) and lines[k] == "```text":
                close = next(j for j in range(k + 1, len(lines)) if lines[j].startswith("```"))
                got = [ln.rstrip() for ln in outputs[line].rstrip("\n").splitlines()]
                lines[k + 1:close] = got
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])


def test_store_reference_has_every_table_and_view(tmp_path: Path) -> None:
    """The generated store reference names every table, view and macro a new store has."""
    from ulcdb.store.database import Store

    text = _hooks().schema_markdown()
    with Store(tmp_path / "s.duckdb") as store:
        names = [r[0] for r in store.query(
            "select table_name from duckdb_tables() where not internal union "
            "select view_name from duckdb_views() where not internal union "
            "select function_name from duckdb_functions() where not internal and "
            "function_type in ('macro', 'table_macro')")]
    assert len(names) > 40
    assert [n for n in names if f"| `{n}` |" not in text] == []
    page = (REPO / "docs" / "reference" / "store.md").read_text(encoding="utf-8")
    assert "<!-- generated: schema -->" in page

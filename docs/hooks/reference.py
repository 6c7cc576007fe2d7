"""MkDocs hook: the generated parts of the reference.

A page holding the line ``<!-- generated: cli -->`` gets every command and option of the CLI,
read by walking the Typer app (``ulcdb.cli.main.app``); ``<!-- generated: metrics -->`` gets
every metric of the built-in catalogue (``ulcdb.metrics.catalogue``, which reads
``ulcdb/metrics/catalogue.json``), and ``<!-- generated: sets -->`` the built-in metric sets.
Both are found by import, so they follow the code wherever its modules move, and
``tests/docs/test_docs.py`` checks them against the app and the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import typer

MARKER = re.compile(r"^<!-- generated: (cli|metrics|sets|schema) -->$", re.MULTILINE)


def commands() -> Iterator[tuple[str, Any]]:
    """Every command of ``ulcdb`` as (its words, the click command), groups included, in the
    order ``ulcdb --help`` lists them."""
    from ulcdb.cli.main import app

    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name="ulcdb")

    def walk(cmd: Any, words: str, ctx: typer.Context) -> Iterator[tuple[str, Any]]:
        yield words, cmd
        if hasattr(cmd, "list_commands"):  # a group (Typer's click is its own: duck-typed)
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    yield from walk(sub, f"{words} {name}",
                                    typer.Context(sub, parent=ctx, info_name=name))

    yield from walk(root, "ulcdb", ctx)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _is_argument(param: Any) -> bool:
    return bool(param.param_type_name == "argument")


def _param_row(param: Any, ctx: Any) -> str:
    if not _is_argument(param):
        names = ", ".join(f"`{o}`" for o in param.opts + param.secondary_opts)
        if param.is_flag and param.secondary_opts == []:
            kind = "flag"
        else:
            kind = _cell(param.display_type(ctx).strip("<>").replace("|", " | "))
        default = param.default
        shown = "" if default in (None, False, (), []) or callable(default) else \
            f"`{getattr(default, 'value', default)}`"
        help_text = param.help or ""
    else:
        names = f"`{(param.name or '').upper()}`"
        kind = "argument" + (", repeatable" if param.nargs == -1 else "")
        shown = ""
        help_text = getattr(param, "help", "") or ""
        if not param.required:
            kind += ", optional"
    return f"| {names} | {kind} | {shown} | {_cell(help_text)} |"


def cli_markdown() -> str:
    """The command reference: one section per command with its help and a table of its
    options, arguments first."""
    out: list[str] = []
    for words, cmd in commands():
        ctx = typer.Context(cmd, info_name=words)
        depth = min(words.count(" ") + 2, 4)
        out.append(f"{'#' * depth} `{words}`\n")
        text = (cmd.help or "").strip()
        if text:
            out.append(_help_markdown(text) + "\n")
        params = [p for p in cmd.params if p.name not in ("help",) and
                  not getattr(p, "hidden", False)]
        if params:
            out.append("| option | type | default | what it does |")
            out.append("| --- | --- | --- | --- |")
            args = [p for p in params if _is_argument(p)]
            opts = [p for p in params if not _is_argument(p)]
            out.extend(_param_row(p, ctx) for p in args + opts)
            out.append("")
    return "\n".join(out)


def _help_markdown(text: str) -> str:
    """A docstring as Markdown: its 'Example:' lines as code."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        match = re.match(r"^(.*?)Example:\s*(ulcdb .*)$", stripped)
        if match:
            if match.group(1):
                lines.append(match.group(1))
            lines.append(f"\nExample: `{match.group(2)}`")
        else:
            lines.append(stripped.replace("\b", ""))
    return "\n".join(lines)


def metrics_markdown() -> str:
    """Every built-in metric, one table per family: name, level, languages, range, and what it
    computes (its description names the reference implementation).  Families of more than
    FULL metrics (the linguistic ones, one metric per tag or role) give each description's
    first sentence: `ulcdb describe METRIC` prints the whole."""
    from ulcdb.metrics import catalogue

    families: dict[str, list[Any]] = {}
    for entry in catalogue.entries(None):
        families.setdefault(entry.spec.family, []).append(entry)
    out = [f"{sum(map(len, families.values()))} metrics in {len(families)} families.\n"]
    for family, entries in families.items():
        out.append(f"### {family}\n")
        impls = sorted({e.spec.reference_implementation for e in entries
                        if getattr(e.spec, "reference_implementation", "")})
        if impls:
            out.append("Reference implementation: " + "; ".join(impls) + "\n")
        out.append("| metric | level | languages | range | what it computes |")
        out.append("| --- | --- | --- | --- | --- |")
        for e in entries:
            s = e.spec
            text = s.description if len(entries) <= FULL else _first_sentence(s.description)
            out.append(f"| `{s.name}` | {s.linguistic_level} | {_cell(e.languages)} | "
                       f"{_cell(catalogue._range(s))} | {_cell(text)} |")
        out.append("")
    return "\n".join(out)


FULL = 40


def _first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.;])(\s|$)", text)
    return match.group(1) if match else text


def sets_markdown() -> str:
    """The built-in metric sets with their members."""
    from ulcdb.metrics import registry

    out = ["| set | metrics | members |", "| --- | --- | --- |"]
    for name, members in registry.BUILTIN_SETS.items():
        shown = ", ".join(f"`{m}`" for m in members[:12])
        more = f", ... ({len(members) - 12} more)" if len(members) > 12 else ""
        out.append(f"| `{name}` | {len(members)} | {_cell(shown + more)} |")
    return "\n".join(out) + "\n"


def schema_markdown() -> str:
    """Every table, view and table macro of the store, in the order the schema's manifest
    applies them (``ulcdb.store.database.schema_files``), with the comment heading its SQL file."""
    from ulcdb.store.database import schema_files

    out = ["| name | kind | what it holds |", "| --- | --- | --- |"]
    for path in schema_files():
        text = path.read_text(encoding="utf-8")
        comment = []
        for line in text.splitlines():
            if not line.startswith("--"):
                break
            comment.append(line.lstrip("-").strip())
        for kind, name in re.findall(r"create (?:or replace )?(?:temp )?"
                                     r"(table|view|macro)(?: if not exists)? (\w+)", text,
                                     re.IGNORECASE):
            out.append(f"| `{name}` | {kind.lower()} | {_cell(' '.join(comment))} |")
    return "\n".join(out) + "\n"


GENERATORS = {"cli": cli_markdown, "metrics": metrics_markdown, "sets": sets_markdown,
              "schema": schema_markdown}


def expand(markdown: str) -> str:
    """The page with every generated marker replaced by its text."""
    return MARKER.sub(lambda m: GENERATORS[m.group(1)](), markdown)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return expand(markdown)

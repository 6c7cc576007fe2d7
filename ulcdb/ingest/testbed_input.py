"""Test-bed input: which reader a path (or --source/--ref/--sys files) needs, run with the
options given, and --src-lang/--tgt-lang applied."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ulcdb.errors import InputError, UlcdbError

if TYPE_CHECKING:  # every `ulcdb` command reads TestbedFormat: the readers load on use
    from ulcdb.ingest.model import TestbedData


class TestbedFormat(str, Enum):
    auto = "auto"
    plain = "plain"
    sgml = "sgml"
    wmt = "wmt"
    mtme = "mtme"
    config = "config"
    long = "long"


def pairs(values: list[str], option: str) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for v in values:
        name, sep, file = v.partition("=")
        if not sep or not name or not file:
            raise UlcdbError(f"{option} takes NAME=FILE, got {v!r}")
        if name in out:
            raise UlcdbError(f"{option} {name} is given twice ({out[name]} and {file}): "
                             "every name must be unique")
        out[name] = Path(file)
    return out


UNRECOGNISED = ("unrecognised test-bed format (expected WMT XML, NIST SGML, a long TSV with "
                "columns seg_id, doc_id, source, translator, kind, translation, a ULC.config or "
                "an mt-metrics-eval folder); plain text files go with --source, "
                "--ref NAME=FILE and --sys NAME=FILE")


def sniff(path: Path) -> TestbedFormat:
    if path.is_dir():
        return TestbedFormat.mtme
    if path.suffix == ".config" or path.name.endswith("config"):
        return TestbedFormat.config
    from ulcdb.ingest.textio import check_file

    check_file(path)  # a FIFO would block the read below
    with path.open("rb") as handle:
        head = handle.read(4096).lower()
    if b"<dataset" in head:
        return TestbedFormat.wmt
    if any(tag in head for tag in (b"<srcset", b"<refset", b"<tstset")):
        return TestbedFormat.sgml
    from ulcdb.formats.longtsv import is_long_tsv

    if is_long_tsv(path):
        return TestbedFormat.long
    if path.suffix.lower() == ".xml" or head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml"):
        return TestbedFormat.wmt  # its reader says what is wrong with the XML
    if path.suffix.lower() == ".tsv":
        return TestbedFormat.long  # its reader names the columns the header lacks
    return TestbedFormat.plain


def read_testbed(path: Path | None, fmt: TestbedFormat, name: str | None, source: Path | None,
                 refs: list[str], systems: list[str], docs: Path | None, lp: str | None,
                 src_lang: str | None, tgt_lang: str | None) -> TestbedData:
    """Pick the reader for the arguments given, run it and apply --src-lang/--tgt-lang."""
    first = path or source
    if first is None:
        raise UlcdbError("give a test bed PATH, or --source with --ref/--sys files")
    if not first.exists():
        raise InputError(first, None, "no such file or directory")
    if fmt == TestbedFormat.auto:
        # a folder given as --source is no mt-metrics-eval layout: the text reader refuses it
        fmt = (TestbedFormat.plain if path is None and first.is_dir() else sniff(first))
        if fmt == TestbedFormat.plain and path is not None and not refs and not systems:
            raise InputError(path, None, UNRECOGNISED)
    data = _read_format(first, fmt, name, refs, systems, docs, lp)
    _apply_languages(data, src_lang, tgt_lang)
    if name is None and fmt not in (TestbedFormat.config, TestbedFormat.mtme):
        data.notes.append(f"named {data.name!r} after {first.name} (--name names it)")
    return data


def _read_format(first: Path, fmt: TestbedFormat, name: str | None, refs: list[str],
                 systems: list[str], docs: Path | None, lp: str | None) -> TestbedData:
    from ulcdb.formats import longtsv, ulcconfig
    from ulcdb.formats.nist import sgml
    from ulcdb.formats.wmt import xml_testbed
    from ulcdb.ingest import mtme_testbeds

    default_name = name if name is not None else (first.stem if not first.is_dir()
                                                   else first.name)
    if fmt == TestbedFormat.mtme:
        lp = lp or mtme_testbeds.only_pair(first)  # a folder of one language pair needs no --lp
        data = mtme_testbeds.read_mtme(first, lp, name=name)
        _mtme_human_scores(first, lp, data)
        return data
    if fmt == TestbedFormat.config:
        data = ulcconfig.read_ulc_config(first)
        data.name = name if name is not None else data.name
        return data
    if fmt == TestbedFormat.wmt:
        return xml_testbed.read_wmtxml(default_name, first)
    if fmt == TestbedFormat.long:
        return longtsv.read_long_tsv(default_name, first)
    if fmt == TestbedFormat.sgml:
        return sgml.read_sgml(default_name, first, [Path(r.split("=")[-1]) for r in refs],
                              [Path(s.split("=")[-1]) for s in systems])
    return _read_plain(default_name, first, refs, systems, docs)


def _mtme_human_scores(root: Path, lp: str, data: TestbedData) -> None:
    """The folder's ``human-scores/LP.*.score`` go with the test bed (domain level skipped:
    the store has none)."""
    from ulcdb.ingest import mtme_testbeds

    roles = {t.name: t.role for t in data.translators}
    counts = {"seg": len(data.segments), "doc": len(data.documents)}
    files = mtme_testbeds.find_human_files(root, lp)
    domain = [p for p in files if p.name.endswith(".domain.score")]
    for path in files:
        if path not in domain:
            data.assessments += mtme_testbeds.human_items(path, roles, counts)
    if domain:
        data.notes.append(f"skipped {len(domain)} domain-level human-score files")


def _read_plain(name: str, source: Path, refs: list[str], systems: list[str],
                docs: Path | None) -> TestbedData:
    """Plain files; languages are guessed from WMT-style file names (``source.es.txt``)."""
    from ulcdb.formats import plain

    ref_files, sys_files = pairs(refs, "--ref"), pairs(systems, "--sys")
    data = plain.read_plain(name, source, ref_files, sys_files, docs)
    targets = [*ref_files.values(), *sys_files.values()]
    guesses = {"src_lang": _lang_suffix(source),
               "tgt_lang": _lang_suffix(targets[0]) if targets else None}
    for side, guess in guesses.items():
        if guess:
            setattr(data, side, guess)
            data.guessed_languages.add(side)
    return data


def _apply_languages(data: TestbedData, src_lang: str | None, tgt_lang: str | None) -> None:
    """--src-lang/--tgt-lang (normalised: ``german`` is ``de``) fill what the input leaves
    open; contradicting it is an error."""
    from ulcdb.metrics.languages import normalise, set_language  # not at import: it loads the store

    for side, given in (("src_lang", src_lang), ("tgt_lang", tgt_lang)):
        option = "--" + side.replace("_", "-")
        if given is not None and not given.strip():  # --tgt-lang '' was read as no option
            raise InputError(data.origin or data.name, None, f"{option} {given!r} is empty")
        if not given:
            continue
        lang = normalise(given, data.origin or data.name, option)
        have = getattr(data, side)
        if have and have != lang.code and side not in data.guessed_languages:
            raise InputError(data.origin or data.name, None,
                             f"{option} {given} contradicts the input's {side} {have!r}")
        set_language(data, side, given, data.origin or data.name, option=option)
        data.guessed_languages.discard(side)


def _lang_suffix(path: Path) -> str | None:
    """``source.es.txt`` -> ``es``: the language code WMT-style file names carry (None where
    that part is no language code, e.g. ``sys.new.txt``)."""
    parts = path.name.split(".")
    code = parts[-2] if len(parts) >= 3 else ""
    if not (2 <= len(code) <= 3 and code.isalpha()):
        return None
    from ulcdb.metrics.languages import normalise

    try:
        lang = normalise(code, path)
    except InputError:
        return None
    return lang.code if lang.note is None else None

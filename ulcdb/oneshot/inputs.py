"""The files (or standard input) `ulcdb eval` scores, as a test bed of one document.

References and systems are named after their files (``ref.de.txt`` -> ``ref.de.txt``), with
as many of their folders as tell apart files of one name (``runs/a/hyp.de`` and
``runs/b/hyp.de`` -> ``a/hyp.de``, ``b/hyp.de``) and ``_`` for a character the command line
reads as a separator (``,``, ``+``, ``=``): sacrebleu takes any paths.  A system read from
standard input is ``stdin``.  Lines are kept as written, as every ulcdb
reader keeps them.  Without ``--src`` the test bed's source segments are empty strings: no
metric ``eval`` offers reads the source, and the saved test bed says where its texts came
from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import BinaryIO

from ulcdb.errors import InputError
from ulcdb.ingest.model import Document, SourceSegment, TestbedData, TranslatorText
from ulcdb.ingest.textio import decode_utf8, read_lines, split_lines
from ulcdb.store.names import check_name, fold

STDIN = "stdin"


@dataclass(frozen=True)
class EvalFiles:
    """What to read: reference files, system files (none: standard input), a source file."""

    refs: tuple[str, ...]
    systems: tuple[str, ...] = ()
    source: str | None = None


@dataclass
class EvalInputs:
    """The test bed to store, and the label sacrebleu would print for each system."""

    testbed: TestbedData
    labels: dict[str, str]  # system name in the store -> the path as the user gave it

    @property
    def systems(self) -> list[str]:
        return list(self.labels)

    @property
    def refs(self) -> list[str]:
        return [t.name for t in self.testbed.translators if t.role == "reference"]


def read_inputs(files: EvalFiles, name: str, stdin: BinaryIO | None,
                src_lang: str | None = None, tgt_lang: str | None = None) -> EvalInputs:
    """Every file read and checked to have as many lines as the first reference."""
    if not files.refs:
        raise InputError("eval", None, "give at least one reference file")
    names = dict(zip([*files.refs, *files.systems],
                     store_names([*files.refs, *files.systems]), strict=True))
    refs = [_translator(path, names[path], "reference", read_lines(Path(path)))
            for path in files.refs]
    n = len(refs[0].texts)
    systems = [_translator(path, names[path], "system", read_lines(Path(path)))
               for path in files.systems]
    if not systems:
        systems = [_from_stdin(stdin)]
    _check_names(refs, systems)
    for t in [*refs[1:], *systems]:
        if len(t.texts) != n:
            raise InputError(t.origin, None, f"{t.role} has {len(t.texts)} lines, the "
                             f"reference {files.refs[0]} has {n}: every file needs one line "
                             "per segment")
    sources = read_lines(Path(files.source)) if files.source else [""] * n
    if len(sources) != n:
        raise InputError(files.source, None, f"source has {len(sources)} lines, the "
                         f"reference {files.refs[0]} has {n}")
    data = TestbedData(
        name=name, src_lang=src_lang, tgt_lang=tgt_lang,
        origin=files.source or files.refs[0], documents=[Document(name)],
        segments=[SourceSegment(i, name, i, text) for i, text in enumerate(sources, start=1)],
        translators=[*refs, *systems], has_documents=False)
    labels = {t.name: (STDIN if t.origin == STDIN else given)
              for t, given in zip(systems, files.systems or (STDIN,), strict=True)}
    return EvalInputs(data, labels)


def store_names(paths: list[str]) -> list[str]:
    """Each file's name in the store: its file name, with as many of its last folders as
    tell it from the others' (names that differ in case alone included), separators ``_``."""
    parts = [PurePath(p).parts[1 if PurePath(p).anchor else 0:] for p in paths]
    depth = [1] * len(paths)
    while True:
        names = ["/".join(ps[-d:]) for ps, d in zip(parts, depth, strict=True)]
        folded = [fold(n) for n in names]
        grow = [i for i, n in enumerate(folded)
                if folded.count(n) > 1 and depth[i] < len(parts[i])]
        if not grow:
            return [re.sub(r"[,+=]", "_", n) for n in names]
        for i in grow:
            depth[i] += 1


def _translator(path: str, name: str, role: str, texts: list[str]) -> TranslatorText:
    return TranslatorText(name=check_name(role, name, path), role=role, texts=texts,
                          origin=path)


def _from_stdin(stdin: BinaryIO | None) -> TranslatorText:
    if stdin is None:
        raise InputError("eval", None, "no system to score: give -i FILE..., or pipe one "
                         "into the command (cat sys.txt | ulcdb eval ref.txt)")
    data = stdin.read()
    if not data:
        raise InputError(STDIN, None, "empty input: no system lines to score")
    return TranslatorText(name=STDIN, role="system",
                          texts=split_lines(decode_utf8(Path(STDIN), data)), origin=STDIN)


def _check_names(refs: list[TranslatorText], systems: list[TranslatorText]) -> None:
    seen: dict[str, str] = {}
    for t in [*refs, *systems]:
        if t.name in seen:
            said = ("given twice: give each reference and system once"
                    if t.origin == seen[t.name] else
                    f"{t.name!r} already names {seen[t.name]}: give each reference and system "
                    "a file of its own name")
            raise InputError(t.origin, None, said)
        seen[t.name] = t.origin

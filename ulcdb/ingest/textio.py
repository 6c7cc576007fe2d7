"""Reading UTF-8 text files with errors that name the file and the line.

Every reader goes through here, so a bad byte, a missing or an empty file is reported the same
way everywhere: ``InputError(path, line, message)``.
"""

from __future__ import annotations

import bisect
import codecs
import csv
import gzip
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from ulcdb.errors import InputError

_BOM = codecs.BOM_UTF8


# Compressed input is streamed and refused past this many decompressed bytes (a gzip bomb
# must not exhaust memory); ULCDB_MAX_INPUT_MB changes it.
MAX_DECOMPRESSED = int(os.environ.get("ULCDB_MAX_INPUT_MB", "1024")) * 2**20
_GZIP = b"\x1f\x8b"

# No line of any input may be longer than this (a file without line breaks, such as a device
# or a binary, must not be read as one endless line); ULCDB_MAX_LINE_MB changes it.
MAX_LINE = int(os.environ.get("ULCDB_MAX_LINE_MB", "16")) * 2**20

# Python's csv module refuses fields longer than 128 KiB ('field larger than field limit'),
# which the CSV/TSV readers reported as bad quoting: any field of a line ulcdb reads is allowed.
csv.field_size_limit(max(csv.field_size_limit(), MAX_LINE))

# Positions (segment, document numbers) are stored as 32-bit integers.
MAX_POSITION = 2**31 - 1


def check_file(path: Path) -> None:
    """A readable regular file, or an ``InputError``; never blocks (a FIFO is refused).  Every
    reader calls this before it opens a file given on the command line: a FIFO, socket or
    device (``/dev/zero``, also through a symlink named ``x.csv``) is refused at once."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(path, None, "file not found") from None
    except OSError as exc:
        raise InputError(path, None, f"cannot read file: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise InputError(path, None, "is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise InputError(path, None, "is not a regular file (a FIFO, socket or device): "
                         "give a file")


def head_line(path: Path) -> str:
    """The first line of ``path`` (checked by ``check_file``; undecodable bytes replaced),
    read no further than ``MAX_LINE`` bytes."""
    check_file(path)
    try:
        with open(path, "rb") as fh:
            first = fh.readline(MAX_LINE + 1)
    except OSError as exc:
        raise InputError(path, None, f"cannot read file: {exc.strerror}") from None
    if len(first) > MAX_LINE:
        raise _too_long(path, 1)
    return first.decode("utf-8", "replace").rstrip("\r\n")


def _too_long(path: str | Path, line: int) -> InputError:
    return InputError(path, line, f"line longer than {MAX_LINE >> 20} MiB: not a text file of "
                      "lines? (set ULCDB_MAX_LINE_MB to allow longer lines)")


def check_line_lengths(path: str | Path, data: bytes) -> None:
    """An ``InputError`` naming the first line of ``data`` longer than ``MAX_LINE``."""
    if len(data) <= MAX_LINE:
        return
    start, number = 0, 1
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end - start > MAX_LINE:
            raise _too_long(path, number)
        start, number = end + 1, number + 1


def parse_position(path: str | Path, line: int | None, text: str, what: str,
                   first: int = 1) -> int:
    """A whole number from ``first`` to ``MAX_POSITION`` (a segment or document position)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < first:
        wanted = "a positive integer" if first == 1 else f"a whole number >= {first}"
        raise InputError(path, line, f"{what} {text!r} is not {wanted}")
    if int(text) > MAX_POSITION:
        raise InputError(path, line, f"{what} {text} is too large (at most {MAX_POSITION})")
    return int(text)


def _gunzip(path: Path) -> bytes:
    chunks, size = [], 0
    try:
        with gzip.open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                size += len(chunk)
                if size > MAX_DECOMPRESSED:
                    raise InputError(path, None, "decompresses to more than "
                                     f"{MAX_DECOMPRESSED >> 20} MiB: refused (set "
                                     "ULCDB_MAX_INPUT_MB to allow more)")
                chunks.append(chunk)
    except (OSError, EOFError) as exc:
        raise InputError(path, None, f"broken gzip data: {exc}") from None
    return b"".join(chunks)


def read_bytes(path: Path, gunzip: bool = False) -> bytes:
    """The bytes of ``path`` (decompressed when ``gunzip`` and it is gzip data); a missing,
    unreadable, empty or non-regular file is an ``InputError``."""
    check_file(Path(path))
    try:
        with open(path, "rb") as fh:
            data = fh.read(2)
            compressed = gunzip and data == _GZIP
            data = b"" if compressed else data + fh.read()
    except OSError as exc:
        raise InputError(path, None, f"cannot read file: {exc.strerror}") from None
    if compressed:
        data = _gunzip(Path(path))
    if not data:
        raise InputError(path, None, "empty file")
    check_line_lengths(path, data)
    return data


# Byte order marks of text in another encoding than UTF-8 (UTF-32's first: they begin with
# UTF-16's), and the first bytes of archives, which read as UTF-8 meet a NUL byte.
_OTHER_ENCODINGS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
                    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
_ARCHIVES = ((_GZIP, "is gzip-compressed: this input is read as text; decompress it first "
                     "(gunzip)"),
             (b"PK\x03\x04", "is a ZIP archive (a .zip, .xlsx, .docx or .ods file?), not a "
                              "text file"))


def check_not_binary(path: str | Path, data: bytes) -> None:
    """An ``InputError`` saying what ``data`` is when it is UTF-16 or UTF-32 text (with a
    byte order mark, or ASCII-range UTF-16 without one), gzip data or a ZIP archive, which
    read as UTF-8 would only meet a NUL byte ('not a text file')."""
    convert = ": the file must be UTF-8 (convert it, e.g. iconv -f {0} -t UTF-8)"
    for mark, encoding in _OTHER_ENCODINGS:
        if data.startswith(mark):
            raise InputError(path, None, f"is {encoding} text (it starts with a byte order "
                             f"mark){convert.format(encoding)}")
    for mark, what in _ARCHIVES:
        if data.startswith(mark):
            raise InputError(path, None, what)
    head = data[: min(len(data), 64) // 2 * 2]
    for zeros, chars, encoding in ((head[1::2], head[0::2], "UTF-16LE"),
                                   (head[0::2], head[1::2], "UTF-16BE")):
        if len(head) >= 4 and not zeros.strip(b"\x00") and b"\x00" not in chars:
            raise InputError(path, None, f"is {encoding} text without a byte order mark"
                             f"{convert.format(encoding)}")


def line_column(text: str | bytes, pos: int, first_line: int = 1) -> tuple[int, int]:
    """The line (``text`` starting at line ``first_line``) and the column, both from 1, of
    position ``pos``."""
    if isinstance(text, str):
        lines, start = text.count("\n", 0, pos), text.rfind("\n", 0, pos)
    else:
        lines, start = text.count(b"\n", 0, pos), text.rfind(b"\n", 0, pos)
    return lines + first_line, pos - start


def check_no_nul(path: str | Path, data: bytes) -> None:
    """An ``InputError`` naming the line of the first NUL byte of ``data``: no text file
    holds one (a binary, or a file damaged on its way), and the store would keep it; UTF-16,
    gzip or ZIP data is said to be that (``check_not_binary``)."""
    pos = data.find(b"\x00")
    if pos >= 0 or data.startswith((_GZIP, b"PK\x03\x04")):
        check_not_binary(path, data)
    if pos >= 0:
        line, column = line_column(data, pos)
        raise InputError(path, line, f"NUL byte at column {column}: not a text file")


def decode_utf8(path: Path, data: bytes) -> str:
    """Decode ``data`` as UTF-8 (a leading BOM is dropped); a bad byte or a NUL byte names
    its line."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    check_no_nul(path, data)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        bad = data[exc.start : exc.end].hex(" ")
        message = f"invalid UTF-8 (byte {bad} at column {column}): the file must be UTF-8"
        raise InputError(path, line, message) from None


def read_text(path: Path) -> str:
    """The whole file as text, checked to be non-empty, valid UTF-8."""
    return decode_utf8(path, read_bytes(path))


# The encoding an XML declaration names (<?xml version="1.0" encoding="ISO-8859-1"?>), which
# WMT's XML and SGML files may start with.
_DECLARED = re.compile(rb"""\A<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][\w.:-]*)["']""")


def decode_declared(path: Path, data: bytes) -> str:
    """``data`` decoded in the encoding its XML declaration names (one of Python's codecs),
    as users expect of a file that says its encoding; without a declaration, UTF-8
    (``decode_utf8``).  A byte the encoding cannot read names its line."""
    found = _DECLARED.match(data)
    if found is None:
        return decode_utf8(path, data)
    name = found.group(1).decode("ascii")
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise InputError(path, 1, f"the XML declaration names the encoding {name!r}, which "
                         "Python's codecs do not know: convert the file to UTF-8") from None
    if codec == "utf-8":
        return decode_utf8(path, data)
    check_no_nul(path, data)
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        bad = data[exc.start : exc.end].hex(" ")
        raise InputError(path, line, f"invalid {name} (byte {bad} at column {column}), the "
                         "encoding the XML declaration names") from None


def read_declared_text(path: Path) -> str:
    """The whole file as text in the encoding its XML declaration names, else UTF-8."""
    return decode_declared(path, read_bytes(path))


def split_lines(text: str) -> list[str]:
    """Lines exactly as written: only ``\\n`` and a ``\\r`` just before it are removed.

    Unlike ``str.splitlines`` this does not split on form feeds, U+2028 and the like, which
    occur inside real segments; a final newline does not open an extra empty line.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: Path) -> list[str]:
    """The raw lines of a UTF-8 file (one segment per line); a carriage return that ends no
    line is refused (``check_line_ends``)."""
    text = read_text(path)
    check_line_ends(path, text)
    check_inner_bom(path, text)
    return split_lines(text)


def check_inner_bom(path: str | Path, text: str, first_line: int = 1) -> None:
    """An ``InputError`` naming the line and column of a byte order mark (U+FEFF) after the
    start of the file: files joined with ``cat`` keep each one's BOM, which was stored,
    invisible, at the head of a segment (or of a system's name, then unknown)."""
    pos = text.find("\ufeff")
    if pos >= 0:
        line, column = line_column(text, pos, first_line)
        raise InputError(path, line, f"a byte order mark (U+FEFF) at column {column}, inside "
                         "the file: files joined with their marks? remove it")


_LONE_CR = re.compile(r"\r(?!\n|\Z)")


def check_line_ends(path: str | Path, text: str, first_line: int = 1,
                    one_of_many: bool = False) -> None:
    """An ``InputError`` naming the line of the first carriage return (CR) of ``text`` that
    is neither before a line feed nor at the end: classic Mac OS line ends made the whole
    file one line, and a CR inside a line is a line break to other tools (Python's and
    sacrebleu's universal newlines) that ulcdb would store inside a segment.  ``text`` may
    be line ``first_line`` of a file with line feeds (``one_of_many``)."""
    found = _LONE_CR.search(text)
    if found is None:
        return
    if not one_of_many and "\n" not in text and text.count("\r") > 1:
        raise InputError(path, 1, "lines end with a carriage return (CR) alone, as classic "
                         "Mac OS wrote them: give the file LF line ends (e.g. mac2unix FILE)")
    pos = found.start()
    line, column = line_column(text, pos, first_line)
    raise InputError(path, line, f"a carriage return (CR) at column {column} ends no line "
                     "(other tools break the line there): remove it, or end lines with LF")


class LineIndex:
    """Turns a character offset of a text into its 1-based line number."""

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._starts = starts

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:nan|inf|infinity)",
                     re.IGNORECASE | re.ASCII)


def parse_number(path: str | Path, line: int | None, text: str, what: str = "score") -> float:
    """The finite number written in ``text`` as a plain decimal (ASCII digits, optional sign,
    point and exponent; not Python's ``1_000`` nor other scripts' digits); -0.0 becomes 0.0."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        raise InputError(path, line, f"{what} {text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise InputError(path, line, f"{what} {text!r} is NaN or infinite")
    return value + 0.0


def numbered_lines(path: str | Path, data: bytes | None = None,
                   what: str = "lines") -> list[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers (gzip-aware, a BOM and a CR before the
    line break dropped); invalid UTF-8 or a NUL byte names its line; no such line: 'empty
    file: no WHAT'."""
    data = read_bytes(Path(path), gunzip=True) if data is None else data
    check_no_nul(path, data)
    lines = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, number,
                             f"invalid UTF-8 (byte {exc.start + 1} of the line)") from None
        text = text.removeprefix("\ufeff") if number == 1 else text
        text = text.rstrip("\r")
        check_inner_bom(path, text, number)
        if "\r" in text:
            check_line_ends(path, text, number, one_of_many=b"\n" in data)
        if text.strip():
            lines.append((number, text))
    if not lines:
        raise InputError(path, None, f"empty file: no {what}")
    return lines


def parse_json(path: str | Path, data: bytes, what: str) -> Any:
    """``data`` parsed as JSON, or an ``InputError`` saying it is not ``what`` (JSON's line
    where it has one).  An object that holds a key twice is refused: Python's json keeps the
    last value without a word (COMET output of two runs under one system name kept one)."""

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise InputError(path, None, f"not {what}: an object holds the key {key!r} "
                                 "twice (which value is meant?)")
            out[key] = value
        return out

    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=unique)
    except RecursionError:
        raise InputError(path, None, f"not {what}: nested too deeply") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(path, getattr(exc, "lineno", None), f"not {what}: {exc}") from None

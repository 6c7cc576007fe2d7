"""Lin's thesaurus and VerbOcean for TINE, from the files their authors published.

``ulcdb ingest resource lin-thesaurus FILE...`` and ``ulcdb ingest resource verbocean FILE``
read, check and install them into ulcdb's resource folder (``$ULCDB_RESOURCES``, else
``$XDG_DATA_HOME/ulcdb/resources``), where every scoring process finds them; TINE then uses
them instead of its stand-ins and its signature names them with the first 12 hex digits of
the files' SHA-256, so scores computed with different resources never mix.

- Lin's thesaurus (Lin 1998; ``simN.lsp``, ``simV.lsp``, ``simA.lsp``): the LISP layout
  NLTK's ``LinThesaurusCorpusReader`` reads: an entry opens with ``(WORD (desc N)`` (the word
  may be quoted), then one ``NEIGHBOUR<TAB>SCORE`` per line, and ``))`` closes it.  Read here
  rather than with NLTK's reader, which skips malformed lines silently; a bad line is an
  error naming file and line.  The 20 best-scored neighbours of each word are kept (of all
  the files given, merged by score).
- VerbOcean (Chklovski and Pantel 2004; ``verbocean.unrefined.2004-05-20.txt``):
  ``VERB1 [RELATION] VERB2 :: SCORE`` lines, ``#`` comments.  A pair aligns when the file
  relates (hypothesis verb, reference verb) in that order (the key srl_mt_measure.pl looks
  up) by any relation but ``opposite-of`` (the authors' code meant to exclude it but its
  regular expression cut the name to ``opposite``; ulcdb follows the paper).
"""

from __future__ import annotations

import codecs
import gzip
import hashlib
import json
import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from ulcdb.errors import Conflict, InputError, UlcdbError
from ulcdb.ingest.textio import check_file, parse_number, read_bytes, split_lines

LIN, VERBOCEAN = "lin-thesaurus", "verbocean"
KINDS = (LIN, VERBOCEAN)
KEEP = 20
_LIN_HEAD = re.compile(r'^\("?(.+?)"?\s+\(desc\s+[-+0-9.eE]+\)')
_LIN_ITEM = re.compile(r'^"?([^"\t]+?)"?\s+([-+0-9.eE]+)$')
_VO_LINE = re.compile(r"^(\S+)\s+\[([^\]]+)\]\s+(\S+)\s+::\s+([-+0-9.eE]+)$")


def resource_dir() -> Path:
    given = os.environ.get("ULCDB_RESOURCES")
    if given:
        return Path(given)
    base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "ulcdb" / "resources"


def _path(kind: str) -> Path:
    return resource_dir() / f"{kind}.json.gz"


def _digest(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths, key=lambda p: p.name):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _lines(path: Path) -> Iterable[tuple[int, str]]:
    """Each line (stripped) with its number in the file: only LF (CRLF) ends a line, not the
    form feed, U+2028 or latin-1's 0x85 that ``str.splitlines`` also splits at (a bad line
    after one was named a line too early); a leading byte order mark is dropped."""
    data = read_bytes(path)  # a regular file with bounded lines, or an InputError
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # Lin's files predate UTF-8
    for number, line in enumerate(split_lines(text), 1):
        yield number, line.strip()


def read_lin(paths: list[Path]) -> dict[str, list[str]]:
    """Each word's neighbours, best score first (ties: file order), at most ``KEEP``."""
    scored: dict[str, dict[str, float]] = {}
    for path in paths:
        word: str | None = None
        for number, line in _lines(path):
            if not line:
                continue
            if word is None:
                head = _LIN_HEAD.match(line)
                if not head:
                    raise InputError(path, number, "expected an entry's first line "
                                     f"'(WORD (desc N)', got {line[:60]!r}")
                word = head.group(1)
                scored.setdefault(word, {})
            elif line == "))":
                word = None
            else:
                item = _LIN_ITEM.match(line)
                if not item:
                    raise InputError(path, number, "expected 'NEIGHBOUR<TAB>SCORE' or "
                                     f"'))', got {line[:60]!r}")
                old = scored[word].get(item.group(1), float("-inf"))
                value = parse_number(path, number, item.group(2), "similarity")
                scored[word][item.group(1)] = max(old, value)
        if word is not None:
            raise InputError(path, None, f"the entry of {word!r} is not closed with '))'")
    if not scored:
        raise InputError(", ".join(map(str, paths)), None, "no thesaurus entries")
    return {w: sorted(n, key=lambda x: -n[x])[:KEEP] for w, n in scored.items()}


def read_verbocean(path: Path) -> dict[str, str]:
    """'VERB1 VERB2' -> relation (the first line for a pair wins, as a B-tree lookup does)."""
    out: dict[str, str] = {}
    for number, line in _lines(path):
        if not line or line.startswith("#"):
            continue
        m = _VO_LINE.match(line)
        if not m:
            raise InputError(path, number, "expected 'VERB1 [RELATION] VERB2 :: SCORE', "
                             f"got {line[:60]!r}")
        out.setdefault(f"{m.group(1)} {m.group(3)}", m.group(2))
    if not out:
        raise InputError(path, None, "no VerbOcean relations")
    return out


# Lin's thesaurus: word -> neighbours, best first; VerbOcean: "verb verb" -> relation.
Lexicon = dict[str, list[str]] | dict[str, str]


def install(kind: str, paths: list[Path], replace: bool = False) -> tuple[Path, str, int]:
    """Check and install a resource; returns where, its id and how many entries."""
    if kind not in KINDS:
        raise UlcdbError(f"unknown resource {kind!r} (known: {', '.join(KINDS)})")
    for path in paths:
        check_file(path)
    data: Lexicon = read_lin(paths) if kind == LIN else read_verbocean(_one(paths))
    ident = _digest(paths)
    target = _path(kind)
    old = installed_id(kind)
    if old is not None and old != ident and not replace:
        raise Conflict(f"a different {kind} ({old}) is installed in {target.parent}: "
                       "--replace installs this one (scores computed with the old one keep "
                       "its name in their signature)")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as out:
        json.dump({"id": ident, "files": [p.name for p in paths], "data": data}, out)
    tmp.replace(target)
    _load.cache_clear()
    return target, ident, len(data)


def _one(paths: list[Path]) -> Path:
    if len(paths) != 1:
        raise UlcdbError("VerbOcean is one file: give one")
    return paths[0]


@cache
def _load(kind: str) -> tuple[str, Lexicon] | None:
    path = _path(kind)
    if not path.is_file():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as f:
        stored = json.load(f)
    return stored["id"], stored["data"]


def installed_id(kind: str) -> str | None:
    loaded = _load(kind)
    return None if loaded is None else loaded[0]


def lin_neighbours(word: str, k: int) -> tuple[str, ...] | None:
    """Lin's neighbours of ``word`` (as written, else lower-cased); None without the
    thesaurus installed."""
    loaded = _load(LIN)
    if loaded is None:
        return None
    table = loaded[1]
    return tuple(table.get(word) or table.get(word.lower()) or ())[:k]


def verbocean_related(hyp_verb: str, ref_verb: str) -> bool:
    loaded = _load(VERBOCEAN)
    if loaded is None:
        return False
    relation = loaded[1].get(f"{hyp_verb} {ref_verb}")
    return relation is not None and relation != "opposite-of"

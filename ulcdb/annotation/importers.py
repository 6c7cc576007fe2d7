"""Bring other tools' annotations into the store, aligned to a translator's segments.

Every file holds the segments of one translator in order (segment 1 first); a file whose
segment count differs from the translator's is refused.

* ``conllu`` (any UD parser): a ``# seg_id = N`` comment starts segment N and the sentences
  after it belong to it; a file without such comments has one sentence per segment.
  Multi-word token lines give the surface words (checked against the text, below); empty
  nodes are skipped.  Chunks, constituents and semantic
  roles are derived from the dependencies (as for spaCy).
* ``ptb``: one bracketed tree per line and segment, e.g. ``(S (NP (NNP John)) (VP ...))``;
  becomes the ``constituent`` layer (pre-terminals included, ROOT/TOP dropped).
* ``conll05``: CoNLL-2005 SRL columns, one token per line, blank line between segments:
  the word first, the target-verb column (lemma or ``-``) and one bracketed argument column
  per predicate last (``(A0*``, ``*``, ``*)``, ``(V*)``).
* ``iob``: one token per line, word first and IOB NE tag last (``B-PER``, ``I-PER``, ``O``),
  blank line between segments.
* ``boxer-xml``: Boxer's flat XML DRSs, one ``<xfdrs xml:id="dN">`` per segment
  (``ulcdb.annotation.boxer_import``); the words and PoS tags become the run's tokens.
  ``boxer-xml-doc``: one per document (Boxer on ``<META>``-separated documents), for DR_doc.

Every segment's words must spell the translator's text (whitespace aside, PTB escapes such as
-LRB- and `` '' undone), so a file of another translator or in another order is refused with
file and line.  PTB, CoNLL-2005 and IOB layers attach to the tokens the run already holds
for the text (from a CoNLL-U import into the same tool name); a token-count mismatch is
refused with file and line.  Where the run holds no tokens yet, the file's words become its
tokens.  Everything is checked before anything is written, and written in one transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ulcdb.annotation import storage
from ulcdb.annotation.derive import full_analysis
from ulcdb.annotation.model import CONSTITUENT, ENTITY, OK, PREDICATE, ROLE, Analysis, Span, Token
from ulcdb.errors import Conflict, InputError
from ulcdb.ingest.textio import check_file, read_lines, read_text
from ulcdb.store.database import Store
from ulcdb.store.names import check_name

FORMATS = ("conllu", "ptb", "conll05", "iob", "boxer-xml", "boxer-xml-doc")


@dataclass
class ImportedSegment:
    line: int  # first line of the segment in the file
    tokens: list[Token]
    spans: list[Span]
    # Surface words where they differ from the tokens (CoNLL-U multi-word tokens: "zum"
    # for "zu dem"); None: the tokens' forms.
    surface: list[str] | None = None

    def spelling(self) -> str:
        forms = self.surface if self.surface is not None else [t.form for t in self.tokens]
        return _spelling("".join(forms))


# PTB escapes and quotes, undone before a file's words are compared with a translation.
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
        "``": '"', "''": '"', "\\/": "/", "\\*": "*"}
_PTB_RE = re.compile("|".join(re.escape(k) for k in _PTB))


def _spelling(text: str) -> str:
    """What a text's words spell: no whitespace, PTB escapes and quotes undone."""
    return _PTB_RE.sub(lambda m: _PTB[m.group(0)], "".join(text.split())).replace("`", "'")


@dataclass
class AnnotationImportReport:
    run_id: int
    segments: int
    layer: str

    def summary(self) -> str:
        return f"run {self.run_id}: {self.segments} segments imported ({self.layer})"


def _blocks(path: Path) -> list[tuple[int, list[str]]]:
    """Blank-line separated blocks of lines: (first line number, lines)."""
    blocks: list[tuple[int, list[str]]] = []
    cur: list[str] = []
    start = 1
    for n, line in enumerate(read_lines(path), 1):
        if line.strip():
            if not cur:
                start = n
            cur.append(line.rstrip("\n"))
        elif cur:
            blocks.append((start, cur))
            cur = []
    if cur:
        blocks.append((start, cur))
    return blocks


# -- CoNLL-U ----------------------------------------------------------------------------------
def read_conllu(path: Path) -> list[ImportedSegment]:
    segs: list[ImportedSegment] = []
    by_comment = "seg_id" in read_text(path)
    sent = -1
    for start, lines in _blocks(path):
        words: list[tuple[int, list[str]]] = []
        ranges: dict[int, tuple[int, str]] = {}  # first word -> (last word, surface form)
        new_seg = not by_comment
        for k, line in enumerate(lines):
            if line.startswith("#"):
                m = re.match(r"#\s*seg_id\s*=\s*(\S+)", line)
                if m:
                    if not m.group(1).isdigit() or int(m.group(1)) != len(segs) + 1:
                        raise InputError(path, start + k, f"seg_id {m.group(1)} out of order "
                                         f"(expected {len(segs) + 1})")
                    new_seg = True
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                raise InputError(path, start + k, f"expected 10 tab-separated columns, got "
                                 f"{len(cols)}")
            if not cols[0].isdigit():  # multi-word token range or empty node
                m = re.fullmatch(r"(\d+)-(\d+)", cols[0])
                if m:
                    ranges[int(m.group(1))] = (int(m.group(2)), cols[1])
                continue
            if int(cols[0]) != len(words) + 1:  # heads point at these ids
                raise InputError(path, start + k, f"word id {cols[0]} out of order (expected "
                                 f"{len(words) + 1})")
            words.append((start + k, cols))
        if new_seg:
            segs.append(ImportedSegment(start, [], []))
            sent = -1
        elif not segs:
            raise InputError(path, start, "sentence before the first '# seg_id =' comment")
        seg = segs[-1]
        sent += 1
        base = len(seg.tokens)
        if ranges or seg.surface is not None:
            seg.surface = (seg.surface if seg.surface is not None
                           else [t.form for t in seg.tokens]) + _surface(words, ranges)
        for ln, c in words:
            head = c[6]
            if not head.isdigit():
                raise InputError(path, ln, f"bad head {head!r}")
            h = int(head)
            if h > len(words):
                raise InputError(path, ln, f"head {h} beyond the sentence's {len(words)} words")
            seg.tokens.append(Token(c[1], _opt(c[2]), _opt(c[4]), _opt(c[3]),
                                    base + h - 1 if h else -1, _opt(c[7]), sent))
        _check_tree(path, words)
    return segs


def _check_tree(path: Path, words: list[tuple[int, list[str]]]) -> None:
    """Every word's chain of heads reaches the root (head 0): a word that is its own head or
    heads that go round were stored, and the tree metrics read a tree that is none."""
    heads = {int(c[0]): int(c[6]) for _, c in words}
    rooted = {0}
    for line, cols in words:
        chain: list[int] = []
        word = int(cols[0])
        while word not in rooted:
            if word in chain:
                loop = " -> ".join(map(str, [*chain[chain.index(word):], word]))
                raise InputError(path, line, f"the heads of word {cols[0]} go round "
                                 f"({loop}): a dependency tree has none")
            chain.append(word)
            word = heads[word]
        rooted.update(chain)


def _surface(words: list[tuple[int, list[str]]], ranges: dict[int, tuple[int, str]]
             ) -> list[str]:
    """The sentence's surface words: multi-word tokens once, as written."""
    out, skip_to = [], 0
    for _, cols in words:
        i = int(cols[0])
        if i <= skip_to:
            continue
        if i in ranges:
            skip_to, form = ranges[i]
            out.append(form)
        else:
            out.append(cols[1])
    return out


def _opt(v: str) -> str | None:
    return None if v == "_" else v


# -- PTB trees ---------------------------------------------------------------------------------
_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def parse_ptb(text: str) -> tuple[list[tuple[str, str]], list[Span]]:
    """(word, tag) leaves and CONSTITUENT spans (pre-terminals included) of one tree."""
    items = _TOKEN.findall(text)
    leaves: list[tuple[str, str]] = []
    spans: list[Span] = []
    stack: list[tuple[int, str, int | None]] = []  # (start leaf, label, span slot)
    i = 0
    while i < len(items):
        tok = items[i]
        if tok == "(":
            label = items[i + 1] if i + 1 < len(items) and items[i + 1] not in "()" else ""
            i += 2 if label else 1
            if i < len(items) and items[i] not in "()" and i + 1 < len(items) \
                    and items[i + 1] == ")":  # pre-terminal (TAG word)
                leaves.append((items[i], label))
                parent = stack[-1][2] if stack else None
                spans.append(Span(CONSTITUENT, len(spans), len(leaves) - 1, len(leaves),
                                  label, parent))
                i += 2
                continue
            slot = None
            if label not in ("", "ROOT", "TOP"):
                slot = len(spans)
                parent = next((s[2] for s in reversed(stack) if s[2] is not None), None)
                spans.append(Span(CONSTITUENT, slot, len(leaves), len(leaves), label, parent))
            stack.append((len(leaves), label, slot))
        elif tok == ")":
            if not stack:
                raise ValueError("unbalanced ')'")
            start, label, slot = stack.pop()
            if slot is not None:
                s = spans[slot]
                spans[slot] = Span(CONSTITUENT, slot, start, len(leaves), label, s.parent)
            i += 1
        else:
            raise ValueError(f"word {tok!r} outside a (TAG word) pair")
    if stack:
        raise ValueError("unbalanced '('")
    return leaves, spans


def read_ptb(path: Path) -> list[ImportedSegment]:
    segs = []
    for n, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            leaves, spans = parse_ptb(line)
        except (ValueError, IndexError) as exc:
            raise InputError(path, n, f"bad tree: {exc}") from exc
        segs.append(ImportedSegment(n, [Token(w, None, t) for w, t in leaves], spans))
    return segs


# -- CoNLL-2005 SRL ----------------------------------------------------------------------------
def read_conll05(path: Path) -> list[ImportedSegment]:
    segs = []
    for start, lines in _blocks(path):
        rows = [ln.split() for ln in lines]
        verbs = [k for k, r in enumerate(rows) if len(r) > 1 and r[-1 - _npred(rows)] != "-"]
        npred = _npred(rows)
        for k, r in enumerate(rows):
            if len(r) != len(rows[0]):
                raise InputError(path, start + k, f"{len(r)} columns where the sentence's "
                                 f"first row (line {start}) has {len(rows[0])}")
            if len(r) < npred + 2:
                raise InputError(path, start + k, f"expected a word, a target column and "
                                 f"{npred} argument columns")
        if len(verbs) != npred:  # one argument column per predicate, in order
            raise InputError(path, start, f"{len(verbs)} predicates (rows with a target "
                             f"word) but {npred} argument columns")
        spans: list[Span] = []
        for p, v in enumerate(verbs):
            pid = len(spans)
            spans.append(Span(PREDICATE, pid, v, v + 1, rows[v][-1 - npred]))
            col = len(rows[0]) - npred + p
            open_: tuple[str, int] | None = None
            for k, r in enumerate(rows):
                cell = r[col]
                if cell.startswith("(") and open_ is not None:
                    raise InputError(path, start + k, f"{cell!r} opens an argument while "
                                     f"{open_[0]} (line {start + open_[1]}) is open")
                if cell.startswith("("):
                    open_ = (cell[1:].split("*")[0], k)
                if cell.endswith(")"):
                    if open_ is None:
                        raise InputError(path, start + k, f"')' closes no argument in {cell!r}")
                    if open_[0] != "V":
                        spans.append(Span(ROLE, len(spans), open_[1], k + 1, open_[0], pid))
                    open_ = None
            if open_ is not None:
                raise InputError(path, start + open_[1], f"argument {open_[0]} is never closed "
                                 "with ')'")
        segs.append(ImportedSegment(start, [Token(r[0]) for r in rows], spans))
    return segs


def _npred(rows: list[list[str]]) -> int:
    return max(len(r) for r in rows) - 2 if rows else 0


# -- IOB named entities ------------------------------------------------------------------------
def read_iob(path: Path) -> list[ImportedSegment]:
    segs = []
    for start, lines in _blocks(path):
        toks: list[Token] = []
        spans: list[Span] = []
        open_ = None
        for k, line in enumerate(lines):
            cols = line.split()
            word, tag = cols[0], cols[-1]
            if len(cols) < 2 or not (tag == "O" or re.match(r"^[BIES]-\S+$", tag)):
                raise InputError(path, start + k, f"expected WORD ... TAG (B-X, I-X or O), "
                                 f"got {line!r}")
            i = len(toks)
            toks.append(Token(word))
            kind = tag[2:] if tag != "O" else None
            if open_ and (tag[0] in "BSO" or kind != open_[0]):
                spans.append(Span(ENTITY, len(spans), open_[1], i, open_[0]))
                open_ = None
            if kind and open_ is None:
                open_ = (kind, i)
        if open_:
            spans.append(Span(ENTITY, len(spans), open_[1], len(toks), open_[0]))
        segs.append(ImportedSegment(start, toks, spans))
    return segs


READERS = {"conllu": read_conllu, "ptb": read_ptb, "conll05": read_conll05, "iob": read_iob}
LAYER = {"conllu": "tokens", "ptb": CONSTITUENT, "conll05": ROLE, "iob": ENTITY}


def _clip(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def import_annotations(store: Store, path: Path, testbed: str, translator: str, fmt: str,
                       tool: str | None = None, replace: bool = False) -> AnnotationImportReport:
    """Read, align and store one file of annotations for one translator's segments.  A
    segment the run already holds with other annotations of the file's layer is a Conflict
    unless ``replace``."""
    if fmt not in FORMATS:
        raise InputError(path, None, f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    check_file(path)
    if tool is not None:
        check_name("annotation run", tool, path)
    tid = store.testbed_id(testbed)
    ids = store.translators(tid)
    if translator not in ids:
        raise InputError(path, None, f"test bed {testbed!r} has no translator {translator!r}")
    texts = [r[0] for r in store.query("select text from translation where translator_id = ? "
                                       "order by seg_id", [ids[translator]])]
    lang = store.scalar("select tgt_lang from testbed where testbed_id = ?", [tid])
    if fmt.startswith("boxer-xml"):
        from ulcdb.annotation.boxer_import import import_boxer

        firsts = None if fmt == "boxer-xml" else [int(r[0]) - 1 for r in store.query(
            "select min(seg_id) from segment where testbed_id = ? group by doc_id order by 1",
            [tid])]
        return AnnotationImportReport(import_boxer(store, path, translator, texts,
                                         tool or "boxer-xml import", lang, firsts,
                                         replace),
                            len(texts) if firsts is None else len(firsts),
                            "drs" if firsts is None else "document drs")
    segs = READERS[fmt](path)
    if len(segs) != len(texts):
        raise InputError(path, segs[-1].line if segs else None,
                         f"{len(segs)} segments in the file, {translator} has {len(texts)}")
    for n, (seg, text) in enumerate(zip(segs, texts, strict=True), 1):
        if seg.tokens and seg.spelling() != _spelling(text):
            raise InputError(path, seg.line, f"the words do not spell {translator}'s segment "
                             f"{n} ({_clip(text)!r}): wrong translator or order?")
    name = tool or f"{fmt} import"
    rid = storage.find_run(store, name)
    hashes = [storage.text_hash(t) for t in texts]
    stored = storage.load(store, rid, hashes) if rid is not None else {}
    out: dict[str, Analysis] = {}
    for h, seg in zip(hashes, segs, strict=True):
        if fmt == "conllu":
            out[h] = full_analysis(seg.tokens, [], entity_layer=False)
            continue
        have = stored.get(h) or out.get(h)
        if have is not None and have.tokens:
            if len(have.tokens) != len(seg.tokens):
                raise InputError(path, seg.line, f"{len(seg.tokens)} tokens, the stored "
                                 f"tokenization of this segment has {len(have.tokens)}")
            layer = LAYER[fmt]
            keep = [s for s in have.spans if s.layer not in (layer, PREDICATE)
                    or (fmt != "conll05" and s.layer == PREDICATE)]
            out[h] = Analysis(have.tokens, tuple(keep + seg.spans), OK, None,
                              have.layers | {s.layer for s in seg.spans} | {layer})
        else:
            out[h] = Analysis(tuple(seg.tokens), tuple(seg.spans), OK,
                              layers=frozenset({LAYER[fmt]}))
    if not replace:
        _check_unchanged(path, name, fmt, segs, hashes, stored, out)
    rid = storage.save_import(store, rid, name, lang, out.items())
    return AnnotationImportReport(rid, len(segs), LAYER[fmt])


def _check_unchanged(path: Path, run: str, fmt: str, segs: list[ImportedSegment],
                     hashes: list[str], stored: dict[str, Analysis],
                     out: dict[str, Analysis]) -> None:
    """A Conflict at the first segment whose stored analysis in run ``run`` the import would
    change: any change for CoNLL-U (it replaces the whole analysis), a change of a layer
    already there for the other formats (a new layer adds to the tokens)."""
    for n, (h, seg) in enumerate(zip(hashes, segs, strict=True), 1):
        have, new = stored.get(h), out[h]
        if have is None:
            continue
        if fmt == "conllu":
            same = (have.tokens, have.spans) == (new.tokens, new.spans)
        else:  # a layer derived from the tokens (a CoNLL-U import's stand-in) gives way
            old = _layer_spans(have, LAYER[fmt])
            derived = full_analysis(list(have.tokens), [], entity_layer=False)
            same = not old or old in (_layer_spans(new, LAYER[fmt]),
                                      _layer_spans(derived, LAYER[fmt]))
        if same:
            continue
        raise Conflict(f"{path}:{seg.line}: segment {n} already has other annotations in the "
                       f"run {run!r}; use --replace to replace them, or --tool NAME for a run "
                       "of its own")


def _layer_spans(analysis: Analysis, layer: str) -> list[Span]:
    return [s for s in analysis.spans if s.layer == layer]

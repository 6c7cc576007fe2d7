"""A flat discourse representation structure (DRS), as Boxer's flat XML printer writes it.

Boxer (``--semantics drs --format xml --flat true``) prints one DRS as a list of labelled
conditions: a ``drs`` condition lists its discourse referents (``<dr name="x1">`` with the
word indices that introduce them) and the labels of its conditions; a complex condition
(``imp``, ``or``, ``not``, ``whq``, ``prop``...) lists the labels of its sub-DRSs, in order; a
basic condition (``pred``, ``rel``, ``named``, ``timex``, ``card``, ``eq``) carries its
attributes (``arg``/``arg1``/``arg2`` referents, ``type``, ``symbol``...) and the indices of
the words it comes from.  ``l0`` is the root.  Words carry their form and part of speech.

The same structure serves Boxer's output (read by ``ulcdb.metrics.dr.boxer``) and ulcdb's
own builder (``ulcdb.metrics.dr.builder``), so one scorer reads both.  It is stored as JSON
(``to_json``/``from_json``) beside the annotation of the text it represents.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

ROOT = "l0"


@dataclass
class Cond:
    """One labelled condition: its tag (element name), attributes, sub-DRS / condition
    labels in order, word indices and, for ``timex``, its date."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[str] = field(default_factory=list)
    indices: list[str] = field(default_factory=list)
    date: str = ""


@dataclass
class FlatDrs:
    """Words (index -> (form, PoS)), referents (name -> word indices) and conditions
    (label -> condition)."""

    words: dict[str, tuple[str, str]] = field(default_factory=dict)
    refs: dict[str, list[str]] = field(default_factory=dict)
    conds: dict[str, Cond] = field(default_factory=dict)

    def ok(self) -> bool:
        """Whether it has a root (Asiya: a DRS without ``l0`` is a failed analysis)."""
        return ROOT in self.conds

    def to_json(self) -> str:
        return json.dumps({
            "words": [[i, w, p] for i, (w, p) in self.words.items()],
            "refs": self.refs,
            "conds": [[lab, c.tag, c.attrs, c.children, c.indices, c.date]
                      for lab, c in self.conds.items()],
        }, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> FlatDrs:
        d = json.loads(text)
        return cls({i: (w, p) for i, w, p in d["words"]},
                   {k: list(v) for k, v in d["refs"].items()},
                   {lab: Cond(tag, dict(attrs), list(ch), list(ix), date)
                    for lab, tag, attrs, ch, ix, date in d["conds"]})

    def tree(self, label: str = ROOT, depth: int = 0) -> list[str]:
        """The DRS as an indented tree of node types (for reading and tests)."""
        c = self.conds.get(label)
        if c is None or depth > 50:
            return []
        out = ["  " * depth + node_type(c)]
        for child in c.children:
            out += self.tree(child, depth + 1)
        return out


def node_type(c: Cond) -> str:
    """Asiya's node type: the tag, then ``.type`` and ``.symbol`` where present."""
    return c.tag + "".join(f".{c.attrs[k]}" for k in ("type", "symbol") if k in c.attrs)

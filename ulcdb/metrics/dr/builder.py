"""ulcdb's own DRS builder (``drs:ulcdb-v1``): a stand-in for C&C + Boxer, which cannot be had
here, working from the stored annotation (tokens, lemmas, PTB tags, dependency parse, named
entities and the derived semantic roles) and producing Boxer's flat structure
(``ulcdb.metrics.dr.drs``), so the one scorer reads both.

Following Boxer's representation (ULC manual tables 27-31):
- referents: one per noun-phrase head, named entity, pronoun and wh-word (indexed, as in
  Boxer, by the determiner of a determined NP, else by the head), one per verb (its event),
  one per complement clause (a proposition);
- basic conditions: ``pred(X, lemma, n)`` for nouns and noun compounds, ``pred(X, lemma, a)``
  for adjectives and adverbs, ``pred(E, lemma, v)`` for verbs; ``named(X, name, per|org|loc|
  nam)`` for entities; ``timex(X)`` with its date (``YYYYMMDD``, X for unknown parts) for
  DATE/TIME entities; ``card(X, n, eq)`` for numbers; ``rel(E, X, agent|patient|theme)`` from
  the roles A0/A1/A2, ``rel(E, X, PREP)`` for prepositional roles and noun modifiers,
  ``rel(E, X, loc_rel|temp_rel|rel)`` for other locative, temporal and modifier roles,
  ``rel(X, Y, of)`` for possessives; ``eq(X, Y)`` for copulas and appositions; unresolved
  pronouns get ``pred(X, male|female|neuter|person|thing, a|n)`` (Boxer's fixed symbols);
- complex conditions, holding sub-DRSs in order: ``imp`` for universal quantifiers
  (every/each/all: restrictor, then nuclear scope) and conditionals (if-clause, then main
  clause); ``not`` for negation of a clause; ``or`` for disjoined clauses; ``whq`` for
  wh-questions (the wh-referent and its sort, then the rest); ``prop`` for the complement
  clause of say/think/believe... (``rel(E, P, theme)`` outside, the clause inside);
- named entities, pronouns and definite NPs are presupposed: accommodated in the root DRS,
  before its other conditions (Boxer's resolution); indefinites stay in their clause's DRS.

Pronouns (he/she/it/they and their forms, possessives, reflexives, demonstratives) resolve
to the closest preceding compatible referent: number, gender (from a small lexicon of first
names and nouns, or the pronoun that resolved to it), animacy (PERSON entities and person
nouns are animate).  A resolved pronoun adds its word to the antecedent's referent, no new
referent.  A segment DRS resolves within its segment; a document DRS (one DRS for all the
document's segments, not their concatenation) resolves across sentences, so "Rod Larsen
... He said" has one referent there and two in the segment DRSs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ulcdb.annotation.derive import children
from ulcdb.annotation.model import ENTITY, OK, PREDICATE, ROLE, Analysis, Token
from ulcdb.metrics.dr.drs import ROOT, Cond, FlatDrs

VERSION = "ulcdb-v1"
SUBJ = {"nsubj", "nsubjpass", "nsubj:pass", "csubj", "expl"}
ARGS = SUBJ | {"dobj", "obj", "attr", "iobj", "dative"}
NOMINAL = {"NOUN", "PROPN", "PRON", "NUM"}
QUANT = {"every", "each", "all"}
DEFINITE = {"the", "this", "that", "these", "those"}
NEG = {"not", "n't", "never", "no"}
WH = {"who": ("person", "n"), "whom": ("person", "n"), "what": ("thing", "n"),
      "which": ("thing", "n"), "where": ("location", "n"), "when": ("unit_of_time", "n"),
      "why": ("reason", "n"), "how": ("manner", "n")}
NE_TYPE = {"PERSON": "per", "ORG": "org", "NORP": "org", "GPE": "loc", "LOC": "loc",
           "FAC": "loc", "WORK_OF_ART": "ttl", "EVENT": "nam", "PRODUCT": "nam",
           "LAW": "nam", "LANGUAGE": "nam"}
TIME_NE = {"DATE", "TIME"}
NUMBER_NE = {"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"}
ROLE_REL = {"A0": "agent", "A1": "patient", "A2": "theme", "AM-LOC": "loc_rel",
            "AM-TMP": "temp_rel", "AM-DIR": "loc_rel"}
MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), 1)}
# Pronoun -> (gender m/f/n/None, number sg/pl, person 1/2/3, kind): kind pro, poss, refl, dem.
PRONOUNS: dict[str, tuple[str | None, str, int, str]] = {
    **{w: ("m", "sg", 3, k) for w, k in (("he", "pro"), ("him", "pro"), ("his", "poss"),
                                         ("himself", "refl"))},
    **{w: ("f", "sg", 3, k) for w, k in (("she", "pro"), ("her", "pro"), ("hers", "poss"),
                                         ("herself", "refl"))},
    **{w: ("n", "sg", 3, k) for w, k in (("it", "pro"), ("its", "poss"), ("itself", "refl"),
                                         ("this", "dem"), ("that", "dem"))},
    **{w: (None, "pl", 3, k) for w, k in (("they", "pro"), ("them", "pro"), ("their", "poss"),
                                          ("theirs", "poss"), ("themselves", "refl"),
                                          ("these", "dem"), ("those", "dem"))},
    **{w: (None, "sg", 1, "pro") for w in ("i", "me", "my", "mine", "myself")},
    **{w: (None, "pl", 1, "pro") for w in ("we", "us", "our", "ours", "ourselves")},
    **{w: (None, "sg", 2, "pro") for w in ("you", "your", "yours", "yourself")},
}
PRONOUN_SORT = {"m": ("male", "a"), "f": ("female", "a"), "n": ("neuter", "a")}
MALE = frozenset("""man men boy father son brother husband king prince mr sir gentleman uncle
    nephew grandfather john james robert michael william david richard joseph thomas charles
    peter paul mark george rod vladimir dmitry sergey alexei alexander ivan nikolai mikhail
    andrei igor boris putin trump biden joe donald barack""".split())
FEMALE = frozenset("""woman women girl mother daughter sister wife queen princess mrs ms miss
    lady aunt niece grandmother mary anna maria elena olga natalia tatiana irina svetlana
    elizabeth sarah jennifer linda susan margaret hillary angela""".split())
PERSON_NOUNS = frozenset("""person people man men woman women boy girl child children father
    mother son daughter brother sister husband wife friend president minister leader official
    spokesman spokeswoman director chairman king queen doctor teacher student worker player
    author writer journalist reporter citizen resident member expert politician lawyer judge
    officer soldier police policeman victim patient customer user driver manager boss
    colleague neighbour neighbor guest owner""".split())


@dataclass
class Box:
    """A DRS under construction: referents, presupposed conditions, other conditions."""

    refs: list[str] = field(default_factory=list)
    pre: list[Item] = field(default_factory=list)
    conds: list[Item] = field(default_factory=list)


@dataclass
class Item:
    """A condition under construction (sub-DRSs in ``boxes``)."""

    tag: str
    attrs: dict[str, str]
    indices: list[str] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    date: str = ""


@dataclass
class Mention:
    ref: str
    pos: int  # order of appearance
    gender: str | None
    number: str
    person: int
    animate: bool | None
    clause: tuple[int, int] | None


class Builder:
    """Builds one DRS from the analyses of one or more segments (a document)."""

    def __init__(self) -> None:
        self.root = Box()
        self.words: dict[str, tuple[str, str]] = {}
        self.ref_words: dict[str, list[str]] = {}
        self.mentions: list[Mention] = []
        self.order = 0

    # -- referents and conditions -----------------------------------------------------------
    def new_ref(self, box: Box, index: str) -> str:
        name = f"x{len(self.ref_words) + 1}"
        box.refs.append(name)
        self.ref_words[name] = [index]
        return name

    def add(self, box: Box, tag: str, index: list[str], pre: bool = False, **attrs: str) -> Item:
        item = Item(tag, attrs, index)
        (box.pre if pre else box.conds).append(item)
        return item

    def complex(self, box: Box, tag: str, n: int, **attrs: str) -> list[Box]:
        item = self.add(box, tag, [], False, **attrs)
        item.boxes = [Box() for _ in range(n)]
        return item.boxes

    # -- one segment --------------------------------------------------------------------------
    def segment(self, k: int, a: Analysis) -> None:
        SegmentConditions(self, k, a).build()

    def flat(self) -> FlatDrs:
        drs = FlatDrs(words=dict(self.words))
        counter = [0]

        def label() -> str:
            lab = f"l{counter[0]}"
            counter[0] += 1
            return lab

        def emit_box(box: Box, lab: str) -> None:
            cond = Cond("drs")
            drs.conds[lab] = cond
            for r in box.refs:
                drs.refs[r] = list(self.ref_words[r])
            for item in [*box.pre, *box.conds]:
                cond.children.append(emit_item(item))

        def emit_item(item: Item) -> str:
            lab = label()
            cond = Cond(item.tag, dict(item.attrs), [], list(item.indices), item.date)
            drs.conds[lab] = cond
            for b in item.boxes:
                sub = label()
                cond.children.append(sub)
                emit_box(b, sub)
            return lab

        emit_box(self.root, label())
        return drs


class SegmentConditions:
    """The DRS conditions of one segment, added to a builder."""

    def __init__(self, b: Builder, k: int, a: Analysis) -> None:
        self.b, self.k, self.a = b, k, a
        self.toks: Sequence[Token] = a.tokens
        self.kids = children(a.tokens)
        self.ent: dict[int, tuple[int, int, str]] = {}
        for s in a.layer(ENTITY):
            for t in range(s.start, min(s.end, len(self.toks))):
                self.ent[t] = (s.start, s.end, s.label)
        self.ref: dict[int, str] = {}
        self.box_of: dict[int, Box] = {}  # clause head -> its content box
        self.outer: dict[int, Box] = {}  # clause head -> the box it is placed in
        self.restrictor: dict[int, Box] = {}  # quantified NP head -> restrictor box
        self.props: dict[int, list[tuple[str, int]]] = {}  # clause -> (proposition, mark)
        for t in range(len(self.toks)):
            b.words[self.index(t)] = (self.toks[t].form, self.toks[t].tag or "")

    def index(self, t: int) -> str:
        return f"i{self.k}_{t + 1}"

    def rel(self, t: int) -> str:
        return (self.toks[t].deprel or "").lower()

    def low(self, t: int) -> str:
        return self.toks[t].form.lower()

    def lemma(self, t: int) -> str:
        return (self.toks[t].lemma or self.toks[t].form).lower()

    def build(self) -> None:
        heads = sorted((t for t in range(len(self.toks)) if self.is_clause(t)),
                       key=self.depth)
        for h in heads:
            self.clause(h)
        for t in range(len(self.toks)):
            if self.is_np_head(t):
                self.noun(t)
        for t in range(len(self.toks)):
            if t in self.ref and not self.is_pronoun(t):
                self.noun_relations(t)
        for h in sorted(heads):
            self.event(h)

    # -- structure ---------------------------------------------------------------------------
    def depth(self, t: int) -> int:
        d, seen = 0, set()
        while (h := self.toks[t].head) is not None and 0 <= h < len(self.toks) and h != t \
                and t not in seen:
            seen.add(t)
            t, d = h, d + 1
        return d

    def head(self, t: int) -> int | None:
        h = self.toks[t].head
        return h if h is not None and 0 <= h < len(self.toks) and h != t else None

    def is_copula(self, t: int) -> bool:
        return self.lemma(t) == "be" and any(self.rel(c) in ("attr", "acomp")
                                             for c in self.kids[t])

    def is_clause(self, t: int) -> bool:
        return self.toks[t].pos == "VERB" or (self.toks[t].pos == "AUX" and self.is_copula(t))

    def clause_of(self, t: int) -> int | None:
        h = self.head(t)
        seen: set[int] = set()
        while h is not None and h not in seen:
            if self.is_clause(h):
                return h
            seen.add(h)
            h = self.head(h)
        return None

    def container(self, t: int) -> Box:
        c = self.clause_of(t)
        return self.box_of.get(c, self.b.root) if c is not None else self.b.root

    def is_wh(self, t: int) -> bool:
        return (self.toks[t].tag or "") in ("WP", "WRB", "WDT") and self.low(t) in WH

    def is_question(self, t: int) -> bool:
        sent = self.toks[t].sent
        last = max(i for i, x in enumerate(self.toks) if x.sent == sent)
        return self.toks[last].form == "?"

    def clause(self, h: int) -> None:
        """Place clause ``h`` and open its complex conditions, outermost first."""
        box = self.outer.get(h) or self.container(h)
        kids = self.kids[h]
        for c in kids:
            if self.rel(c) == "advcl" and any(self.lemma(m) == "if" for m in self.kids[c]
                                              if self.rel(m) == "mark"):
                antecedent, box = self.b.complex(box, "imp", 2)
                self.outer[c] = antecedent
        if self.head(h) is None and self.is_question(h):
            wh = [c for c in kids if self.is_wh(c)] + [
                g for c in kids for g in self.kids[c] if self.is_wh(g)]
            if wh:
                first, box = self.b.complex(box, "whq", 2)
                w = wh[0]
                self.ref[w] = self.b.new_ref(first, self.index(w))
                sort, pos = WH[self.low(w)]
                self.b.add(first, "pred", [self.index(w)], arg=self.ref[w], type=pos,
                           symbol=sort)
        for c in kids:
            if self.rel(c) in ARGS and any(self.lemma(d) in QUANT for d in self.kids[c]
                                           if self.rel(d) in ("det", "predet")):
                self.restrictor[c], box = self.b.complex(box, "imp", 2)
        if any(self.rel(c) == "neg" or (self.rel(c) == "advmod" and self.low(c) in NEG)
               for c in kids):
            (box,) = self.b.complex(box, "not", 1)
        self.propositions(h, box)
        conj = [c for c in kids if self.rel(c) == "conj" and self.is_clause(c)]
        if conj and any(self.lemma(c) == "or" for c in kids if self.rel(c) == "cc"):
            box, self.outer[conj[0]] = self.b.complex(box, "or", 2)
        self.box_of[h] = box

    # -- noun phrases --------------------------------------------------------------------------
    def is_pronoun(self, t: int) -> bool:
        return self.toks[t].pos == "PRON" and self.low(t) in PRONOUNS

    def is_np_head(self, t: int) -> bool:
        tok = self.toks[t]
        if t in self.ref or self.rel(t) == "expl" or self.is_wh(t):
            return False
        if t in self.ent:
            s, e, label = self.ent[t]
            h = self.head(t)
            if label in NUMBER_NE and self.rel(t) in ("nummod", "quantmod", "compound"):
                return False  # a number modifying a noun: card on the noun's referent
            return h is None or not s <= h < e  # the entity's head
        if tok.pos == "NUM":
            return self.rel(t) not in ("nummod", "quantmod", "compound")
        if tok.pos == "PRON":
            return self.low(t) in PRONOUNS or self.rel(t) in ARGS | {"pobj", "obj", "obl"}
        if tok.pos in ("NOUN", "PROPN"):
            h = self.head(t)
            return not (self.rel(t) == "compound" and h is not None
                        and self.toks[h].pos in NOMINAL)
        return False

    def det(self, t: int) -> int | None:
        return next((d for d in self.kids[t] if self.rel(d) in ("det", "predet")), None)

    def noun(self, t: int) -> None:
        if self.is_pronoun(t) and self.resolve(t):
            return
        d = self.det(t)
        presupposed = (t in self.ent or self.is_pronoun(t) or self.toks[t].pos == "PROPN"
                       or (d is not None and self.lemma(d) in DEFINITE)
                       or any(self.rel(c) in ("poss", "nmod:poss") for c in self.kids[t]))
        quantified = self.restrictor.get(t)
        box = quantified or (self.b.root if presupposed else self.container(t))
        pre = presupposed and quantified is None
        index = self.index(d) if d is not None else self.index(t)
        x = self.ref[t] = self.b.new_ref(box, index)
        self.describe(t, x, box, pre)
        self.b.mentions.append(self.mention(t, x))

    def describe(self, t: int, x: str, box: Box, pre: bool) -> None:
        add, idx = self.b.add, self.index
        if t in self.ent:
            s, e, label = self.ent[t]
            span = [idx(i) for i in range(s, e)]
            if label in TIME_NE:
                add(box, "timex", span, pre, arg=x).date = self.date(s, e)
            elif label in NUMBER_NE:
                add(box, "card", span, pre, arg=x, type="eq", symbol=self.number(s, e))
            else:
                name = "_".join(self.low(i) for i in range(s, e))
                add(box, "named", span, pre, arg=x, type=NE_TYPE.get(label, "nam"),
                    symbol=name)
        elif self.is_pronoun(t):
            gender, number, person, _ = PRONOUNS[self.low(t)]
            sort = PRONOUN_SORT.get(gender or "", ("person", "n") if person < 3 else
                                    ("group", "n"))
            add(box, "pred", [idx(t)], pre, arg=x, type=sort[1], symbol=sort[0])
        elif self.toks[t].pos == "NUM":
            add(box, "card", [idx(t)], pre, arg=x, type="eq", symbol=self.low(t))
        elif self.toks[t].pos in NOMINAL:
            add(box, "pred", [idx(t)], pre, arg=x, type="n", symbol=self.lemma(t))
        for c in self.kids[t]:
            r, inside = self.rel(c), t in self.ent and c in self.ent and \
                self.ent[c][:2] == self.ent[t][:2]
            if inside:
                continue
            if r == "amod" or (r == "compound" and self.toks[c].pos == "ADJ"):
                add(box, "pred", [idx(c)], pre, arg=x, type="a", symbol=self.lemma(c))
            elif r == "compound":
                add(box, "pred", [idx(c)], pre, arg=x, type="n", symbol=self.lemma(c))
            elif r == "nummod":
                add(box, "card", [idx(c)], pre, arg=x, type="eq", symbol=self.low(c))

    def date(self, s: int, e: int) -> str:
        """A DATE/TIME entity as ``YYYYMMDD`` (X for unknown parts), else its words."""
        year = month = day = None
        for i in range(s, e):
            w = self.low(i).rstrip(".,")
            if w.isdigit() and len(w) == 4:
                year = w
            elif w.isdigit() and 1 <= int(w) <= 31:
                day = f"{int(w):02d}"
            elif w.rstrip("stndrh").isdigit() and 1 <= int(w.rstrip("stndrh") or 0) <= 31:
                day = f"{int(w.rstrip('stndrh')):02d}"
            elif w in MONTHS:
                month = f"{MONTHS[w]:02d}"
        if year is None and month is None and day is None:
            return "_".join(self.low(i) for i in range(s, e))
        return f"{year or 'XXXX'}{month or 'XX'}{day or 'XX'}"

    def number(self, s: int, e: int) -> str:
        """The number a cardinal entity states (its digits or words, lower-cased)."""
        nums = [self.low(i) for i in range(s, e) if self.toks[i].pos == "NUM"]
        return "_".join(nums or [self.low(i) for i in range(s, e)])

    def noun_relations(self, t: int) -> None:
        """Possessives, noun-attached prepositions and appositions of noun ``t``."""
        x = self.ref[t]
        box = self.box_holding(x)
        for c in self.kids[t]:
            r = self.rel(c)
            if r in ("poss", "nmod:poss") and c in self.ref:
                self.b.add(box, "rel", [self.index(c)], arg1=x, arg2=self.ref[c], symbol="of")
            elif r == "prep":
                obj = self.pobj(c)
                if obj is not None and obj in self.ref:
                    self.b.add(box, "rel", [self.index(c)], arg1=x, arg2=self.ref[obj],
                               symbol=self.lemma(c))
            elif r == "appos" and c in self.ref:
                self.b.add(box, "eq", [self.index(c)], arg1=x, arg2=self.ref[c])

    def box_holding(self, ref: str) -> Box:
        stack = [self.b.root]
        while stack:
            box = stack.pop()
            if ref in box.refs:
                return box
            stack += [b for item in [*box.pre, *box.conds] for b in item.boxes]
        return self.b.root

    def pobj(self, prep: int) -> int | None:
        return next((o for o in self.kids[prep] if self.rel(o) in ("pobj", "pcomp")), None)

    # -- anaphora --------------------------------------------------------------------------------
    def mention(self, t: int, x: str) -> Mention:
        self.b.order += 1
        tok = self.toks[t]
        label = self.ent[t][2] if t in self.ent else None
        words = {self.lemma(i) for i in range(*self.ent[t][:2])} if t in self.ent \
            else {self.lemma(t)}
        gender = "m" if words & MALE else "f" if words & FEMALE else None
        animate = True if label == "PERSON" or words & PERSON_NOUNS or gender else \
            (False if label or tok.pos in ("NOUN", "PROPN", "NUM") else None)
        if label is None and gender is None and animate is False and tok.pos != "PROPN":
            gender = "n"
        number = "pl" if (tok.tag or "") in ("NNS", "NNPS") else "sg"
        if self.is_pronoun(t):
            gender, number, person, _ = PRONOUNS[self.low(t)]
            animate = None if gender is None else gender != "n"
        else:
            person = 3
        return Mention(x, self.b.order, gender, number, person, animate,
                       self.clause_key(t))

    def clause_key(self, t: int) -> tuple[int, int] | None:
        c = self.clause_of(t)
        return (self.k, c) if c is not None else None

    def resolve(self, t: int) -> bool:
        """Link pronoun ``t`` to the closest compatible earlier referent."""
        gender, number, person, kind = PRONOUNS[self.low(t)]
        clause = self.clause_key(t)
        for m in reversed(self.b.mentions):
            if m.person != person or m.number != number:
                continue
            if person == 3 and not self.compatible(gender, m):
                continue
            same = clause is not None and m.clause == clause
            if same and kind not in ("refl", "poss"):
                continue  # a co-argument is no antecedent of a plain pronoun
            if kind == "refl" and not same:
                continue
            self.ref[t] = m.ref
            self.b.ref_words[m.ref].append(self.index(t))
            return True
        return False

    @staticmethod
    def compatible(gender: str | None, m: Mention) -> bool:
        if gender is None:
            return True
        if gender == "n":
            return m.animate is not True
        return m.gender == gender or (m.gender is None and m.animate is not False)

    # -- events ------------------------------------------------------------------------------------
    def event(self, h: int) -> None:
        box, idx = self.box_of[h], self.index(h)
        if self.is_copula(h):
            self.copula(h, box)
            return
        e = self.ref[h] = self.b.new_ref(box, idx)
        self.b.add(box, "pred", [idx], arg=e, type="v", symbol=self.lemma(h))
        for p, mark in self.props.get(h, ()):
            self.b.add(box, "rel", [self.index(mark)], arg1=e, arg2=p, symbol="theme")
        for label, arg in self.roles(h):
            self.role(box, e, h, label, arg)
        for c in self.kids[h]:
            r = self.rel(c)
            if r == "advmod" and self.low(c) not in NEG and not self.is_wh(c) \
                    and not any(lab.startswith("AM") for lab, a in self.roles(h) if a == c):
                self.b.add(box, "pred", [self.index(c)], arg=e, type="a",
                           symbol=self.lemma(c))

    def roles(self, h: int) -> list[tuple[str, int]]:
        """(role, head token of the role's span) of the frame of verb ``h``."""
        frame = next((s.span_id for s in self.a.layer(PREDICATE) if s.start == h), None)
        out = []
        for s in self.a.layer(ROLE):
            if s.parent != frame or frame is None:
                continue
            heads = [t for t in range(s.start, min(s.end, len(self.toks)))
                     if not s.start <= _or(self.head(t), -1) < s.end]
            if heads:
                out.append((s.label, heads[0]))
        return out

    def role(self, box: Box, e: str, h: int, label: str, arg: int) -> None:
        if label in ("AM-NEG", "AM-MOD"):
            return
        if self.toks[arg].pos == "ADP":
            obj = self.pobj(arg)
            if obj is not None and obj in self.ref:
                self.b.add(box, "rel", [self.index(arg)], arg1=e, arg2=self.ref[obj],
                           symbol=self.lemma(arg))
            return
        if arg in self.ref and not (self.is_clause(arg) and self.rel(arg) == "ccomp"):
            symbol = ROLE_REL.get(label, "rel")
            self.b.add(box, "rel", [self.index(h)], arg1=e, arg2=self.ref[arg], symbol=symbol)
        elif self.toks[arg].pos in ("ADV", "ADJ") and not self.is_wh(arg):
            self.b.add(box, "pred", [self.index(arg)], arg=e, type="a",
                       symbol=self.lemma(arg))

    def propositions(self, h: int, box: Box) -> None:
        """A ``prop`` condition in ``box`` for each complement clause of ``h``; the clause
        goes inside it."""
        for c in self.kids[h]:
            if self.rel(c) == "ccomp" and self.is_clause(c):
                mark = next((m for m in self.kids[c] if self.rel(m) == "mark"), c)
                p = self.b.new_ref(box, self.index(mark))
                self.b.add(box, "pred", [self.index(mark)], arg=p, type="n",
                           symbol="proposition")
                (self.outer[c],) = self.b.complex(box, "prop", 1, arg=p)
                self.props.setdefault(h, []).append((p, mark))

    def copula(self, h: int, box: Box) -> None:
        subj = next((c for c in self.kids[h] if self.rel(c) in SUBJ and c in self.ref), None)
        if subj is None:
            return
        for c in self.kids[h]:
            if self.rel(c) == "attr" and c in self.ref:
                self.b.add(box, "eq", [self.index(h)], arg1=self.ref[subj], arg2=self.ref[c])
            elif self.rel(c) == "acomp":
                self.b.add(box, "pred", [self.index(c)], arg=self.ref[subj], type="a",
                           symbol=self.lemma(c))


def _or(x: int | None, default: int) -> int:
    return default if x is None else x


def build(analyses: Sequence[Analysis]) -> FlatDrs | None:
    """One DRS for these segments (one segment, or a document's); None when no segment has a
    usable analysis or nothing in them makes a condition."""
    b = Builder()
    used = [(k, a) for k, a in enumerate(analyses, 1) if a.status == OK and a.tokens]
    for k, a in used:
        b.segment(k, a)
    drs = b.flat()
    if not used or len(drs.conds) <= 1:
        return None
    return drs if ROOT in drs.conds else None

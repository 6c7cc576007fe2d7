"""Dependency-based stand-ins for the layers no trained tool here produces.

Every function works on a tuple of :class:`Token` (heads are token indices within the text,
-1 for a root) and accepts both spaCy's ClearNLP labels (``dobj``, ``nsubjpass``, ``prep``,
``neg``, ``npadvmod``) and Universal Dependencies labels (``obj``, ``nsubj:pass``, ``obl``,
``obl:tmod``), so spaCy and Stanza analyses get the same derived layers.

Stand-ins (named in the descriptions of the metrics that read them):

* **Base chunks** (``chunk`` layer, CoNLL-2000 style, non-overlapping): NP = a nominal head
  (NOUN, PROPN, PRON, NUM) and its contiguous left NP-internal dependents (det, amod,
  compound, nummod, poss, ...); VP = a verb and its contiguous left auxiliaries, negation and
  adverbs; ADJP = an adjective (and its left adverbs) outside an NP; ADVP = a remaining
  adverb; PP = a preposition (prep, case, agent, dative); SBAR = a subordinator (mark); PRT =
  a particle; INTJ = an interjection.  Everything else (punctuation, coordinators) is O.
* **Constituents** (``constituent`` layer) are projected from the dependency tree: every
  content word (noun, verb, adjective, adverb, number) and every word with dependents projects
  a phrase over its whole subtree, labelled by its coarse tag (NP, VP, ADJP, ADVP, PP, QP,
  SBAR, ...); a verb with a subject projects S over its subtree with an inner VP from the first
  word after the subject; every word also gets a pre-terminal node labelled with its PTB tag,
  attached to the phrase of its head (or to its own phrase).  Non-projective arcs give
  overlapping phrases, which the metrics tolerate.
* **Semantic roles** (``predicate`` / ``role`` layers): one frame per verb (coarse tag VERB),
  PropBank-style roles from the verb's dependents, each role spanning the dependent's subtree:
  nsubj, csubj, agent (by-phrase), obl:agent -> A0; nsubjpass, nsubj:pass, dobj, obj, attr ->
  A1; ccomp, xcomp, acomp, oprd -> A1, or A2 when an A1 exists; dative, iobj and a to-phrase
  -> A2; neg, and not/n't/never -> AM-NEG; a modal auxiliary (MD) -> AM-MOD; npadvmod,
  obl:tmod and temporal adverbs (today, now, ...) -> AM-TMP; place adverbs -> AM-LOC; -ly
  adverbs and how -> AM-MNR; other adverbs -> AM-ADV; prepositional phrases (prep, obl) ->
  AM-TMP when the preposition is temporal or the object is a DATE/TIME entity or a time noun,
  AM-LOC when the object is a place (GPE, LOC, FAC entity, proper noun after in/at/on/...,
  place nouns), AM-CAU for because of / due to, AM-MNR for with/by/like + manner, else
  AM-ADV; adverbial clauses -> AM-TMP (when, after, ...), AM-CAU (because, since), AM-PNC
  (to-infinitive, so that), else AM-ADV.  A verb without a subject (xcomp or conjunct) takes
  its governing verb's subject as A0 (A1 if passive).
"""

from __future__ import annotations

from collections.abc import Sequence

from ulcdb.annotation.model import (
    CHUNK,
    CONSTITUENT,
    ENTITY,
    PREDICATE,
    ROLE,
    Analysis,
    Span,
    Token,
)

DERIVED_LAYERS = frozenset({CHUNK, CONSTITUENT, PREDICATE, ROLE})

NOMINAL = {"NOUN", "PROPN", "PRON", "NUM"}
NP_INTERNAL = {"det", "amod", "compound", "nummod", "poss", "nmod:poss", "predet", "nn",
               "quantmod", "case", "det:predet", "compound:prt", "flat", "appos:no", "nmod:npmod",
               "npadvmod:np", "advmod:np"}
VP_INTERNAL = {"aux", "auxpass", "aux:pass", "neg", "advmod", "prt"}
PREP_RELS = {"prep", "case", "agent", "dative"}
SUBJECTS = {"nsubj", "nsubjpass", "nsubj:pass", "csubj", "csubjpass", "csubj:pass", "expl"}

PHRASE = {"NOUN": "NP", "PROPN": "NP", "PRON": "NP", "NUM": "QP", "VERB": "VP", "AUX": "VP",
          "ADJ": "ADJP", "ADV": "ADVP", "ADP": "PP", "SCONJ": "SBAR", "INTJ": "INTJ",
          "DET": "NP", "X": "FRAG", "SYM": "NP", "PART": "PRT"}
CONTENT = {"NOUN", "PROPN", "PRON", "NUM", "VERB", "ADJ", "ADV"}

TEMPORAL_ADV = {"now", "today", "yesterday", "tomorrow", "then", "soon", "already", "still",
                "recently", "later", "ago", "always", "often", "once", "ever", "sometimes",
                "currently", "previously", "finally", "early", "late", "tonight", "meanwhile",
                "again", "yet", "immediately", "eventually", "usually", "lately", "afterwards"}
PLACE_ADV = {"here", "there", "where", "everywhere", "abroad", "home", "nearby", "away",
             "somewhere", "anywhere", "nowhere", "outside", "inside", "overseas", "downstairs",
             "upstairs", "locally", "worldwide", "elsewhere"}
NEGATION = {"not", "n't", "never", "no"}
TEMPORAL_PREP = {"during", "since", "until", "till", "before", "after", "ago", "throughout",
                 "by_time"}
PLACE_PREP = {"in", "at", "on", "near", "into", "onto", "across", "inside", "outside",
              "within", "beneath", "above", "below", "under", "over", "around", "through",
              "from", "along", "behind", "beside", "between", "towards", "toward", "among"}
TIME_NOUNS = {"day", "week", "month", "year", "hour", "minute", "second", "time", "night",
              "morning", "evening", "afternoon", "moment", "decade", "century", "weekend",
              "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
              "january", "february", "march", "april", "may", "june", "july", "august",
              "september", "october", "november", "december", "period", "season", "era",
              "today", "yesterday", "tomorrow", "summer", "winter", "spring", "autumn"}
PLACE_NOUNS = {"country", "city", "town", "village", "region", "area", "place", "street",
               "house", "home", "room", "building", "office", "world", "state", "capital",
               "border", "territory", "land", "field", "market", "school", "hospital",
               "church", "station", "airport", "park", "centre", "center", "district"}
PLACE_ENTS = {"GPE", "LOC", "FAC"}
TIME_ENTS = {"DATE", "TIME"}


def norm(rel: str | None) -> str:
    """Lower-case relation; UD subtypes that matter keep their subtype."""
    return (rel or "").lower()


def _base(rel: str) -> str:
    return rel.split(":")[0]


def children(tokens: Sequence[Token]) -> list[list[int]]:
    kids: list[list[int]] = [[] for _ in tokens]
    for i, t in enumerate(tokens):
        h = t.head
        if h is not None and 0 <= h < len(tokens) and h != i:
            kids[h].append(i)
    return kids


def subtree_bounds(tokens: Sequence[Token], kids: list[list[int]] | None = None
                   ) -> list[tuple[int, int]]:
    """[start, end) of every token's subtree (min and max descendant; iterative)."""
    kids = kids if kids is not None else children(tokens)
    n = len(tokens)
    lo, hi = list(range(n)), [i + 1 for i in range(n)]
    order: list[int] = []
    roots = [i for i, t in enumerate(tokens) if t.head is None or not 0 <= t.head < n
             or t.head == i]
    seen = [False] * n
    stack = list(roots)
    while stack:
        i = stack.pop()
        if seen[i]:
            continue
        seen[i] = True
        order.append(i)
        stack.extend(kids[i])
    for i in reversed(order):
        for c in kids[i]:
            lo[i] = min(lo[i], lo[c])
            hi[i] = max(hi[i], hi[c])
    return list(zip(lo, hi, strict=True))


# -- base chunks -----------------------------------------------------------------------------
def chunks(tokens: Sequence[Token]) -> list[tuple[int, int, str]]:
    """Non-overlapping base phrases (start, end, type), in text order."""
    kids = children(tokens)
    owner = [-1] * len(tokens)
    found: list[tuple[int, int, str]] = []

    def claim(head: int, inner: set[str], label: str) -> None:
        if owner[head] != -1:
            return
        start = head
        for c in sorted(kids[head], reverse=True):  # nearest left dependents first
            if c > head or c != start - 1 or owner[c] != -1:
                continue
            if norm(tokens[c].deprel) in inner or _base(norm(tokens[c].deprel)) in inner:
                left = _left_edge(tokens, kids, c, owner)
                start = left
        while start < head and any(owner[k] != -1 for k in range(start, head)):
            start += 1
        for k in range(start, head + 1):
            owner[k] = len(found)
        found.append((start, head + 1, label))

    sent_tokens = range(len(tokens))
    for i in sent_tokens:  # nominal heads, outermost first (heads of compounds come later)
        if tokens[i].pos in NOMINAL and not _np_internal_of_nominal(tokens, i):
            claim(i, NP_INTERNAL, "NP")
    for i in sent_tokens:
        if tokens[i].pos in ("VERB", "AUX") and norm(tokens[i].deprel) not in VP_INTERNAL:
            claim(i, VP_INTERNAL, "VP")
    for i in sent_tokens:
        if owner[i] != -1:
            continue
        t, rel = tokens[i], norm(tokens[i].deprel)
        if t.pos == "ADJ":
            claim(i, {"advmod", "npadvmod", "obl:npmod"}, "ADJP")
        elif rel in ("prt", "compound:prt"):
            claim(i, set(), "PRT")
        elif rel == "mark" or t.pos == "SCONJ":
            claim(i, set(), "SBAR")
        elif t.pos == "ADP" or rel in PREP_RELS:
            claim(i, set(), "PP")
        elif t.pos == "ADV":
            claim(i, set(), "ADVP")
        elif t.pos == "INTJ":
            claim(i, set(), "INTJ")
        elif t.pos in ("VERB", "AUX"):
            claim(i, set(), "VP")
    return sorted(found)


def _np_internal_of_nominal(tokens: Sequence[Token], i: int) -> bool:
    """A nominal that is itself inside a left NP (compound, possessive, number) of a nominal."""
    h = tokens[i].head
    if h is None or not 0 <= h < len(tokens) or h == i or h < i:
        return False
    rel = norm(tokens[i].deprel)
    return tokens[h].pos in NOMINAL and (rel in NP_INTERNAL or _base(rel) in NP_INTERNAL)


def _left_edge(tokens: Sequence[Token], kids: list[list[int]], c: int, owner: list[int]) -> int:
    """Leftmost contiguous unclaimed token of c's left subtree."""
    start = c
    for k in sorted(kids[c], reverse=True):
        if k < c and k == start - 1 and owner[k] == -1:
            start = _left_edge(tokens, kids, k, owner)
    return start


def chunk_spans(tokens: Sequence[Token], first_id: int = 0) -> list[Span]:
    return [Span(CHUNK, first_id + n, s, e, lab)
            for n, (s, e, lab) in enumerate(chunks(tokens))]


def iob_labels(analysis: Analysis) -> list[str]:
    """B-NP / I-NP / O label of every token, from the analysis's chunk spans."""
    labels = ["O"] * len(analysis.tokens)
    for s in analysis.layer(CHUNK):
        for k in range(s.start, min(s.end, len(labels))):
            labels[k] = ("B-" if k == s.start else "I-") + s.label
    return labels


# -- constituents -----------------------------------------------------------------------------
def constituent_spans(tokens: Sequence[Token], first_id: int = 0) -> list[Span]:
    """Phrase-structure tree projected from the dependencies (see module docstring)."""
    kids = children(tokens)
    bounds = subtree_bounds(tokens, kids)
    spans: list[Span] = []
    phrase: dict[int, int] = {}  # token -> span_id of the phrase it heads (innermost)
    inner: dict[int, int] = {}   # token -> span_id of the phrase its pre-terminal joins
    parent_of: dict[int, int | None] = {}

    def new(start: int, end: int, label: str) -> int:
        sid = first_id + len(spans)
        spans.append(Span(CONSTITUENT, sid, start, end, label))
        return sid

    projects = [bool(kids[i]) or tokens[i].pos in CONTENT for i in range(len(tokens))]
    for i, t in enumerate(tokens):
        if not projects[i]:
            continue
        start, end = bounds[i]
        subj = [c for c in kids[i] if norm(tokens[c].deprel) in SUBJECTS]
        label = PHRASE.get(t.pos or "", "FRAG")
        if t.pos in ("VERB", "AUX") and subj:
            outer = new(start, end, "S")
            after = max(bounds[c][1] for c in subj)
            if after <= i and after > start:
                vp = new(after, end, "VP")
                parent_of[vp] = outer
                phrase[i], inner[i] = outer, vp
            else:
                phrase[i] = inner[i] = outer
        else:
            phrase[i] = inner[i] = new(start, end, label)
    for i, t in enumerate(tokens):
        if i in phrase:
            h = t.head
            up: int | None = None
            if h is not None and 0 <= h < len(tokens) and h != i:
                up = _phrase_for_child(h, i, bounds, inner, phrase, spans, first_id)
            if parent_of.get(phrase[i]) is None:
                parent_of[phrase[i]] = up
            own: int | None = inner[i]
        else:
            h = t.head
            own = (_phrase_for_child(h, i, bounds, inner, phrase, spans, first_id)
                   if h is not None and 0 <= h < len(tokens) and h != i else None)
        pre = new(i, i + 1, t.tag or t.pos or "X")
        parent_of[pre] = own
    return [Span(s.layer, s.span_id, s.start, s.end, s.label, parent_of.get(s.span_id))
            for s in spans]


def _phrase_for_child(h: int, child: int, bounds: list[tuple[int, int]], inner: dict[int, int],
                      phrase: dict[int, int], spans: list[Span], first_id: int) -> int | None:
    """The head's phrase a child attaches to: its inner VP when the child lies inside it."""
    if h not in phrase:
        return None
    vp = spans[inner[h] - first_id]
    if vp.start <= bounds[child][0] and bounds[child][1] <= vp.end:
        return inner[h]
    return phrase[h]


# -- semantic roles ---------------------------------------------------------------------------
def role_spans(tokens: Sequence[Token], entities: Sequence[Span] = (), first_id: int = 0
               ) -> list[Span]:
    """PREDICATE spans (one per verb, label = lemma) and their ROLE spans (parent = frame)."""
    kids = children(tokens)
    bounds = subtree_bounds(tokens, kids)
    ent_type: list[str | None] = [None] * len(tokens)
    for e in entities:
        for k in range(e.start, min(e.end, len(tokens))):
            ent_type[k] = e.label
    out: list[Span] = []
    frames: dict[int, list[tuple[str, int]]] = {}  # verb -> [(role, dependent)]
    for v, t in enumerate(tokens):
        if t.pos != "VERB":
            continue
        roles: list[tuple[str, int]] = []
        for c in kids[v]:
            role = _role(tokens, kids, c, ent_type)
            if role:
                roles.append((role, c))
        if "A1" in [r for r, _ in roles]:
            roles = [("A2" if r == "A1" and norm(tokens[c].deprel) in _CLAUSAL else r, c)
                     if not _is_first_a1(roles, c) else (r, c) for r, c in roles]
        frames[v] = roles
    for v in frames:  # subjects shared with the governing verb (xcomp, conj)
        if any(r in ("A0", "A1") and norm(tokens[c].deprel) in SUBJECTS for r, c in frames[v]):
            continue
        h, rel = tokens[v].head, norm(tokens[v].deprel)
        if h is not None and h in frames and rel in ("xcomp", "conj"):
            subj = [(r, c) for r, c in frames[h] if norm(tokens[c].deprel) in SUBJECTS]
            passive = any(norm(tokens[c].deprel) in ("auxpass", "aux:pass") for c in kids[v])
            frames[v] = [(("A1" if passive else "A0") if rel == "xcomp" else r, c)
                         for r, c in subj[:1]] + frames[v]
    for v, roles in frames.items():
        pid = first_id + len(out)
        out.append(Span(PREDICATE, pid, v, v + 1, tokens[v].lemma or tokens[v].form))
        for role, c in sorted(roles, key=lambda rc: bounds[rc[1]]):
            start, end = (c, c + 1) if role in ("AM-NEG", "AM-MOD") else bounds[c]
            out.append(Span(ROLE, first_id + len(out), start, end, role, pid))
    return out


_CLAUSAL = {"ccomp", "xcomp", "acomp", "oprd"}


def _is_first_a1(roles: list[tuple[str, int]], c: int) -> bool:
    """The core A1 (object / passive subject) wins; clausal complements after it become A2."""
    core = [d for r, d in roles if r == "A1"]
    return bool(core) and core[0] == c


def _role(tokens: Sequence[Token], kids: list[list[int]], c: int, ent_type: list[str | None]
          ) -> str | None:
    t = tokens[c]
    rel = norm(t.deprel)
    lemma = (t.lemma or t.form).lower()
    if rel in ("nsubj", "csubj", "agent", "obl:agent"):
        return "A0"
    if rel in ("nsubjpass", "nsubj:pass", "csubjpass", "csubj:pass", "dobj", "obj", "attr"):
        return "A1"
    if rel in _CLAUSAL:
        return "A1"
    if rel in ("dative", "iobj"):
        return "A2"
    if rel == "neg" or (rel in ("advmod", "neg") and lemma in NEGATION):
        return "AM-NEG"
    if _base(rel) == "aux" and t.tag == "MD":
        return "AM-MOD"
    if rel in ("npadvmod", "obl:tmod", "nmod:tmod", "tmod"):
        return "AM-TMP"
    if rel == "obl:npmod":
        return "AM-TMP" if lemma in TIME_NOUNS or ent_type[c] in TIME_ENTS else "AM-ADV"
    if _base(rel) == "advmod":
        if lemma in TEMPORAL_ADV:
            return "AM-TMP"
        if lemma in PLACE_ADV:
            return "AM-LOC"
        if lemma == "how" or (t.form.lower().endswith("ly") and t.pos == "ADV"):
            return "AM-MNR"
        if lemma == "why":
            return "AM-CAU"
        return "AM-ADV"
    if rel in ("prep", "obl") or (rel == "obl" or _base(rel) == "obl"):
        return _prep_role(tokens, kids, c, ent_type)
    if _base(rel) == "advcl":
        marks = {(tokens[k].lemma or tokens[k].form).lower() for k in kids[c]
                 if norm(tokens[k].deprel) in ("mark", "aux", "advmod")}
        if marks & {"when", "while", "before", "after", "until", "till", "once", "whenever"}:
            return "AM-TMP"
        if marks & {"because", "since", "as"}:
            return "AM-CAU"
        if marks & {"to", "so"} and not marks & {"if", "unless"}:
            return "AM-PNC"
        return "AM-ADV"
    return None


def _prep_role(tokens: Sequence[Token], kids: list[list[int]], c: int,
               ent_type: list[str | None]) -> str:
    """Role of a prepositional phrase: spaCy's prep heads it, UD's obl has a case child."""
    t = tokens[c]
    if norm(t.deprel) == "prep":
        prep = (t.lemma or t.form).lower()
        objs = [k for k in kids[c] if norm(tokens[k].deprel) in ("pobj", "pcomp")]
    else:
        cases = [k for k in kids[c] if norm(tokens[k].deprel) == "case"]
        prep = (tokens[cases[0]].lemma or tokens[cases[0]].form).lower() if cases else ""
        objs = [c]
    obj = objs[0] if objs else None
    olemma = ((tokens[obj].lemma or tokens[obj].form).lower() if obj is not None else "")
    etype = ent_type[obj] if obj is not None else None
    if prep in TEMPORAL_PREP or etype in TIME_ENTS or olemma in TIME_NOUNS:
        return "AM-TMP"
    if prep in ("because", "due"):
        return "AM-CAU"
    if prep == "to":
        return "A2" if etype not in PLACE_ENTS else "AM-DIR"
    if prep in ("into", "onto", "towards", "toward"):
        return "AM-DIR"
    if prep in PLACE_PREP and (etype in PLACE_ENTS or olemma in PLACE_NOUNS
                               or (obj is not None and tokens[obj].pos == "PROPN")):
        return "AM-LOC"
    if prep in ("with", "by", "like", "as") or (
            obj is not None and tokens[obj].tag == "VBG" and prep != "without"):
        return "AM-MNR"
    if prep == "for":
        return "AM-PNC"
    return "AM-ADV"


def derived_spans(tokens: Sequence[Token], entities: Sequence[Span]) -> list[Span]:
    """Chunks, constituents and semantic roles, sentence by sentence; span ids are numbered
    through the text per layer (predicates and roles share one numbering)."""
    out: list[Span] = []
    nxt = {"chunk": 0, "tree": 0, "srl": 0}
    for start, end in sentence_ranges(tokens):
        sub = tuple(_shift(t, start, end) for t in tokens[start:end])
        ents = [Span(e.layer, e.span_id, e.start - start, e.end - start, e.label)
                for e in entities if start <= e.start and e.end <= end]
        for group, spans in (("chunk", chunk_spans(sub)), ("tree", constituent_spans(sub)),
                             ("srl", role_spans(sub, ents))):
            base = nxt[group]
            for s in spans:
                out.append(Span(s.layer, s.span_id + base, s.start + start, s.end + start,
                                s.label, None if s.parent is None else s.parent + base))
            nxt[group] = base + len(spans)
    return out


def sentence_ranges(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or tokens[i].sent != tokens[start].sent:
            ranges.append((start, i))
            start = i
    return ranges if tokens else []


def _shift(t: Token, start: int, end: int) -> Token:
    h = t.head
    if h is not None and h >= 0:
        h = h - start if start <= h < end else -1
    return Token(t.form, t.lemma, t.tag, t.pos, h, t.deprel, 0)


def full_analysis(tokens: Sequence[Token], entities: Sequence[Span],
                  entity_layer: bool = True) -> Analysis:
    """Tokens + entities + every derived layer."""
    tokens = tuple(tokens)
    if not tokens:
        return Analysis(status="empty", message="no tokens")
    order = {ENTITY: 0, CHUNK: 1, CONSTITUENT: 2, PREDICATE: 3, ROLE: 3}
    spans = tuple(sorted((*entities, *derived_spans(tokens, entities)),
                         key=lambda s: (order.get(s.layer, 9), s.span_id)))
    layers = DERIVED_LAYERS | ({ENTITY} if entity_layer else frozenset())
    return Analysis(tokens, spans, layers=frozenset(layers))

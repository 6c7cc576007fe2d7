"""Which target languages each metric handles, checked against the test bed's.

Families declare ``languages`` (None: any language) and why (``language_note``); the
linguistic families (``needs_analysis``) also need an annotation of the target language:
spaCy and Stanza models are named by their language (``en_core_web_sm``, ``fr_core_news_sm``,
Stanza's ``en``), an imported annotation run records the language it was given.

A metric asked for by name that cannot score the target language is refused
(:class:`LanguageError`, one line naming metric, language and what would work); a metric that
comes in through a set (LEX, metrics_DEFAULT, ...) is left out with a note.  A test bed with
no target language gets a warning and the metrics run as their tools would (English).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ulcdb.annotation.annotators import model_used
from ulcdb.errors import UlcdbError
from ulcdb.metrics import registry
from ulcdb.metrics.base import Family, Params
from ulcdb.store import Store


class LanguageError(UlcdbError):
    """A metric named explicitly cannot score the test bed's target language."""


def base(lang: str | None) -> str | None:
    """'en' of 'en', 'EN', 'en-GB', 'en_US'; None stays None."""
    if not lang:
        return None
    return lang.replace("_", "-").split("-")[0].lower()


def model_language(annotator: str, model: str | None) -> str | None:
    """The language of a spaCy/Stanza model from its name (spaCy: ``xx_...``; Stanza: the
    language code itself); None for other tools (their run records it)."""
    used = model_used(annotator, model)
    if annotator == "spacy" and used:
        return base(used.split("_")[0])
    return base(used) if annotator == "stanza" else None


def annotation_language(store: Store, params: Params) -> str | None:
    """The language of the annotation the linguistic metrics would read."""
    lang = model_language(params.annotator, params.annotator_model)
    if lang is not None or params.annotator in ("spacy", "stanza"):
        return lang
    columns = {r[0] for r in store.query(
        "select column_name from duckdb_columns() where table_name = 'annotation_run'")}
    if "lang" not in columns:  # a store made before runs recorded their language
        return None
    return base(store.scalar(
        "select lang from annotation_run where annotator = ? and model is not distinct from ? "
        "order by run_id desc limit 1", [params.annotator, params.annotator_model]))


def family_problem(fam: Family, lang: str, ann_lang: str | None, metric: str = ""
                   ) -> str | None:
    """Why ``fam`` (its ``metric``) cannot score target language ``lang`` (None: it can)."""
    languages = fam.metric_languages(metric) if metric else fam.languages
    if languages is not None and lang not in languages:
        return fam.language_note_for(metric) or f"only {', '.join(sorted(languages))}"
    if fam.needs_analysis and ann_lang != lang:
        found = f"reads an annotation in {ann_lang!r}" if ann_lang else \
            "reads an annotation of unknown language"
        return (f"{found}; give --annotator-model with a {lang} model (e.g. spaCy's "
                f"{lang}_core_news_sm) or import {lang} annotations")
    return None


def metric_problem(metric: str, lang: str, ann_lang: str | None) -> str | None:
    """Why ``metric`` (built-in) cannot score ``lang``; x-b / x-i need what they derive from."""
    index = registry.metric_index()
    if metric not in index:
        return None  # imported: its scores are what they are
    fam = index[metric][0]
    if fam.derived:
        from ulcdb.metrics.combined import requirements

        for need in requirements(metric):
            if need in index and (why := family_problem(index[need][0], lang, ann_lang,
                                                        need)):
                return why
        return None
    return family_problem(fam, lang, ann_lang, metric)


def language_label(metric: str) -> str | None:
    """What ``ulcdb list metrics`` shows: 'any', 'en', 'annotation' (the language of the
    annotation it reads), 'en, annotation'; None for an imported metric."""
    index = registry.metric_index()
    if metric not in index:
        return None
    fam = index[metric][0]
    if fam.derived:
        from ulcdb.metrics.combined import requirements

        labels = [language_label(m) for m in requirements(metric) if m in index]
        return next((lb for lb in labels if lb != "any"), "any")
    languages = fam.metric_languages(metric)
    parts = ["any"] if languages is None else sorted(languages)
    if fam.needs_analysis:
        parts = [p for p in parts if p != "any"] + ["annotation"]
    return ", ".join(parts)


@dataclass
class LanguageCheck:
    lang: str | None
    kept: list[str]
    left_out: dict[str, str] = field(default_factory=dict)  # metric -> why
    warnings: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        """One line per reason: the metrics left out for the target language, and why."""
        return [*self.warnings, *(f"left out for target language {self.lang}: {r}"
                                  for r in self.reasons())]

    def reasons(self) -> list[str]:
        """'metrics (why)' for each reason metrics were left out."""
        by_reason: dict[str, list[str]] = {}
        for metric, why in self.left_out.items():
            by_reason.setdefault(why, []).append(metric)
        return [f"{_short(ms)} ({why})" for why, ms in by_reason.items()]


def _short(metrics: list[str]) -> str:
    """Up to 8 names, else the families with their counts (DP: 123 metrics)."""
    if len(metrics) <= 8:
        return ", ".join(metrics)
    index = registry.metric_index()
    counts: dict[str, int] = {}
    for m in metrics:
        fam = index[m][0].name if m in index else m
        counts[fam] = counts.get(fam, 0) + 1
    return ", ".join(f"{f} ({n} metrics)" if n > 1 else f for f, n in counts.items())


def check_languages(store: Store, testbed_id: int, metrics: list[str], named: set[str],
                    params: Params) -> LanguageCheck:
    """Keep the metrics that handle the test bed's target language; refuse one in ``named``
    (asked for by name) that does not."""
    name, tgt = store.query("select name, tgt_lang from testbed where testbed_id = ?",
                            [testbed_id])[0]
    lang = base(tgt)
    if lang is None:
        dependent = [m for m in metrics if metric_problem(m, "xx", "xx") is not None]
        warning = (f"test bed {name!r} has no target language: {', '.join(dependent[:6])}"
                   f"{', ...' if len(dependent) > 6 else ''} assume English (give it with "
                   f"`ulcdb ingest testbed --name {name} --tgt-lang LANG ...`)")
        return LanguageCheck(None, metrics, warnings=[warning] if dependent else [])
    ann_lang = annotation_language(store, params)
    check = LanguageCheck(lang, [])
    for metric in metrics:
        why = metric_problem(metric, lang, ann_lang)
        if why is None:
            check.kept.append(metric)
        elif metric in named:
            raise LanguageError(f"{metric} cannot score target language {lang!r} of test bed "
                                f"{name!r}: {why}")
        else:
            check.left_out[metric] = why
    return check

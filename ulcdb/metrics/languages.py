"""Which target languages each metric handles, checked against the test bed's.

Families declare ``languages`` (None: any language) and why (``language_note``); the
linguistic families (``needs_analysis``) also need an annotation of the target language:
spaCy and Stanza models are named by their language (``en_core_web_sm``, ``fr_core_news_sm``,
Stanza's ``en``), an imported annotation run records the language it was given.

A metric asked for by name that cannot score the target language is refused
(:class:`LanguageError`, one line naming metric, language and what would work); a metric that
comes in through a set (LEX, metrics_DEFAULT, ...) is left out with a note.  A test bed with
no target language gets a warning and the metrics run as their tools would (English).

:func:`normalise` is the one place a language given to ulcdb becomes what the store holds,
called by every ingest path (``--src-lang``/``--tgt-lang``, the API, a ULC.config's LANG,
WMT XML and NIST SGML ``lang`` attributes, an mt-metrics-eval language pair, the loader
itself): an ISO 639-1 code (``de``, ``DE``, ``de-AT``, ``pt_BR``) is kept, lowercased; an
English name (``german``) or an ISO 639-2 code (``deu``, ``ger``) of such a language
becomes its code, with a note saying so; a few ISO 639-3 codes of WMT languages that have no
ISO 639-1 code (``liv``, ``sah``, ``hsb``, ``dsb``, ``chv``) are kept; anything else is
refused, naming the file or option it came from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ulcdb.annotation.annotators import model_used
from ulcdb.errors import InputError, UlcdbError
from ulcdb.metrics import registry
from ulcdb.metrics.base import Family, Params
from ulcdb.store.database import Store

if TYPE_CHECKING:
    from ulcdb.ingest.model import TestbedData


class LanguageError(UlcdbError):
    """A metric named explicitly cannot score the test bed's target language."""


# ISO 639-1: code, English name(s) (';' between alternatives), as the registration authority
# (Library of Congress) lists them.
_ISO_639_1 = """
aa Afar|ab Abkhazian|ae Avestan|af Afrikaans|ak Akan|am Amharic|an Aragonese|ar Arabic
as Assamese|av Avaric|ay Aymara|az Azerbaijani|ba Bashkir|be Belarusian|bg Bulgarian
bi Bislama|bm Bambara|bn Bengali;Bangla|bo Tibetan|br Breton|bs Bosnian|ca Catalan;Valencian
ce Chechen|ch Chamorro|co Corsican|cr Cree|cs Czech|cu Church Slavic|cv Chuvash|cy Welsh
da Danish|de German|dv Divehi;Dhivehi;Maldivian|dz Dzongkha|ee Ewe|el Greek;Modern Greek
en English|eo Esperanto|es Spanish;Castilian|et Estonian|eu Basque|fa Persian;Farsi|ff Fulah
fi Finnish|fj Fijian|fo Faroese|fr French|fy Western Frisian;Frisian|ga Irish
gd Gaelic;Scottish Gaelic|gl Galician|gn Guarani|gu Gujarati|gv Manx|ha Hausa|he Hebrew
hi Hindi|ho Hiri Motu|hr Croatian|ht Haitian;Haitian Creole|hu Hungarian|hy Armenian
hz Herero|ia Interlingua|id Indonesian|ie Interlingue|ig Igbo|ii Sichuan Yi;Nuosu|ik Inupiaq
io Ido|is Icelandic|it Italian|iu Inuktitut|ja Japanese|jv Javanese|ka Georgian|kg Kongo
ki Kikuyu|kj Kuanyama|kk Kazakh|kl Kalaallisut;Greenlandic|km Khmer;Central Khmer|kn Kannada
ko Korean|kr Kanuri|ks Kashmiri|ku Kurdish|kv Komi|kw Cornish|ky Kirghiz;Kyrgyz|la Latin
lb Luxembourgish|lg Ganda|li Limburgish;Limburgan|ln Lingala|lo Lao|lt Lithuanian
lu Luba-Katanga|lv Latvian|mg Malagasy|mh Marshallese|mi Maori|mk Macedonian|ml Malayalam
mn Mongolian|mr Marathi|ms Malay|mt Maltese|my Burmese|na Nauru|nb Norwegian Bokmal;Bokmal
nd North Ndebele|ne Nepali|ng Ndonga|nl Dutch;Flemish|nn Norwegian Nynorsk;Nynorsk
no Norwegian|nr South Ndebele|nv Navajo|ny Chichewa;Nyanja|oc Occitan|oj Ojibwa|om Oromo
or Oriya;Odia|os Ossetian|pa Punjabi;Panjabi|pi Pali|pl Polish|ps Pashto;Pushto
pt Portuguese|qu Quechua|rm Romansh|rn Rundi;Kirundi|ro Romanian;Moldavian|ru Russian
rw Kinyarwanda|sa Sanskrit|sc Sardinian|sd Sindhi|se Northern Sami|sg Sango|si Sinhala
sk Slovak|sl Slovenian;Slovene|sm Samoan|sn Shona|so Somali|sq Albanian|sr Serbian|ss Swati
st Southern Sotho;Sesotho|su Sundanese|sv Swedish|sw Swahili|ta Tamil|te Telugu|tg Tajik
th Thai|ti Tigrinya|tk Turkmen|tl Tagalog;Filipino|tn Tswana|to Tonga|tr Turkish|ts Tsonga
tt Tatar|tw Twi|ty Tahitian|ug Uighur;Uyghur|uk Ukrainian|ur Urdu|uz Uzbek|ve Venda
vi Vietnamese|vo Volapuk|wa Walloon|wo Wolof|xh Xhosa|yi Yiddish|yo Yoruba|za Zhuang
zh Chinese|zu Zulu
"""
# ISO 639-2 (bibliographic and terminological) codes of the languages WMT, IQMT and the
# Asiya test suites use, and the ISO 639-3 codes of WMT languages without an ISO 639-1 code.
_ISO_639_2 = {
    "ara": "ar", "ben": "bn", "bul": "bg", "cat": "ca", "ces": "cs", "cze": "cs", "chi": "zh",
    "zho": "zh", "dan": "da", "deu": "de", "ger": "de", "ell": "el", "gre": "el", "eng": "en",
    "est": "et", "eus": "eu", "baq": "eu", "fas": "fa", "per": "fa", "fin": "fi", "fra": "fr",
    "fre": "fr", "gle": "ga", "glg": "gl", "guj": "gu", "hau": "ha", "heb": "he", "hin": "hi",
    "hrv": "hr", "hun": "hu", "ind": "id", "isl": "is", "ice": "is", "ita": "it", "jpn": "ja",
    "kaz": "kk", "khm": "km", "kor": "ko", "lav": "lv", "lit": "lt", "msa": "ms", "may": "ms",
    "nld": "nl", "dut": "nl", "nor": "no", "pol": "pl", "por": "pt", "pus": "ps", "ron": "ro",
    "rum": "ro", "rus": "ru", "slk": "sk", "slo": "sk", "slv": "sl", "spa": "es", "srp": "sr",
    "swe": "sv", "tam": "ta", "tha": "th", "tur": "tr", "ukr": "uk", "urd": "ur", "vie": "vi",
    "xho": "xh", "zul": "zu", "iku": "iu", "mar": "mr", "tel": "te", "kan": "kn", "mal": "ml",
}  # fmt: skip
_ISO_639_3_KEPT = {"liv": "Livonian", "sah": "Yakut", "hsb": "Upper Sorbian",
                   "dsb": "Lower Sorbian", "chv": "Chuvash"}


def _codes() -> tuple[dict[str, str], dict[str, str]]:
    """(code -> English name, lowercased English name -> code) from ``_ISO_639_1``."""
    names: dict[str, str] = {}
    by_name: dict[str, str] = {}
    for entry in _ISO_639_1.replace("\n", "|").split("|"):
        if entry.strip():
            code, _, alternatives = entry.strip().partition(" ")
            names[code] = alternatives.split(";")[0]
            by_name |= {a.lower(): code for a in alternatives.split(";")}
    return names, by_name


LANGUAGE_NAMES, _BY_NAME = _codes()
_TAG = re.compile(r"^(?P<lang>[A-Za-z]{2,3})(?P<rest>(?:[-_][A-Za-z0-9]{1,8})*)$")


@dataclass(frozen=True)
class Language:
    """A language as ulcdb stores it, and the note saying how it was read (None: as given)."""

    code: str
    note: str | None = None


def normalise(value: str, where: object, option: str | None = None,
              line: int | None = None) -> Language:
    """``value`` as the store keeps it (see the module docstring); ``where`` (a file, or the
    input an option applies to) and ``option``/``line`` name the source in the error."""
    given = value.strip()
    lowered = given.lower().replace("_", "-")
    tag = _TAG.match(given)
    label = (f"{option}{given}" if option and option.endswith("=") else
             f"{option} {given}" if option else f"language {given!r}")
    if tag is not None:
        code = tag["lang"].lower()
        region = tag["rest"].replace("_", "-")
        if code in LANGUAGE_NAMES or code in _ISO_639_3_KEPT:
            return Language(code + region)
        if code in _ISO_639_2:
            short = _ISO_639_2[code] + region
            return Language(short, f"{label} read as {short} (ISO 639-1 code of "
                                   f"{LANGUAGE_NAMES[_ISO_639_2[code]]})")
    if lowered in _BY_NAME:
        code = _BY_NAME[lowered]
        return Language(code, f"{label} read as {code} (ISO 639-1 code of "
                              f"{LANGUAGE_NAMES[code]})")
    raise InputError(where, line, f"{label}: not a language ulcdb knows; give an ISO 639-1 "
                     "code (e.g. de, en, zh, pt-BR) or an English language name")


def set_language(data: TestbedData, side: str, value: str | None, where: object,
                 line: int | None = None, option: str | None = None) -> None:
    """``data.src_lang``/``data.tgt_lang`` (``side``) set to ``value`` normalised, the note
    (if any) added to ``data.notes``; an empty ``value`` leaves it as it is."""
    if not value:
        return
    lang = normalise(value, where, option, line)
    setattr(data, side, lang.code)
    if lang.note and lang.note not in data.notes:
        data.notes.append(lang.note)


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
        return f"{found}; {_model_hint(lang)}"
    return None


# The languages of spaCy's trained pipelines (spacy.io/models, 3.8): en and zh are named
# xx_core_web_sm, the others xx_core_news_sm.
SPACY_LANGUAGES = frozenset("ca da de el en es fi fr hr it ja ko lt mk nb nl pl pt ro ru sl sv "
                            "uk zh".split())


def _model_hint(lang: str) -> str:
    """How to get an annotation in ``lang``: a spaCy model where spaCy has one."""
    if lang not in SPACY_LANGUAGES:
        return (f"spaCy has no {lang} model: import {lang} annotations (`ulcdb ingest "
                "annotations`), or give --annotator stanza --annotator-model with a Stanza "
                f"{lang} model")
    kind = "web" if lang in ("en", "zh") else "news"
    return (f"give --annotator-model with a {lang} model (e.g. spaCy's {lang}_core_{kind}_sm) "
            f"or import {lang} annotations")


def metric_problem(metric: str, lang: str, ann_lang: str | None) -> str | None:
    """Why ``metric`` (built-in) cannot score ``lang``; x-b / x-i need what they derive from."""
    index = registry.metric_index()
    if metric not in index:
        return None  # imported: its scores are what they are
    fam = index[metric][0]
    if fam.derived:
        from ulcdb.metrics.backoff_interpolation import requirements

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
        from ulcdb.metrics.backoff_interpolation import requirements

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
    testbed: str = ""

    def notes(self) -> list[str]:
        """One line per reason: the metrics left out for the target language, and why."""
        return [*self.warnings, *(f"left out for target language {self.lang}: {r}"
                                  for r in self.reasons())]

    def reasons(self) -> list[str]:
        """'metrics (why)' for each reason metrics were left out."""
        return [f"{names} ({why})" for names, why in self.grouped()]

    def grouped(self) -> list[tuple[str, str]]:
        """(the metrics, shortened, why) for each reason metrics were left out."""
        by_reason: dict[str, list[str]] = {}
        for metric, why in self.left_out.items():
            by_reason.setdefault(why, []).append(metric)
        return [(_short(ms), why) for why, ms in by_reason.items()]


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


def _stored(testbed: str, tgt: str) -> tuple[str, list[str]]:
    """The base code of a stored target language, and a warning where a store made before
    languages were normalised holds a name (``german``: read as ``de``) or an unknown one."""
    try:
        lang = normalise(tgt, f"test bed {testbed!r}")
    except InputError:
        return str(base(tgt)), [f"test bed {testbed!r} has target language {tgt!r}, no ISO "
                                "639-1 code: metrics treat it as a language they do not know"]
    code = str(base(lang.code))
    if lang.note is None:
        return code, []
    return code, [f"test bed {testbed!r} has target language {tgt!r}: read as {code}"]


def language_problems(store: Store, testbed_id: int, metrics: Sequence[str],
                      params: Params) -> LanguageCheck:
    """The metrics of ``metrics`` that can score the test bed's target language (``kept``)
    and why the others cannot (``left_out``), scored with ``params`` (the annotation they
    read); every metric is kept when the test bed has no target language."""
    name, tgt = store.query("select name, tgt_lang from testbed where testbed_id = ?",
                            [testbed_id])[0]
    if base(tgt) is None:
        return LanguageCheck(None, list(metrics), testbed=name)
    ann_lang = annotation_language(store, params)
    lang, warnings = _stored(name, tgt)
    check = LanguageCheck(lang, [], warnings=warnings, testbed=name)
    for metric in metrics:
        why = metric_problem(metric, lang, ann_lang)
        if why is None:
            check.kept.append(metric)
        else:
            check.left_out[metric] = why
    return check


def check_languages(store: Store, testbed_id: int, metrics: list[str], named: set[str],
                    params: Params) -> LanguageCheck:
    """Keep the metrics that handle the test bed's target language; refuse one in ``named``
    (asked for by name) that does not."""
    check = language_problems(store, testbed_id, metrics, params)
    name = check.testbed
    if check.lang is None:
        dependent = [m for m in metrics if metric_problem(m, "xx", "xx") is not None]
        warning = (f"test bed {name!r} has no target language: {', '.join(dependent[:6])}"
                   f"{', ...' if len(dependent) > 6 else ''} assume English (give it with "
                   f"`ulcdb ingest testbed --name {name} --tgt-lang LANG ...`)")
        check.warnings = [warning] if dependent else []
        return check
    for metric, why in check.left_out.items():
        if metric in named:
            raise LanguageError(f"{metric} cannot score target language {check.lang!r} of "
                                f"test bed {name!r}: {why}")
    return check

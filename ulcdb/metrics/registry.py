"""Which metric families exist, which metrics they produce, and the built-in metric sets.

The built-in catalogue (every metric's entry and languages, the built-in sets) is also
shipped as ``catalogue.json``, written by ``python -m ulcdb.metrics.registry``: `ulcdb list
metrics`, `list sets` and `describe` read it (``catalogue()``) instead of importing every
metric module, as long as it was made from the metric code at hand (a digest of the sources
says so; otherwise the families are imported and asked).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ulcdb.errors import NotFound
from ulcdb.metrics.base import Family, MetricSpec

# module:class of every built-in family, in catalogue order.
FAMILY_PATHS: tuple[str, ...] = (
    "ulcdb.metrics.bleu:BleuFamily",
    "ulcdb.metrics.nist:NistFamily",
    "ulcdb.metrics.gtm:GtmFamily",
    "ulcdb.metrics.meteor:MeteorFamily",
    "ulcdb.metrics.rouge:RougeFamily",
    "ulcdb.metrics.wer_per:ErrorRateFamily",
    "ulcdb.metrics.ter:TerFamily",
    "ulcdb.metrics.overlap:OverlapFamily",
    "ulcdb.metrics.chrf:ChrfFamily",
    "ulcdb.metrics.sp:SpFamily",
    "ulcdb.metrics.dp:DpFamily",
    "ulcdb.metrics.cp:CpFamily",
    "ulcdb.metrics.ne:NeFamily",
    "ulcdb.metrics.sr:SrFamily",
    "ulcdb.metrics.dr.family:DrFamily",
    "ulcdb.metrics.dr.family:DrDocFamily",
    "ulcdb.metrics.tine:TineFamily",
    "ulcdb.metrics.backoff_interpolation:BackoffFamily",
)


@cache
def _builtin_sets() -> dict[str, tuple[str, ...]]:
    """The built-in sets, in catalogue order; the linguistic families' modules list theirs."""
    from ulcdb.metrics import backoff_interpolation, cp, dp, ne, sp, sr
    from ulcdb.metrics.dr import scoring as dr

    # Built-in metric sets: the manuals' families (ULC manual section 4.1) and LEX, all of them.
    # Members that no family produces are left out when a set is resolved.
    sets: dict[str, tuple[str, ...]] = {
        "BLEU": ("BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "BLEUi-2", "BLEUi-3", "BLEUi-4"),
        "NIST": ("NIST-1", "NIST-2", "NIST-3", "NIST-4", "NIST-5",
                 "NISTi-2", "NISTi-3", "NISTi-4", "NISTi-5"),
        "GTM": ("GTM-1", "GTM-2", "GTM-3"),
        "METEOR": ("MTR-exact", "MTR-stem", "MTR-wnstm", "MTR-wnsyn"),
        "ROUGE": ("RG-1", "RG-2", "RG-3", "RG-4", "RG-L", "RG-S*", "RG-SU*", "RG-W-1.2"),
        "ERROR": ("1-WER", "1-PER", "1-TER"),
        "CHRF": ("chrF", "chrF++"),
    }
    sets["LEX"] = tuple(
        m for name in ("BLEU", "NIST", "GTM", "METEOR", "ROUGE", "ERROR") for m in sets[name]
    ) + ("Ol", "chrF", "chrF++")
    # The linguistic families (ULC manual 4.3-4.5), their backoff/interpolation variants (4.7).
    sets.update({
        "SP": tuple(sp.overlap_names() + sp.nist_names()),
        "DP": tuple(dp.metric_names()),
        "CP": tuple(cp.metric_names()),
        "NE": tuple(ne.metric_names()),
        "SR": tuple(sr.metric_names()),
        "DR": tuple(dr.metric_names("DR")),
        "DRdoc": tuple(dr.metric_names("DRdoc")),
    })
    sets["LING-b"] = tuple(n for n in backoff_interpolation.derived_names() if n.endswith("-b"))
    sets["LING-i"] = tuple(n for n in backoff_interpolation.derived_names() if n.endswith("-i"))
    # The ULC manual's M_h and its mt06-adequacy optimum (members that exist are used).
    sets["metrics_DEFAULT"] = (
        "RG-W-1.2", "MTR-wnsyn", "CP-STM-4", "DP-HWC-c-4", "DP-HWC-r-4", "DP-Or-*", "SR-Or-*-b",
        "SR-Mr-*-b", "SR-Or-b", "DR-Or-*-b", "DR-Orp-*-b")
    sets["metrics_OPT_mt06_adequacy"] = (
        "RG-L", "RG-W-1.2", "MTR-wnsyn", "Ol", "DP-Or-*", "DR-Orp-*-i")
    # The DR sets of the ULC manual (its footnotes 23-24) and of the DR_doc paper (MetricsMATR
    # 2010, section 4: ULC over DR, over DR_doc, and its ULC_h).
    sets["TINE"] = ("TINE", "TINE-B", "TINE-L", "TINE-A")  # Rios et al. 2011
    sets["metrics_DR"] = ("DR-Or-*-b",)
    sets["metrics_DRp"] = ("DR-Orp-*-b",)
    sets["ULC_DR"] = ("DR-Or-*", "DR-Orp-*", "DR-STM-4")
    sets["ULC_DRdoc"] = ("DRdoc-Or-*", "DRdoc-Orp-*", "DRdoc-STM-4")
    sets["ULC_h"] = ("RG-W-1.2", "MTR-wnsyn", "DP-HWC-r-4", "DP-Oc-*", "DP-Ol-*", "DP-Or-*",
                             "CP-STM-4", "SR-Or-*", "SR-Orv", "DR-Orp-*")
    # Asiya 3.0's lexical names (negated error rates), as in its golden outputs.
    sets["ASIYA-LEX"] = ("BLEU", "NIST", "GTM-1", "GTM-2", "GTM-3", "MTR-exact", "MTR-stem",
                                 "MTR-wnsyn", "RG-1", "RG-2", "RG-3", "RG-4", "RG-L", "RG-S*",
                                 "RG-SU*", "RG-W-1.2", "-WER", "-PER", "-TER", "Ol")
    # Every family set is also reachable as metrics_<NAME> (ULC.config's naming), which matters
    # for BLEU and NIST: as a bare name they are the metrics (ULC manual: 'BLEU' is BLEU-4).
    for _name in ("BLEU", "NIST", "GTM", "METEOR", "ROUGE", "ERROR", "CHRF",
                  "SP", "DP", "CP", "NE", "SR", "DRdoc"):
        sets[f"metrics_{_name}"] = sets[_name]
    # metrics_LEX is ULC's own lexical set (its sample ULC.config): one representative per lexical
    # family, so that ULC is not dominated by BLEU and NIST variants.  It is what `ulcdb score`
    # computes unless told otherwise; LEX is every lexical metric.
    sets["metrics_LEX"] = ("BLEU", "NIST", "GTM-2", "MTR-exact", "RG-L", "1-PER", "Ol")
    return sets


class _BuiltinSets(Mapping[str, tuple[str, ...]]):
    """``BUILTIN_SETS``: built on first use (listing the linguistic sets imports their
    families' modules)."""

    def __getitem__(self, name: str) -> tuple[str, ...]:
        return _builtin_sets()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_builtin_sets())

    def __len__(self) -> int:
        return len(_builtin_sets())


BUILTIN_SETS: Mapping[str, tuple[str, ...]] = _BuiltinSets()
DEFAULT_SET = "metrics_LEX"


@cache
def families() -> tuple[Family, ...]:
    """Instances of every family whose module is present."""
    out = []
    for path in FAMILY_PATHS:
        module, cls = path.split(":")
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                continue
            raise
        out.append(getattr(mod, cls)())
    return tuple(out)


@cache
def metric_index() -> dict[str, tuple[Family, MetricSpec]]:
    """Metric name -> (family computing it, its catalogue entry)."""
    return {spec.name: (fam, spec) for fam in families() for spec in fam.specs()}


def family_of(metric: str) -> Family:
    try:
        return metric_index()[metric][0]
    except KeyError:
        raise NotFound(f"no built-in metric named {metric!r}") from None


# -- the shipped catalogue -------------------------------------------------------------------
SNAPSHOT = Path(__file__).with_name("catalogue.json")


@dataclass(frozen=True)
class Catalogue:
    """The built-in metrics' entries, their languages (as `ulcdb list metrics` shows them) and
    the built-in sets (as defined: members no family computes included)."""

    specs: tuple[MetricSpec, ...]
    languages: dict[str, str]
    sets: dict[str, tuple[str, ...]]


def sources_digest() -> str:
    """Digest of the code the catalogue comes from: the modules of ulcdb.metrics."""
    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root.parent).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def live_catalogue() -> Catalogue:
    """The catalogue as the families give it (imports every metric module)."""
    from ulcdb.metrics.languages import language_label

    specs = tuple(spec for _, spec in metric_index().values())
    return Catalogue(specs, {s.name: language_label(s.name) or "" for s in specs},
                     dict(BUILTIN_SETS))


def write_snapshot(path: Path = SNAPSHOT) -> None:
    """Write the live catalogue to ``path``, with the digest of the code it comes from."""
    cat = live_catalogue()
    rows = [json.dumps({**dataclasses.asdict(s), "languages": cat.languages[s.name]},
                       ensure_ascii=False) for s in cat.specs]
    sets = [f"{json.dumps(name)}: {json.dumps(members)}" for name, members in cat.sets.items()]
    # One metric, one set a line: a change to the metric code shows as a readable diff.
    path.write_text(f'{{"sources": "{sources_digest()}",\n"metrics": [\n' + ",\n".join(rows)
                    + '\n],\n"sets": {\n' + ",\n".join(sets) + "\n}}\n", encoding="utf-8")


def read_snapshot(path: Path = SNAPSHOT) -> Catalogue | None:
    """The catalogue written to ``path``; None when missing or made from other code."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("sources") != sources_digest():
        return None
    languages = {m["name"]: m.pop("languages") for m in data["metrics"]}
    return Catalogue(tuple(MetricSpec(**m) for m in data["metrics"]), languages,
                     {name: tuple(members) for name, members in data["sets"].items()})


@cache
def catalogue() -> Catalogue:
    """The built-in catalogue: the shipped one when it was made from this code, else the
    live one."""
    return read_snapshot() or live_catalogue()


if __name__ == "__main__":  # python -m ulcdb.metrics.registry: (re)write catalogue.json
    from ulcdb.metrics import registry

    registry.write_snapshot()
    print(f"wrote {registry.SNAPSHOT}")

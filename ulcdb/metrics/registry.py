"""Which metric families exist, which metrics they produce, and the built-in metric sets."""

from __future__ import annotations

import importlib
from functools import cache

from ulcdb.errors import NotFound
from ulcdb.metrics import combined, cp, dp, ne, sp, sr
from ulcdb.metrics.base import Family, MetricSpec
from ulcdb.metrics.dr import scoring as dr

# module:class of every built-in family, in catalogue order.
FAMILY_PATHS: tuple[str, ...] = (
    "ulcdb.metrics.bleu:BleuFamily",
    "ulcdb.metrics.nist:NistFamily",
    "ulcdb.metrics.gtm:GtmFamily",
    "ulcdb.metrics.meteor:MeteorFamily",
    "ulcdb.metrics.rouge:RougeFamily",
    "ulcdb.metrics.wer:ErrorRateFamily",
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
    "ulcdb.metrics.combined:BackoffFamily",
)

# Built-in metric sets: the manuals' families (ULC manual section 4.1) and LEX, all of them.
# Members that no family produces are left out when a set is resolved.
BUILTIN_SETS: dict[str, tuple[str, ...]] = {
    "BLEU": ("BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "BLEUi-2", "BLEUi-3", "BLEUi-4"),
    "NIST": ("NIST-1", "NIST-2", "NIST-3", "NIST-4", "NIST-5",
             "NISTi-2", "NISTi-3", "NISTi-4", "NISTi-5"),
    "GTM": ("GTM-1", "GTM-2", "GTM-3"),
    "METEOR": ("MTR-exact", "MTR-stem", "MTR-wnstm", "MTR-wnsyn"),
    "ROUGE": ("RG-1", "RG-2", "RG-3", "RG-4", "RG-L", "RG-S*", "RG-SU*", "RG-W-1.2"),
    "ERROR": ("1-WER", "1-PER", "1-TER"),
    "CHRF": ("chrF", "chrF++"),
}
BUILTIN_SETS["LEX"] = tuple(
    m for name in ("BLEU", "NIST", "GTM", "METEOR", "ROUGE", "ERROR") for m in BUILTIN_SETS[name]
) + ("Ol", "chrF", "chrF++")
# The linguistic families (ULC manual 4.3-4.5), their backoff/interpolation variants (4.7).
BUILTIN_SETS.update({
    "SP": tuple(sp.overlap_names() + sp.nist_names()),
    "DP": tuple(dp.metric_names()),
    "CP": tuple(cp.metric_names()),
    "NE": tuple(ne.metric_names()),
    "SR": tuple(sr.metric_names()),
    "DR": tuple(dr.metric_names("DR")),
    "DRdoc": tuple(dr.metric_names("DRdoc")),
})
BUILTIN_SETS["LING-b"] = tuple(n for n in combined.derived_names() if n.endswith("-b"))
BUILTIN_SETS["LING-i"] = tuple(n for n in combined.derived_names() if n.endswith("-i"))
# The ULC manual's M_h and its mt06-adequacy optimum (members that exist are used).
BUILTIN_SETS["metrics_DEFAULT"] = (
    "RG-W-1.2", "MTR-wnsyn", "CP-STM-4", "DP-HWC-c-4", "DP-HWC-r-4", "DP-Or-*", "SR-Or-*-b",
    "SR-Mr-*-b", "SR-Or-b", "DR-Or-*-b", "DR-Orp-*-b")
BUILTIN_SETS["metrics_OPT_mt06_adequacy"] = (
    "RG-L", "RG-W-1.2", "MTR-wnsyn", "Ol", "DP-Or-*", "DR-Orp-*-i")
# The DR sets of the ULC manual (its footnotes 23-24) and of the DR_doc paper (MetricsMATR
# 2010, section 4: ULC over DR, over DR_doc, and its ULC_h).
BUILTIN_SETS["TINE"] = ("TINE", "TINE-B", "TINE-L", "TINE-A")  # Rios et al. 2011
BUILTIN_SETS["metrics_DR"] = ("DR-Or-*-b",)
BUILTIN_SETS["metrics_DRp"] = ("DR-Orp-*-b",)
BUILTIN_SETS["ULC_DR"] = ("DR-Or-*", "DR-Orp-*", "DR-STM-4")
BUILTIN_SETS["ULC_DRdoc"] = ("DRdoc-Or-*", "DRdoc-Orp-*", "DRdoc-STM-4")
BUILTIN_SETS["ULC_h"] = ("RG-W-1.2", "MTR-wnsyn", "DP-HWC-r-4", "DP-Oc-*", "DP-Ol-*", "DP-Or-*",
                         "CP-STM-4", "SR-Or-*", "SR-Orv", "DR-Orp-*")
# Asiya 3.0's lexical names (negated error rates), as in its golden outputs.
BUILTIN_SETS["ASIYA-LEX"] = ("BLEU", "NIST", "GTM-1", "GTM-2", "GTM-3", "MTR-exact", "MTR-stem",
                             "MTR-wnsyn", "RG-1", "RG-2", "RG-3", "RG-4", "RG-L", "RG-S*",
                             "RG-SU*", "RG-W-1.2", "-WER", "-PER", "-TER", "Ol")
# Every family set is also reachable as metrics_<NAME> (ULC.config's naming), which matters
# for BLEU and NIST: as a bare name they are the metrics (ULC manual: 'BLEU' is BLEU-4).
for _name in ("BLEU", "NIST", "GTM", "METEOR", "ROUGE", "ERROR", "CHRF",
              "SP", "DP", "CP", "NE", "SR", "DRdoc"):
    BUILTIN_SETS[f"metrics_{_name}"] = BUILTIN_SETS[_name]
# metrics_LEX is ULC's own lexical set (its sample ULC.config): one representative per lexical
# family, so that ULC is not dominated by BLEU and NIST variants.  It is what `ulcdb score`
# computes unless told otherwise; LEX is every lexical metric.
BUILTIN_SETS["metrics_LEX"] = ("BLEU", "NIST", "GTM-2", "MTR-exact", "RG-L", "1-PER", "Ol")
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


def builtin_set(name: str) -> list[str]:
    """Members of a built-in set that some family computes (or are stored imports)."""
    known = metric_index()
    return [m for m in BUILTIN_SETS[name] if m in known]

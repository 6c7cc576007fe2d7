"""What a comparison's numbers depend on, said with them: the test, resamples and seed, the
reference set and variant, why that many resamples, which references stood as systems.

The same lines head `ulcdb compare`'s table (on stdout, with it) and the comparison page of
`ulcdb serve`.
"""

from __future__ import annotations

from ulcdb.compare.run import CompareReport, CompareTask
from ulcdb.stats import sacrebleu_significance as sig


def header_lines(report: CompareReport, where: str | None = None) -> list[str]:
    """The provenance of ``report``, one statement a line; ``where``: the --where predicate."""
    t = report.task
    what = ("paired bootstrap resampling" if t.method == "bs"
            else "paired approximate randomization")
    n = f"{t.n_samples} {'resamples' if t.method == 'bs' else 'trials'}, seed {t.seed}"
    against = (f"each system against {t.baseline}" if t.baseline else
               f"every pair of {len(t.systems)} systems; clusters at p < {t.alpha:g} after "
               "Holm-Bonferroni over each metric's pairs")
    units = "segments" if t.unit == "seg" else "documents"
    by_variant: dict[str, list[str]] = {}
    for metric, variant in report.variants.items():
        by_variant.setdefault(variant, []).append(metric)
    # several: each with its metrics (a metric imported under one variant only is compared
    # on it, beside the others computed under the test bed's)
    variants = ("; ".join(f"{v} ({', '.join(ms)})" for v, ms in by_variant.items())
                if len(by_variant) > 1 else next(iter(by_variant), "-"))
    lines = [f"{what} ({n}) of {units}, references {t.refset}, variant {variants}: {against}"]
    lines += _resamples(t)
    if t.references_as_systems:
        named = ", ".join(t.references_as_systems)
        lines.append(f"{named} compared as a system (the human-parity question): every "
                     f"translation, {named} included, is scored against the other references "
                     f"{t.refset} only")
    if where:
        lines.append(f"segments where {where}: {len(t.segments or ())}")
    by_reading: dict[str, list[str]] = {}
    for metric, reading in report.readings.items():
        by_reading.setdefault(reading, []).append(metric)
    lines += [f"{', '.join(ms)}: {r}" for r, ms in by_reading.items()]
    return lines + report.notes


def _resamples(t: CompareTask) -> list[str]:
    """Why this many resamples: with every pair, the smallest p-value they can give after
    Holm-Bonferroni, and sacrebleu's default when it could not have split a cluster."""
    if t.baseline is not None:
        return []
    pairs, n = t.n_tests, t.n_samples
    word = "resamples" if t.method == "bs" else "trials"
    chosen = "given" if t.resamples is not None else "chosen"
    line = (f"{n} {word} {chosen} for {pairs} pairs per metric: the smallest p-value after "
            f"Holm-Bonferroni is {pairs}/{n + 1} = {sig.smallest_p(pairs, n):.4f} "
            f"(< {t.alpha:g})")
    base = sig.BS_RESAMPLES if t.method == "bs" else sig.AR_TRIALS
    if t.resamples is None and n > base:
        line += (f"; sacrebleu's default {base} could give no less than "
                 f"{sig.smallest_p(pairs, base):.4f}")
    return [line]

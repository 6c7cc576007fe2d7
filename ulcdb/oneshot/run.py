"""`ulcdb eval` as a library call: store the files, score them, test them, on sacrebleu's
scale and under sacrebleu's names where sacrebleu computes the metric.

sacrebleu's metric names (``bleu``, ``chrf``, ``chrf++``, ``ter``, any case) stand for ulcdb's
BLEU, chrF, chrF++ and -TER; every other name is a metric (or metric set) of ulcdb's catalogue.
Scores of sacrebleu's metrics come out as sacrebleu's own score objects, made by sacrebleu's
corpus formula from the segment statistics ulcdb stored (its numbers, signatures and verbose
lines); paired tests are ``ulcdb compare``'s, which equal sacrebleu's ``PairedTest``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from sacrebleu.metrics.base import Metric, Score, Signature
from sacrebleu.significance import Result
from sacrebleu.utils import sum_of_lists

from ulcdb.api import Database
from ulcdb.compare.measures import measure
from ulcdb.compare.run import ALPHA
from ulcdb.errors import UlcdbError
from ulcdb.formats.sacrebleu_json import SACREBLEU_METRICS
from ulcdb.ingest.load import load_testbed
from ulcdb.oneshot.confidence import with_interval
from ulcdb.oneshot.inputs import EvalFiles, EvalInputs, read_inputs
from ulcdb.ops.access import Opened
from ulcdb.ops.score import Request, scored
from ulcdb.ops.score import report as score_report
from ulcdb.scoring import selection
from ulcdb.scoring.report import display_scales, signatures
from ulcdb.scoring.scorer import Pair
from ulcdb.scoring.selection import ScoreSelection
from ulcdb.stats.sacrebleu_significance import SACREBLEU_SEED, resamples_needed, smallest_p
from ulcdb.store.database import Store, named_query

# sacrebleu's -m names -> ulcdb's metrics; the names sacrebleu prints for them.
SACREBLEU_ALIASES = {"bleu": "BLEU", "chrf": "chrF", "chrf++": "chrF++", "ter": "-TER"}
SACREBLEU_LABELS = {"BLEU": "BLEU", "chrF": "chrF2", "chrF++": "chrF2++", "-TER": "TER"}
PAIRED_DEFAULTS = {"bs": 1000, "ar": 10000}  # sacrebleu's --paired-bs-n / --paired-ar-n
# sacrebleu's -lc is BLEU's (`--lowercase: Use case-insensitive BLEU`); its chrF has its own
# --chrf-lowercase and its TER is case-insensitive whatever is asked.
CHRF_CASE = ("chrF", "chrF++")
# The tokenizer sacrebleu's -l chooses for BLEU into these target languages; eval's is 13a.
SACREBLEU_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


@dataclass(frozen=True)
class EvalRequest:
    """Everything `ulcdb eval` is asked: files, metrics, test, scale."""

    files: EvalFiles
    metrics: tuple[str, ...] = ("bleu",)
    paired: str | None = None  # 'bs' or 'ar'
    resamples: int | None = None
    seed: int = SACREBLEU_SEED
    confidence: int | None = None  # sacrebleu's --confidence: its resamples (--confidence-n)
    lowercase: bool = False  # sacrebleu's -lc: every metric but chrF
    chrf_lowercase: bool = False  # sacrebleu's --chrf-lowercase
    scale: float = 100.0
    src_lang: str | None = None
    tgt_lang: str | None = None
    save: Path | None = None
    name: str = "eval"


@dataclass
class EvalResult:
    """Scores per system label and metric label, as sacrebleu's objects, and signatures."""

    labels: list[str]  # system labels, in the order given (the baseline first)
    metrics: list[str]  # metric labels, in output order
    scores: dict[str, list[Score]] = field(default_factory=dict)  # metric -> per system
    results: dict[str, list[Result]] = field(default_factory=dict)  # paired tests
    signatures: dict[str, Signature | str] = field(default_factory=dict)
    paired: str | None = None
    n_samples: int = 0


def resolve_metrics(names: tuple[str, ...]) -> list[str]:
    """ulcdb metric names (or sets) for the ``-m`` values, sacrebleu's names mapped."""
    out: list[str] = []
    for given in names:
        for name in filter(None, (n.strip() for n in given.split(","))):
            metric = SACREBLEU_ALIASES.get(name.lower(), "-TER" if name == "TER" else name)
            if metric not in out:
                out.append(metric)
    if not out:
        raise UlcdbError("no metric given: -m bleu,chrf,ter (sacrebleu's names) or any "
                         "metric of `ulcdb list metrics`")
    return out


def evaluate(request: EvalRequest, stdin: BinaryIO | None = None) -> EvalResult:
    """Read, store, score and (with ``paired``) test; the store lives in memory unless
    ``save`` names one, where the test bed and scores stay as `ulcdb ingest` keeps them."""
    _check_request(request)
    inputs = read_inputs(request.files, request.name, stdin, request.src_lang,
                         request.tgt_lang)
    if request.paired and len(inputs.systems) < 2:
        raise UlcdbError("paired tests need two systems or more: -i BASELINE SYSTEM...")
    interval = request.confidence and not request.paired  # a paired test has its own
    if interval and len(inputs.systems) > 1:
        raise UlcdbError("--confidence is for one system, as sacrebleu's: with several, "
                         "--paired-bs gives each one's interval")
    metrics = resolve_metrics(request.metrics)
    _check_tokenizer(request, metrics)
    with Database(request.save or Path(":memory:")) as db:
        load_testbed(db.store, inputs.testbed)
        # sets' members, so that a set's chrF is cased as chrF named alone
        metrics = selection.resolve_metrics(db.store, db.store.testbed_id(request.name),
                                            ",".join(metrics))
        cases: dict[str, bool] = {}  # metric -> lowercased
        rows: dict[str, dict[str, object]] = {}  # system -> its scores
        for lowercase, group in _case_groups(metrics, request).items():
            wanted = Request(request.name, ",".join(group), lowercase=lowercase)
            with scored(Opened(db.store), wanted, pairs=_whole_refset) as done:
                report = score_report(done, "sys", sort="none")  # sacrebleu's order: -i's
            for metric in report.columns[5:]:
                cases.setdefault(metric, lowercase)
            for row in report.rows():
                scores = dict(zip(report.columns, row, strict=True))
                rows.setdefault(str(scores["translator"]), {}).update(
                    (m, v) for m, v in scores.items() if cases.get(m, lowercase) == lowercase)
        cases.pop("ULC", None)
        scored_metrics = sorted(cases, key=metrics.index)
        if interval and (others := [m for m in scored_metrics if m not in SACREBLEU_METRICS]):
            raise UlcdbError(f"--confidence gives sacrebleu's intervals, of bleu, chrf, chrf++ "
                             f"and ter: not of {', '.join(others)} (--paired-bs with a second "
                             "system gives its interval)")
        if request.paired:
            return _paired(db, request, inputs, scored_metrics, cases)
        return _scores(db.store, request, inputs, scored_metrics, cases, rows)


def _check_request(request: EvalRequest) -> None:
    """What the request alone shows wrong, named by eval's options (and sacrebleu's)."""
    if request.paired not in (None, "bs", "ar"):
        raise UlcdbError(f"unknown paired test {request.paired!r}: bs or ar")
    for n in (request.resamples, request.confidence):
        if n is not None and n <= 0:
            raise UlcdbError(f"the number of resamples must be positive, not {n}")
    n, need = request.resamples, resamples_needed(1, ALPHA)
    if request.paired and n is not None and n < need:
        # said here: the comparison's own refusal names compare's --resamples
        raise UlcdbError(
            f"-n {n} (sacrebleu's --paired-{request.paired}-n) cannot give a p-value below "
            f"{ALPHA:g} (the smallest is 1/{n + 1} = {smallest_p(1, n):.3g}): use at least "
            f"{need}, or leave it out ({PAIRED_DEFAULTS[request.paired]})")


def _check_tokenizer(request: EvalRequest, metrics: list[str]) -> None:
    """sacrebleu's -l into Chinese, Japanese or Korean scores BLEU with that language's
    tokenizer; eval's BLEU would be 13a's under the same command line, a number sacrebleu
    does not print."""
    tok = SACREBLEU_TOKENIZERS.get((request.tgt_lang or "").lower())
    if tok and "BLEU" in metrics:
        raise UlcdbError(f"-l {request.src_lang}-{request.tgt_lang}: sacrebleu scores BLEU into "
                         f"{request.tgt_lang} with its tokenizer tok:{tok}, which eval does not "
                         "offer (its BLEU is tok:13a): leave bleu out of -m, or run sacrebleu")


def _case_groups(metrics: list[str], request: EvalRequest) -> dict[bool, list[str]]:
    """The metrics scored lowercased and those scored as written, as sacrebleu's options say
    (-lc for BLEU and every metric of ulcdb, --chrf-lowercase for chrF)."""
    groups: dict[bool, list[str]] = {}
    for metric in metrics:
        lowercase = request.chrf_lowercase if metric in CHRF_CASE else request.lowercase
        groups.setdefault(lowercase, []).append(metric)
    return groups


def _whole_refset(store: Store, sel: ScoreSelection) -> list[Pair]:
    """Each system against all the references, the one score sacrebleu prints (not every
    pair QARLA needs, which `ulcdb score` computes)."""
    return [Pair(s, tuple(sorted(sel.refs))) for s in sel.systems]


def _scores(store: Store, request: EvalRequest, inputs: EvalInputs, metrics: list[str],
            cases: dict[str, bool], by_system: dict[str, dict[str, object]]) -> EvalResult:
    result = EvalResult([inputs.labels[s] for s in inputs.systems], [])
    scales = display_scales(store, metrics, request.scale)
    sigs = _stored_signatures(store, request, inputs, cases)
    for metric in metrics:
        sig: Signature | str
        if metric in SACREBLEU_METRICS:
            scorer = _sacrebleu_scorer(metric, cases[metric], len(inputs.refs))
            stats = _segment_stats(store, request.name, metric, inputs,
                                   _variant(cases[metric]))
            scores = [scorer._compute_score_from_stats(_summed(stats[s]))
                      for s in inputs.systems]
            if request.confidence:
                with_interval(scores[0], scorer, stats[inputs.systems[0]], request.confidence,
                              request.seed)
            label, sig = scores[0].name, scorer.get_signature()
        else:
            label, sig = metric, sigs.get(metric, "")
            scores = [Score(metric, _num(by_system[s][metric]) * scales[metric])
                      for s in inputs.systems]
        result.metrics.append(label)
        result.scores[label] = scores
        result.signatures[label] = sig
    return result


def _paired(db: Database, request: EvalRequest, inputs: EvalInputs, metrics: list[str],
            cases: dict[str, bool]) -> EvalResult:
    method = request.paired or "bs"
    n = request.resamples or PAIRED_DEFAULTS[method]
    rows = [row for lowercase in dict.fromkeys(cases.values()) for row in db.compare(
        ",".join(m for m in metrics if cases[m] == lowercase), baseline=inputs.systems[0],
        testbed=request.name, systems=",".join(inputs.systems), method=method, resamples=n,
        seed=request.seed, lowercase=lowercase).to_pylist()]
    scales = display_scales(db.store, metrics, request.scale)
    sigs = _stored_signatures(db.store, request, inputs, cases)
    result = EvalResult([inputs.labels[s] for s in inputs.systems], [], paired=method,
                        n_samples=n)
    for metric in metrics:
        mapped = _to_display(metric, scales[metric])
        by_system = {str(r["system"]): r for r in rows if r["metric"] == metric}
        label = SACREBLEU_LABELS.get(metric, metric)
        result.metrics.append(label)
        result.results[label] = [_result(by_system[s], mapped, scales[metric])
                                 for s in inputs.systems]
        result.signatures[label] = _paired_signature(metric, cases[metric], request, inputs,
                                                     sigs, method, n)
    return result


def _result(row: dict[str, object], mapped: Callable[[float], float], scale: float) -> Result:
    mean, ci, p = row.get("mean"), row.get("ci"), row.get("p_value")
    return Result(mapped(_num(row["score"])),
                  None if p is None else _num(p),
                  None if mean is None else mapped(_num(mean)),
                  None if ci is None else _num(ci) * scale)


def _to_display(metric: str, scale: float) -> Callable[[float], float]:
    """ulcdb's value -> the number printed: sacrebleu's TER is -(-TER), others scaled."""
    if metric == "-TER":
        return lambda v: -v * scale
    return lambda v: v * scale


def _paired_signature(metric: str, lowercase: bool, request: EvalRequest, inputs: EvalInputs,
                      stored: dict[str, str], method: str, n: int) -> Signature | str:
    """sacrebleu's signature with the test's seed and resamples, as PairedTest updates it."""
    if metric in SACREBLEU_METRICS:
        sig = _sacrebleu_scorer(metric, lowercase, len(inputs.refs)).get_signature()
        sig.update("seed", str(request.seed))
        sig.update(method, n)
        return sig
    # the paired table's score of a metric without statistics is the mean of its segment
    # scores (as `ulcdb compare`), not the corpus score eval prints without a test
    mean = measure(metric, True, len(inputs.refs)).kind == "mean"
    return (f"{stored.get(metric, metric)}|{method}:{n}|seed:{request.seed}"
            + ("|score:mean-seg" if mean else ""))


def _sacrebleu_scorer(metric: str, lowercase: bool, nrefs: int) -> Metric:
    scorer = SACREBLEU_METRICS[metric](lowercase)
    scorer.num_refs = nrefs  # what the signature says
    return scorer


def _segment_stats(store: Store, testbed: str, metric: str, inputs: EvalInputs,
                   variant: str) -> dict[str, list[list[float]]]:
    """Each system's segment statistics of ``metric`` against all references, in segment
    order."""
    rows = store.con.execute(named_query("summed_stats_rows"), {
        "testbed": testbed, "metric": metric, "refset": "+".join(sorted(inputs.refs)),
        "variant": variant}).fetchall()
    return dict(rows)


def _summed(stats: list[list[float]]) -> list[float]:
    """Corpus statistics, summed as sacrebleu sums them."""
    return [int(x) if float(x).is_integer() else x for x in sum_of_lists(stats)]


def _stored_signatures(store: Store, request: EvalRequest, inputs: EvalInputs,
                       cases: dict[str, bool]) -> dict[str, str]:
    out: dict[str, str] = {}
    for lowercase in dict.fromkeys(cases.values()):
        metrics = [m for m, lc in cases.items() if lc == lowercase]
        sigs = signatures(store, request.name, "sys", metrics, inputs.systems,
                          ["+".join(sorted(inputs.refs))], _variant(lowercase))
        out.update((m, s) for s, ms in sigs.items() for m in ms)
    return out


def _variant(lowercase: bool) -> str:
    return "case:lc" if lowercase else "case:mixed"


def _num(value: object) -> float:
    if not isinstance(value, int | float):
        raise UlcdbError(f"no score where one was expected ({value!r})")
    return float(value)

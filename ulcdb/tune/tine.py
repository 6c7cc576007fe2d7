"""Tuning TINE's weights as the paper does (section 4.1): a genetic algorithm over (alpha,
beta) maximising Kendall's tau with human scores on a development test bed.

Configuration (the paper's): fitness Kendall's tau (tau-b here: DA has ties), chromosome two
reals in [0, 1], 80 individuals, 100 generations, roulette selection, crossover probability
0.9 (one-point: the pair exchanges beta), mutation probability 0.01 per gene (a fresh uniform
value); seeded, and the best individual ever seen is the answer.  The tuned metric is stored
as ``TINE[alpha=A,beta=B]`` against the full reference set: per segment the maximum over
references of (A L + B A) / (A + B) from the stored TINE-L and TINE-A against each reference;
documents and system the mean of segment scores.  Its signature records the seed and the test
bed and criterion it was tuned on, so `ulcdb meta` can flag evaluation on that test bed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ulcdb.errors import UlcdbError
from ulcdb.interchange.load import ScoreImportReport, load_scores
from ulcdb.interchange.model import MetricInfo, ScoreFrame, ScoreSet, Source
from ulcdb.metrics.base import Params
from ulcdb.scoring.progress import Progress, scoring_steps, silent
from ulcdb.scoring.scorer import Pair, Scorer, variant_of
from ulcdb.stats import correlations as stats
from ulcdb.stats.correlations import FloatArray
from ulcdb.store.database import Store, named_query

INDIVIDUALS, GENERATIONS, CROSSOVER, MUTATION = 80, 100, 0.9, 0.01


@dataclass(frozen=True)
class Tuned:
    alpha: float
    beta: float
    fitness: float
    seed: int

    @property
    def name(self) -> str:
        return f"TINE[alpha={self.alpha:.2f},beta={self.beta:.2f}]"


def genetic_search(fitness: Callable[[float, float], float], seed: int = 1234,
                   individuals: int = INDIVIDUALS, generations: int = GENERATIONS,
                   crossover: float = CROSSOVER, mutation: float = MUTATION,
                   tick: Callable[[], None] = lambda: None) -> Tuned:
    """The best (alpha, beta) in [0, 1]^2 the GA meets (undefined fitness counts as worst);
    ``tick`` hears each of the generations + 1 populations evaluated."""
    rng = np.random.default_rng(seed)
    pop = rng.random((individuals, 2))
    best: tuple[float, float, float] = (math.nan, math.nan, -math.inf)
    for _ in range(generations + 1):
        fits = np.array([fitness(float(a), float(b)) for a, b in pop])
        fits = np.where(np.isfinite(fits), fits, -np.inf)
        i = int(np.argmax(fits))
        if fits[i] > best[2]:
            best = (float(pop[i, 0]), float(pop[i, 1]), float(fits[i]))
        pop = _next_generation(rng, pop, fits, crossover, mutation)
        tick()
    if not math.isfinite(best[2]):
        raise UlcdbError("no (alpha, beta) gives a defined correlation")
    return Tuned(best[0], best[1], best[2], seed)


def _next_generation(rng: np.random.Generator, pop: FloatArray, fits: FloatArray,
                     crossover: float, mutation: float) -> FloatArray:
    finite = np.where(np.isfinite(fits), fits, np.nan)
    low = np.nanmin(finite) if np.isfinite(finite).any() else 0.0
    weights = np.where(np.isfinite(fits), fits - low, 0.0) + 1e-12  # roulette on shifted
    parents = pop[rng.choice(len(pop), size=len(pop), p=weights / weights.sum())]
    children = parents.copy()
    for k in range(0, len(pop) - 1, 2):
        if rng.random() < crossover:
            children[k, 1], children[k + 1, 1] = parents[k + 1, 1], parents[k, 1]
    mutate = rng.random(children.shape) < mutation
    children[mutate] = rng.random(int(mutate.sum()))
    return children


def combined(lex: FloatArray, ade: FloatArray, alpha: float, beta: float) -> FloatArray:
    """Per item the maximum over references (columns) of (alpha L + beta A)/(alpha + beta)."""
    if alpha + beta <= 0:
        return np.full(lex.shape[0], np.nan)
    best: FloatArray = np.nanmax((alpha * lex + beta * ade) / (alpha + beta), axis=1)
    return best


@dataclass
class TuningData:
    """Per (system, segment): the components against each reference, and the human score."""

    keys: list[tuple[str, int, str]]  # (system, seg_id, doc_id)
    lex: FloatArray  # items x references
    ade: FloatArray
    refs: list[str]


def tuning_data(store: Store, testbed: str, refs: list[str], variant: str) -> TuningData:
    rows = store.query(named_query("tune_tine_scores"), [testbed, variant, refs])
    keys = sorted({(t, s, d) for t, s, d, *_ in rows})
    index = {k: i for i, k in enumerate(keys)}
    lex = np.full((len(keys), len(refs)), np.nan)
    ade = np.full((len(keys), len(refs)), np.nan)
    for t, s, d, refset, metric, value in rows:
        target = lex if metric == "TINE-L" else ade
        target[index[(t, s, d)], refs.index(refset)] = np.nan if value is None else value
    if not keys:
        raise UlcdbError(f"no TINE-L/TINE-A segment scores against {', '.join(refs)} in "
                         f"test bed {testbed!r}: score TINE first")
    return TuningData(keys, lex, ade, refs)


def fitness_for(data: TuningData, human: dict[tuple[str, int | None], float],
                level: str) -> Callable[[float, float], float]:
    """Kendall's tau-b of the combined metric with the humans.  Segment level: over the
    judged (system, segment) items (``human`` keyed by (system, seg_id)); system level: the
    systems' human scores (keyed by (system, None)) against the mean of their segment
    scores, as the stored system score is."""
    if level == "sys":
        return _sys_fitness(data, {k[0]: v for k, v in human.items()})
    judged = [i for i, (t, s, _) in enumerate(data.keys) if (t, s) in human]
    if len(judged) < 2:
        raise UlcdbError("fewer than 2 judged segments with TINE scores: nothing to tune on")
    h = np.array([human[data.keys[i][:2]] for i in judged])
    lex, ade = data.lex[judged], data.ade[judged]

    def tau(w: float) -> float:
        m = combined(lex, ade, 1 - w, w)
        keep = ~np.isnan(m)
        return stats.kendall_tau_b(h[keep], m[keep])

    return _by_ratio(tau)


def _sys_fitness(data: TuningData, human: dict[str, float]) -> Callable[[float, float], float]:
    systems = sorted({t for t, _, _ in data.keys} & set(human))
    if len(systems) < 2:
        raise UlcdbError("fewer than 2 systems with human scores and TINE scores: nothing to "
                         "tune on")
    h = np.array([human[s] for s in systems])
    members = [np.array([i for i, k in enumerate(data.keys) if k[0] == s]) for s in systems]

    def tau(w: float) -> float:
        m = combined(data.lex, data.ade, 1 - w, w)
        return stats.kendall_tau_b(h, np.array([np.nanmean(m[g]) for g in members]))

    return _by_ratio(tau)


def _by_ratio(tau: Callable[[float], float]) -> Callable[[float, float], float]:
    """The fitness of (alpha, beta), memoised on beta / (alpha + beta): the ranking the
    combined metric gives depends on that ratio only."""
    memo: dict[float, float] = {}

    def fitness(alpha: float, beta: float) -> float:
        if alpha + beta <= 0:
            return math.nan
        w = round(beta / (alpha + beta), 9)
        if w not in memo:
            memo[w] = float(tau(w))
        return memo[w]

    return fitness


def store_tuned(store: Store, testbed: str, data: TuningData, tuned: Tuned, variant: str,
                criterion: str, level: str) -> ScoreImportReport:
    """The tuned metric's segment, document and system scores against all the references."""
    seg = combined(data.lex, data.ade, tuned.alpha, tuned.beta)
    sets: dict[tuple[str, str], ScoreSet] = {}
    refs = tuple(data.refs)
    by_doc: dict[tuple[str, str], list[float]] = {}
    for (system, seg_id, doc_id), value in zip(data.keys, seg, strict=True):
        v = None if np.isnan(value) else float(value)
        sets.setdefault((system, "seg"), ScoreSet(tuned.name, system, refs, "seg")).add(
            v, seg=seg_id)
        if v is not None:
            by_doc.setdefault((system, doc_id), []).append(v)
    for (system, doc_id), values in by_doc.items():
        sets.setdefault((system, "doc"), ScoreSet(tuned.name, system, refs, "doc")).add(
            float(np.mean(values)), doc_id=doc_id)
    for system in sorted({k[0] for k in data.keys}):
        values = [v for (t, _, _), v in zip(data.keys, seg, strict=True)
                  if t == system and not np.isnan(v)]
        sets[(system, "sys")] = ScoreSet(tuned.name, system, refs, "sys",
                                         [float(np.mean(values))] if values else [None],
                                         [None], [None], [None])
    signature = (f"{tuned.name}|tuned:ga-{INDIVIDUALS}x{GENERATIONS}|seed:{tuned.seed}|"
                 f"fitness:kendall_tau_b={tuned.fitness:.4f}|tuned-on:{testbed}|"
                 f"criterion:{criterion}|level:{level}")
    info = MetricInfo(tuned.name, True, 0.0, 1.0,
                      f"TINE with alpha {tuned.alpha:.4f} and beta {tuned.beta:.4f}, tuned by "
                      f"the paper's genetic algorithm on test bed {testbed!r} against "
                      f"{criterion} ({level} level; seed {tuned.seed}). " + _SAME, "ulcdb tune")
    frame = ScoreFrame.from_sets(sets.values(), Source("ulcdb tune", "tune", signature),
                                 testbed, {tuned.name: info})
    return load_scores(store, frame, variant)


_SAME = ("Segment: max over references of (alpha L + beta A) / (alpha + beta) from the stored "
         "TINE-L and TINE-A; documents and system: mean of segment scores.")


def human_scores(store: Store, testbed: str, criterion: str, level: str
                 ) -> dict[tuple[str, int | None], float]:
    """The humans as ``ulcdb meta`` reads them (view meta_human): (system, seg_id) at segment
    level, (system, None) at system level."""
    rows = store.query(named_query("tune_human"), [testbed, level, criterion])
    return {(t, s if level == "seg" else None): float(v) for t, s, v in rows}


def tune(store: Store, testbed: str, systems: list[str], refs: list[str], params: Params,
         criterion: str, level: str, seed: int = 1234, jobs: int | None = None,
         progress: Progress | None = None) -> tuple[Tuned, ScoreImportReport]:
    """Score TINE-L and TINE-A of ``systems`` against each reference (what is missing), run
    the genetic algorithm against ``criterion`` at ``level`` and store the tuned metric;
    ``progress`` hears the pairs scored (per family), then each generation evaluated."""
    if level not in ("seg", "sys"):
        raise UlcdbError(f"tuning level must be seg or sys, not {level!r}")
    parts, pairs = ["TINE-L", "TINE-A"], [Pair(s, (r,)) for s in systems for r in refs]
    with (progress or silent)(scoring_steps(parts, len(pairs)) + GENERATIONS + 1) as advance:
        Scorer(store, testbed, params, jobs).run(parts, pairs, progress=advance)
        data = tuning_data(store, testbed, refs, variant_of(params))
        human = human_scores(store, testbed, criterion, level)
        data = TuningData([k for k in data.keys if k[0] in systems], *_rows_of(data, systems))
        tuned = genetic_search(fitness_for(data, human, level), seed,
                               tick=lambda: advance("generations", 1))
    return tuned, store_tuned(store, testbed, data, tuned, variant_of(params), criterion,
                              level)


def _rows_of(data: TuningData, systems: list[str]) -> tuple[FloatArray, FloatArray, list[str]]:
    keep = [i for i, k in enumerate(data.keys) if k[0] in systems]
    return data.lex[keep], data.ade[keep], data.refs

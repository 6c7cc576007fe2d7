"""Benchmark: QUEEN and KING for 10 metrics on the full WMT21 en-de test bed (20 systems,
references A, C, D, 1002 segments) through the SQL macros, against a straightforward numpy
implementation on the same stored numbers, in the same run.

Steps: ingest the test bed into a temporary store (as bench_ingest.py does), score the 10
lexical metrics with the scoring engine (every pair QARLA needs), then time
- SQL: queen(X, 'all') (segment and system rows) and
  king(X, 'seg', measures := ['single', 'ulc']);
- numpy: read the segment scores from the store into arrays, then the same numbers.  The
  straightforward read goes through the `scores` view (names); a tuned read of the raw
  seg_score table (integer ids) is timed too, and numpy's computation on its own.
Both must agree (QUEEN exactly, KING/ORANGE to 1e-12).  The time DuckDB takes to plan each
SQL query (part of its wall time) is printed last.  Goal (issue 28): SQL within 1.5x of
numpy reading seg_score by ids.  Every step's CPU time (the process's, DuckDB's threads
included) is printed next to its wall time: on a loaded machine the wall time of a query
with many pipelines grows much more than its CPU time.  QUEEN and KING are timed apart, and
next to them a floor: the rows each measure reads, read once and regrouped once by (target,
reference set, segment) with DuckDB's hash aggregate, without any comparison, the step
where the metrics of a unit meet (numpy writes them into arrays instead); no SQL formulation
of the macros does less.

Run: python benchmarks/bench_qarla.py [--shared ../shared] [--db kept.duckdb] [--repeat 5]
[--threads N]
(--db keeps the scored store, so a second run skips ingesting and scoring.)
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path

import numpy as np

from ulcdb.formats.plain import read_plain
from ulcdb.ingest.load import load_testbed
from ulcdb.metrics.base import Params
from ulcdb.scoring.scorer import Scorer, plan_pairs, variant_of
from ulcdb.store.database import Store

METRICS = ["BLEU", "BLEU-2", "BLEU-4", "NIST", "NIST-2", "GTM-1", "GTM-2", "GTM-3", "-PER",
           "Ol"]
REFS = ["ref-A", "ref-C", "ref-D"]
TESTBED = "ende"
GOAL = 1.5  # SQL / numpy (issue 28)
WHERE = "refs := ?, systems := ?) where testbed = ? and variant = ?"  # the macros' tail


@dataclass
class Results:
    queen_seg: dict[tuple[str, int], float]
    queen_sys: dict[str, float]
    king: dict[str, tuple[float, float]]  # measure -> (KING, ORANGE)


# -- building the store ----------------------------------------------------------------------

def build(tb: Path, db: Path, jobs: int | None) -> None:
    with Store(db) as store:
        systems = {p.name.split(".")[0]: p for p in sorted((tb / "systems").glob("*.de.txt"))}
        if store.scalar("select count(*) from testbed where name = ?", [TESTBED]) == 0:
            start = time.perf_counter()
            refs = {r: tb / "refs" / f"{r}.de.txt" for r in REFS}
            data = read_plain(TESTBED, tb / "source.en.txt", refs, systems, tb / "docs.tsv",
                              "en", "de")
            load_testbed(store, data)
            print(f"ingest: {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        scorer = Scorer(store, TESTBED, Params(), jobs)
        report = scorer.run(METRICS, plan_pairs(list(systems), REFS))
        print(f"scoring: {report.summary()} in {time.perf_counter() - start:.1f} s")


# -- SQL -----------------------------------------------------------------------------------

def sql_queen(store: Store, variant: str, systems: list[str]) -> Results:
    rows = store.query(f"select level, translator, seg_id, queen from queen(?, 'all', {WHERE} "
                       "and role = 'system' and level <> 'doc'",
                       [METRICS, REFS, systems, TESTBED, variant])
    return Results({(t, s): q for lv, t, s, q in rows if lv == "seg"},
                   {t: q for lv, t, _, q in rows if lv == "sys"}, {})


def sql_king(store: Store, variant: str, systems: list[str]) -> Results:
    rows = store.query("select measure, king, orange from king(?, 'seg', measures := "
                       f"['single', 'ulc'], {WHERE}", [METRICS, REFS, systems, TESTBED, variant])
    return Results({}, {}, {m: (k, o) for m, k, o in rows})


def floor_run(store: Store, variant: str, systems: list[str]) -> int:
    """What any SQL formulation costs at least in DuckDB: read the rows each measure needs
    once and regroup them once by (target, reference set, segment), the step where the 10
    metrics of a unit meet (numpy does it by writing into arrays).  QUEEN: the systems' and
    references' scores against single references; KING: the scores against R - {h}, and the
    bounds of the systems against R.  Returns the number of groups."""
    tid = store.testbed_id(TESTBED)
    ids = store.translators(tid)
    targets = [ids[x] for x in [*systems, *REFS]]
    refsets = dict(store.query("select name, refset_id from refset where testbed_id = ?", [tid]))
    metric_ids = [m for (m,) in store.query("select metric_id from metric where "
                                            "list_contains(?, name)", [METRICS])]
    single = [refsets[r] for r in REFS]
    rest = [refsets["+".join(sorted(o for o in REFS if o != r))] for r in REFS]
    full = [refsets["+".join(sorted(REFS))]]
    groups = 0
    for sets, agg in ((single, "bit_and(value::bigint)"), (rest, "sum(value)"),
                      (full, "max(value)")):
        keys = "metric_id" if sets == full else "translator_id, refset_id, seg_id"
        groups += len(store.query(
            f"select {keys}, {agg}, count(*) from seg_score where variant = ? "
            "and list_contains(?, metric_id) and list_contains(?, refset_id) "
            "and list_contains(?, translator_id) group by all",
            [variant, metric_ids, sets, targets]))
    return groups


# -- numpy ---------------------------------------------------------------------------------

@dataclass
class Arrays:
    single: np.ndarray  # [metric, translator, reference, segment]: x(t, r)
    rest: np.ndarray  # [metric, translator, held-out reference, segment]: t vs R - {h}
    full: np.ndarray  # [metric, translator, segment]: t vs R
    names: list[str]  # translators: systems first, then REFS
    n_systems: int


def numpy_read(store: Store, variant: str, systems: list[str], tuned: bool = False) -> Arrays:
    """The segment scores of the metrics, from the store into arrays: through the `scores`
    view with names (the straightforward way), or tuned: the raw table with integer ids."""
    names = [*systems, *REFS]
    refsets = {r: (0, i) for i, r in enumerate(REFS)}  # single reference r
    refsets |= {"+".join(sorted(o for o in REFS if o != r)): (1, i) for i, r in enumerate(REFS)}
    refsets["+".join(sorted(REFS))] = (2, 0)  # R
    n_seg = int(store.scalar("select count(*) from segment join testbed using (testbed_id) "
                             "where name = ?", [TESTBED]))
    fetch = _fetch_ids if tuned else _fetch_names
    m, t, k, p, n, v = fetch(store, variant, names, refsets)
    shape = (len(METRICS), len(names), len(REFS), n_seg)
    single, rest = np.full(shape, np.nan), np.full(shape, np.nan)
    full = np.full(shape[:2] + (n_seg,), np.nan)
    ok = t >= 0
    for code, target in ((0, single), (1, rest)):
        sel = ok & (k == code)
        target[m[sel], t[sel], p[sel], n[sel]] = v[sel]
    sel = ok & (k == 2)
    full[m[sel], t[sel], n[sel]] = v[sel]
    return Arrays(single, rest, full, names, len(systems))


def _fetch_names(store: Store, variant: str, names: list[str], refsets: dict) -> tuple:
    cols = store.con.execute(
        "select metric, translator, refset, seg_id, value from scores where testbed = ? "
        "and variant = ? and level = 'seg' and list_contains(?, metric) "
        "and list_contains(?, refset)",
        [TESTBED, variant, METRICS, list(refsets)]).fetchnumpy()
    metric = {name: i for i, name in enumerate(METRICS)}
    target = {name: i for i, name in enumerate(names)}
    m = np.array([metric[x] for x in cols["metric"]])
    t = np.array([target.get(x, -1) for x in cols["translator"]])
    kp = np.array([refsets[x] for x in cols["refset"]])
    return m, t, kp[:, 0], kp[:, 1], cols["seg_id"] - 1, cols["value"].astype(float)


def _fetch_ids(store: Store, variant: str, names: list[str], refsets: dict) -> tuple:
    tid = store.testbed_id(TESTBED)
    ids = store.translators(tid)
    t_index = np.full(max(ids.values()) + 1, -1)
    t_index[[ids[x] for x in names]] = np.arange(len(names))
    refset_ids = dict(store.query("select name, refset_id from refset where testbed_id = ?",
                                  [tid]))
    kind = np.full(max(refset_ids.values()) + 1, -1)
    pos = np.zeros_like(kind)
    for name, (code, i) in refsets.items():
        kind[refset_ids[name]], pos[refset_ids[name]] = code, i
    metric_ids = dict(store.query("select name, metric_id from metric where list_contains(?, "
                                  "name)", [METRICS]))
    m_index = np.full(max(metric_ids.values()) + 1, -1)
    m_index[[metric_ids[x] for x in METRICS]] = np.arange(len(METRICS))
    cols = store.con.execute(
        "select s.metric_id, s.translator_id, s.refset_id, s.seg_id, s.value from seg_score s "
        "join translator t using (translator_id) where t.testbed_id = ? and s.variant = ? "
        "and list_contains(?, s.metric_id)",
        [tid, variant, list(metric_ids.values())]).fetchnumpy()
    r = cols["refset_id"]
    return (m_index[cols["metric_id"]], t_index[cols["translator_id"]], kind[r], pos[r],
            cols["seg_id"] - 1, cols["value"].astype(float))


def numpy_compute(a: Arrays) -> Results:
    ns, nr = a.n_systems, len(REFS)
    # QUEEN: x(s, r) >= x(r1, r2) for every metric, r free, r1 != r2
    pairs = list(permutations(range(nr), 2))
    ref_sims = a.single[:, ns:, :, :]  # [m, r1, r2, seg]
    pair_x = np.stack([ref_sims[:, i, j, :] for i, j in pairs], axis=1)  # [m, pair, seg]
    target = a.single[:, :ns, :, :]  # [m, system, r, seg]
    hit = (target[:, :, :, None, :] >= pair_x[:, None, None, :, :]).all(axis=0)
    hits = hit.sum(axis=(1, 2))  # [system, seg]
    triples = nr * len(pairs)
    systems = a.names[:ns]
    queen_seg = {(s, n + 1): hits[i, n] / triples for i, s in enumerate(systems)
                 for n in range(hits.shape[1])}
    queen_sys = {s: hits[i].sum() / (triples * hits.shape[1]) for i, s in enumerate(systems)}
    # KING: each reference h against R - {h}, every system against R - {h}
    own = np.stack([a.rest[:, ns + h, h, :] for h in range(nr)], axis=1)  # [m, h, seg]
    others = a.rest[:, :ns, :, :]  # [m, system, h, seg]
    king = {m: _king(others[i], own[i]) for i, m in enumerate(METRICS)}
    hi = np.maximum(0, np.nanmax(a.full[:, :ns, :], axis=(1, 2)))[:, None, None, None]
    lo = np.minimum(0, np.nanmin(a.full[:, :ns, :], axis=(1, 2)))[:, None, None, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        norm = np.where(hi - lo == 0, 0.0, np.where(lo == 0, a.rest / hi, (a.rest - lo) /
                                                    (hi - lo)))
    # ULC as king_quality sums it: in fixed point (units of 2^-40), so that ties are exact
    fixed = np.round(np.nan_to_num(norm) * 2.0 ** 40).astype(np.int64)
    ulc = np.where(np.isnan(norm).any(axis=0), np.nan, fixed.sum(axis=0))  # [translator, h, seg]
    own_ulc = np.stack([ulc[ns + h, h, :] for h in range(nr)], axis=0)
    king["ULC"] = _king(ulc[:ns], own_ulc)
    return Results(queen_seg, queen_sys, king)


def _king(systems_q: np.ndarray, ref_q: np.ndarray) -> tuple[float, float]:
    """systems_q [system, h, seg], ref_q [h, seg] -> (KING, ORANGE)."""
    beaten = systems_q <= ref_q[None, :, :]
    return float(beaten.all(axis=0).mean()), float(beaten.mean())


# -- the run -------------------------------------------------------------------------------

def agree(sql: Results, ref: Results) -> None:
    if sql.queen_seg != ref.queen_seg or sql.queen_sys != ref.queen_sys:
        bad = [k for k in ref.queen_seg if sql.queen_seg.get(k) != ref.queen_seg[k]]
        raise SystemExit(f"QUEEN differs on {len(bad)} segments, e.g. {bad[:3]}")
    for m, (k, o) in ref.king.items():
        got = sql.king.get(m)
        if got is None or abs(got[0] - k) > 1e-12 or abs(got[1] - o) > 1e-12:
            raise SystemExit(f"KING/ORANGE of {m} differ: SQL {got}, numpy {(k, o)}")


def bench(db: Path, repeat: int, threads: int | None = None) -> None:
    """Every round runs each step once (so changes in the machine's load hit them alike);
    each step's fastest round counts (SQL: the fastest round of QUEEN + KING)."""
    steps = {
        "queen": sql_queen,
        "king": sql_king,
        "floor": floor_run,
        "read": lambda store, variant, systems: numpy_read(store, variant, systems),
        "read_ids": lambda store, variant, systems: numpy_read(store, variant, systems, True),
    }
    best = dict.fromkeys([*steps, "sql", "compute"], float("inf"))
    cpu = dict(best)
    with Store(db) as store:
        if threads:
            store.con.execute(f"set threads = {int(threads)}")
        print("DuckDB threads:", store.scalar("select current_setting('threads')"))
        variant = variant_of(Params())
        systems = list(store.translators(store.testbed_id(TESTBED), "system"))
        for _ in range(repeat):
            out, wall, used = {}, {}, {}
            for name, step in steps.items():
                out[name], wall[name], used[name] = _timed(step, store, variant, systems)
            ref, wall["compute"], used["compute"] = _timed(numpy_compute, out["read"])
            wall["sql"], used["sql"] = wall["queen"] + wall["king"], used["queen"] + used["king"]
            for name in best:
                best[name], cpu[name] = min(best[name], wall[name]), min(cpu[name], used[name])
            sql = Results(out["queen"].queen_seg, out["queen"].queen_sys, out["king"].king)
            agree(sql, ref)
            agree(sql, numpy_compute(out["read_ids"]))
    _report(best, ref, len(systems), repeat)
    numpy_cpu = cpu["read_ids"] + cpu["compute"]
    print(f"CPU time: SQL {cpu['sql']:.3f} s (QUEEN {cpu['queen']:.3f} s, KING "
          f"{cpu['king']:.3f} s), numpy reading seg_score by ids {cpu['read_ids']:.3f} s + "
          f"compute {cpu['compute']:.3f} s; ratio {cpu['sql'] / numpy_cpu:.2f}; DuckDB floor "
          f"{cpu['floor']:.3f} s (ratio {cpu['floor'] / numpy_cpu:.2f})")
    with Store(db) as store:
        plan = planning(store, variant_of(Params()), systems, repeat)
    print(f"planning (PREPARE of the same queries, values written in): QUEEN {plan['queen']:.1f}"
          f" ms, KING {plan['king']:.1f} ms")


def planning(store: Store, variant: str, systems: list[str], repeat: int) -> dict[str, float]:
    """Milliseconds DuckDB takes to plan each SQL step (fastest of ``repeat``): PREPARE with
    the values written into the text, so that they are constants when planned, as the
    parameters of a direct call are."""
    def text(values: list[str] | str) -> str:
        if isinstance(values, str):
            return "'" + values.replace("'", "''") + "'"
        return "[" + ", ".join(text(v) for v in values) + "]"

    tail = (f"refs := {text(REFS)}, systems := {text(systems)}) where testbed = "
            f"{text(TESTBED)} and variant = {text(variant)}")
    sql = {"queen": f"select level, translator, seg_id, queen from queen({text(METRICS)}, 'all', "
                    f"{tail} and role = 'system' and level <> 'doc'",
           "king": f"select measure, king, orange from king({text(METRICS)}, 'seg', measures := "
                   f"['single', 'ulc'], {tail}"}
    best = dict.fromkeys(sql, float("inf"))
    for i in range(repeat):
        for name, query in sql.items():
            start = time.perf_counter()
            store.con.execute(f"prepare bench_plan_{name}_{i} as {query}")
            best[name] = min(best[name], (time.perf_counter() - start) * 1000)
    return best


def _report(best: dict[str, float], ref: Results, n_systems: int, repeat: int) -> None:
    print(f"{len(METRICS)} metrics, {n_systems} systems, {len(REFS)} references, "
          f"{len(ref.queen_seg) // n_systems} segments; SQL and numpy agree "
          f"(fastest of {repeat} rounds below)")
    print("per-metric KING (seg): " + ", ".join(f"{m} {k:.4f}" for m, (k, _) in
                                                ref.king.items()))
    print(f"SQL   queen(X, 'all') + king(X, 'seg', single + ulc):    {best['sql']:.3f} s "
          f"(QUEEN {best['queen']:.3f} s, KING {best['king']:.3f} s)")
    numpy_view = best["read"] + best["compute"]
    numpy_ids = best["read_ids"] + best["compute"]
    print(f"numpy reading the scores view {best['read']:.3f} s + compute {best['compute']:.3f} s"
          f" = {numpy_view:.3f} s")
    print(f"numpy reading seg_score by ids {best['read_ids']:.3f} s + compute "
          f"{best['compute']:.3f} s = {numpy_ids:.3f} s")
    for label, peer in (("numpy reading the scores view", numpy_view),
                        ("numpy reading seg_score by ids", numpy_ids)):
        ratio = best["sql"] / peer
        print(f"ratio SQL / {label}: {ratio:.2f} (goal <= {GOAL}: "
              f"{'met' if ratio <= GOAL else 'NOT met'})")
    print(f"ratio SQL / numpy's computation alone: {best['sql'] / best['compute']:.0f}")
    print(f"DuckDB floor (each measure's rows read and regrouped once by target, reference set "
          f"and segment, no comparison): {best['floor']:.3f} s, ratio to numpy reading "
          f"seg_score by ids {best['floor'] / numpy_ids:.2f}")


def _timed(fn, *args):
    """The result, the wall time and the CPU time of the process (every thread)."""
    start, cpu = time.perf_counter(), _cpu()
    out = fn(*args)
    return out, time.perf_counter() - start, _cpu() - cpu


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--db", type=Path, help="keep the scored store here (reused if present)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None,
                        help="DuckDB threads for the timed steps (default: DuckDB's own)")
    args = parser.parse_args()
    tb = args.shared / "testbeds" / "wmt21_newstest2021_ende"
    if not tb.is_dir():
        raise SystemExit(f"test bed not found: {tb}")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "qarla.duckdb"
        build(tb, db, args.jobs)
        bench(db, args.repeat, args.threads)


if __name__ == "__main__":
    main()

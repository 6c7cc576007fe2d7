"""Campaign scale: a synthetic WMT metrics campaign N times the WMT20 release, measured.

For each --factor N (default 1 4 16) a child process (one per factor) builds a synthetic
release in the layout of the shared ``wmt20_metrics`` folder (input_details, human DA at three
levels, outliers, metric files at seg/doc/sys level) with 4N language pairs: pair i copies the
layout, systems, metrics and DA of real pair i mod 4 under a new language pair name; replica 0
is the real release, every other replica's metric scores are the real score of the same metric,
system and unit plus a seeded jitter of +-2% of that metric's spread at that level (a hash of the
key and the seed: deterministic, no RNG state), so values follow the real distributions and
metric/human correlations stay realistic.  One language pair keeps its size at every factor,
so the one-pair commands show what the other pairs cost them.

QUEEN and KING need three references and their scores against each other, which the release
does not give ulcdb: de-en, ru-en and zh-en have two references (en-de three: A, B, P), and
its reference-vs-reference scores are rows of the systems ``Human-A.0`` ... (the references'
texts, imported as systems).  So every pair also gets, for the metrics with segment scores
against each of its real references (QUEEN reads segment scores only; de-en has four: TER,
chrF, parbleu, parchrf++), at every level (``qarla_recipes``):
- each reference against each other one under the reference's name: the ``Human-X.0`` rows,
  same values (in replica 0 the real ones);
- on two-reference pairs a third reference ``ref-C``: every row against reference B copied
  as against ref-C, and ref-C against A and B and they against it from the human rows, each a
  copy with its own jitter, in every replica;
- at system level (what ``king -G sys`` reads) the scores against each leave-one-out set
  (``ref-A+ref-C`` ...) and the whole set: the rows against reference A copied, jittered, for
  every system without a real row there; the held-out reference's from its human output's.
So replica 0 is no longer the pure real release: its real rows are all there, unchanged, plus
these (ref-C's synthetic).  They add 23% to the scores (factor 1: 0.43M segment, 39k
document and 1.3k system scores on 2.03M); --no-qarla leaves them out, which is the campaign
of the figures measured before (queen/king are then refused).

It then times, each as its own ``ulcdb`` process (peak RSS from wait4):
  ingest    ``ingest scores ROOT --format wmt20`` (scores/s, peak RSS, file bytes per score)
  meta-sys  ``meta -t ONE -G sys -B 1000 -r ref-A+ref-B``;  meta-seg: the same at seg level
  protocol  ``meta --protocol wmt24 -t ONE -r ref-A+ref-B``;  protocol-all: over every
            pair (--testbeds, reference A; not in the default list: its time is the one
            pair's times 4N)
  queen, king  ``-G sys`` on ONE over the metrics ``qarla_metrics`` picks (up to 10)
  compare   ``compare -t ONE -m METRIC --pairs`` (every pair of systems)
  sql       leaderboard: best metric per language pair by system-level Kendall tau
  serve     ``serve``: seconds to the first answer, to the mirror's tables (what browsing
            needs) and to the complete mirror (analyses, waited for up to --timeout), bytes
It prints one row per factor, the exponent k of time ~ factor^k between consecutive factors,
and a linear projection of each figure to 10^9 scores from the largest factor measured.

Run: python benchmarks/bench_scale.py [--factor 1 4 16] [--only ingest meta-seg ...]
     [--work DIR] [--keep] [--timeout S] [--no-qarla]
The machine is shared: keep to the factors and commands you need.  The factors run one after
another, so a change in the machine's load lands on the exponents: on a busy machine keep the
stores (--keep) and time the one-pair commands again alternating between them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ULCDB_SHARED", REPO.parent / "shared"))
REAL = SHARED / "testbeds" / "wmt20_metrics"
ONE = "newstest2020:de-en"
# the release's own reference set of ONE (newstestM2020), what its metrics scored at every
# level: the default, every reference, would take in the synthetic ref-C, which has no
# segment scores against the whole set
ONE_REFS = "ref-A+ref-B"
COMMANDS = ("ingest", "meta-sys", "meta-seg", "protocol", "protocol-all", "queen", "king",
            "compare", "sql", "serve")
DEFAULT = ("ingest", "meta-sys", "meta-seg", "protocol", "queen", "king", "compare", "sql",
           "serve")  # protocol-all (about 90 s a pair on the busy 2-core machine): --only
# language codes for the synthetic pairs (real ISO 639-1 codes, none of WMT20's four)
CODES = ("cs ja pl ta km ps iu fr es it pt nl sv fi et lv lt ro bg hr sl sk hu el tr ar he hi "
         "bn ko vi th uk kk is ha xh zu sw uz ka hy az be mk sq bs ga cy eu gl ca af am my ne "
         "si ur fa id ms tl mn lo").split()
RAW = "delim='\t', header=false, quote='', escape='', auto_detect=false"
COLS = {"seg": "'metric': 'varchar', 'lp': 'varchar', 'testset': 'varchar', "
               "'refset': 'varchar', 'system': 'varchar', 'docid': 'varchar', "
               "'seg': 'varchar', 'score': 'double'",
        "doc": "'metric': 'varchar', 'lp': 'varchar', 'testset': 'varchar', "
               "'refset': 'varchar', 'system': 'varchar', 'docid': 'varchar', "
               "'score': 'double'",
        "sys": "'metric': 'varchar', 'lp': 'varchar', 'testset': 'varchar', "
               "'refset': 'varchar', 'system': 'varchar', 'score': 'double'"}
LEADERBOARD = REPO / "benchmarks" / "leaderboard.sql"


def pair_names(real: list[str], factor: int) -> dict[str, str]:
    """Synthetic language pair -> the real pair it copies (the real four first)."""
    names = {lp: lp for lp in real}
    codes = iter(CODES)
    for i in range(len(real), len(real) * factor):
        base = real[i % len(real)]
        try:
            code = next(codes)
        except StopIteration:
            code = f"x{i}"
        names["en-" + code if base.startswith("en-") else code + "-en"] = base
    return names


def build(out: Path, factor: int, seed: int = 1, qarla: bool = True) -> dict[str, str]:
    """The synthetic release under ``out`` (``qarla``: with the rows QUEEN and KING need);
    returns its pair -> real pair map."""
    real = sorted(p.stem for p in (REAL / "input_details").glob("*.txt"))
    pairs = pair_names(real, factor)
    for sub in ("input_details", "human", "metrics/seg", "metrics/doc", "metrics/sys"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    outliers = ["lp\tsystem"]
    real_outliers = (REAL / "human" / "outliers.tsv").read_text(encoding="utf-8").splitlines()
    for lp, base in pairs.items():
        text = (REAL / "input_details" / f"{base}.txt").read_text(encoding="utf-8")
        (out / "input_details" / f"{lp}.txt").write_text(
            text.replace(f"\t{base}\t", f"\t{lp}\t"), encoding="utf-8")
        for level in ("seg", "doc", "sys"):
            src = REAL / "human" / f"da_{level}.{base}.tsv"
            lines = src.read_text(encoding="utf-8").splitlines()
            body = [lp + line[len(base):] for line in lines[1:]]
            (out / "human" / f"da_{level}.{lp}.tsv").write_text(
                "\n".join([lines[0], *body]) + "\n", encoding="utf-8")
        outliers += [lp + line[len(base):] for line in real_outliers[1:]
                     if line.startswith(base + "\t")]
    (out / "human" / "outliers.tsv").write_text("\n".join(outliers) + "\n", encoding="utf-8")
    shutil.copy(REAL / "metrics" / "ABSENT_in_snapshot.txt", out / "metrics")
    con = duckdb.connect()
    con.execute("set enable_progress_bar = false")
    con.execute("create table lp_map (lp varchar, base varchar, replica integer)")
    con.executemany("insert into lp_map values (?, ?, ?)",
                    [(lp, base, i // len(real)) for i, (lp, base) in enumerate(pairs.items())])
    _qarla_tables(con, qarla)
    for level in ("seg", "doc", "sys"):
        for path in sorted((REAL / "metrics" / level).glob(f"*.{level}.tsv*")):
            _metric_file(con, path, out / "metrics" / level / path.name, level, seed)
    con.close()
    return pairs


# WMT20's single-reference refsets (reference A, B, P: the human outputs Human-A.0 ... are
# the same texts, scored as systems) and the one two-reference refset, A and B
SINGLE = {"A": "newstest2020", "B": "newstestB2020", "P": "newstestP2020"}
BOTH_AB = "newstestM2020"
# a recipe copies the rows of one metric against src_refset (of src_system, '*': every
# system) as rows against dst_refset of dst_system ('*': the same system); tag '' keeps the
# source row's jitter (the same text under another name), any other tag draws its own
RECIPE = ("base varchar, src_system varchar, src_refset varchar, dst_system varchar, "
          "dst_refset varchar, tag varchar, synth boolean, multi boolean")


def refset_token(refs: list[str]) -> str:
    """The REFSET of a list of reference letters, as the metric files write it."""
    if len(refs) == 1:
        return SINGLE.get(refs[0], f"ref-{refs[0]}")
    if sorted(refs) == ["A", "B"]:
        return BOTH_AB
    return "+".join(f"ref-{r}" for r in sorted(refs))


def qarla_recipes(base: str, real: list[str]) -> list[tuple[object, ...]]:
    """The rows QUEEN and KING need on a pair with the real references ``real`` (letters):
    each reference against each other one under the reference's name (the rows of its
    ``Human-X.0`` output), a third reference C where the pair has two (``real[1]``'s rows,
    jittered), and at system level each leave-one-out reference set and the whole set
    (KING's qualities and ULC's bounds: the rows against ``real[0]``, jittered; the held-out
    reference: its human output against another reference)."""
    human = "Human-{}.0".format
    out: list[tuple[object, ...]] = [
        (base, human(x), SINGLE[y], f"ref-{x}", SINGLE[y], "", False, False)
        for x in real for y in real if y != x]
    refs = [*real, "C"] if len(real) == 2 else list(real)
    if "C" in refs:
        first, copied = real
        out += [(base, "*", SINGLE[copied], "*", "ref-C", "C", True, False),
                (base, human(first), SINGLE[copied], f"ref-{first}", "ref-C", "C", True, False),
                (base, human(copied), SINGLE[first], f"ref-{copied}", "ref-C", "C", True, False),
                (base, human(copied), SINGLE[first], "ref-C", f"ref-{first}", "C2", True, False),
                (base, human(first), SINGLE[copied], "ref-C", f"ref-{copied}", "C2", True, False)]
    for held in [*refs, None]:
        rest = [r for r in refs if r != held]
        token, tag = refset_token(rest), "+".join(rest)
        out.append((base, "*", SINGLE[real[0]], "*", token, tag, True, True))
        if held is not None:
            src = real[-1] if held == "C" else held
            other = next(r for r in real if r != src)
            out.append((base, human(src), SINGLE[other], f"ref-{held}", token,
                        tag + ("/C" if held == "C" else ""), True, True))
    return out


def _qarla_tables(con: duckdb.DuckDBPyConnection, qarla: bool) -> None:
    """``qarla_metric`` (base pair, metric: the metrics with segment scores against every
    single reference of the pair in the real release) and ``recipe`` (``qarla_recipes``);
    both empty without ``qarla``."""
    con.execute("create table qarla_metric (base varchar, metric varchar)")
    con.execute(f"create table recipe ({RECIPE})")
    if not qarla:
        return
    found = con.execute(f"""
        select distinct lp, metric, refset
        from read_csv('{REAL}/metrics/seg/*.seg.tsv.gz', columns={{{COLS['seg']}}}, {RAW},
                      compression='gzip')""").fetchall()
    letters = {token: letter for letter, token in SINGLE.items()}
    refs: dict[str, set[str]] = {}
    by_metric: dict[tuple[str, str], set[str]] = {}
    for lp, metric, refset in found:
        if refset in letters:
            refs.setdefault(lp, set()).add(letters[refset])
            by_metric.setdefault((lp, metric), set()).add(letters[refset])
    con.executemany("insert into qarla_metric values (?, ?)",
                    sorted(k for k, v in by_metric.items() if v == refs[k[0]]))
    con.executemany("insert into recipe values (?, ?, ?, ?, ?, ?, ?, ?)",
                    [r for lp in sorted(refs) for r in qarla_recipes(lp, sorted(refs[lp]))])


def _metric_file(con: duckdb.DuckDBPyConnection, src: Path, dst: Path, level: str,
                 seed: int) -> None:
    keys = {"seg": "r.docid, r.seg", "doc": "r.docid", "sys": "''"}[level]
    cols = {"seg": "r.docid, r.seg, ", "doc": "r.docid, ", "sys": ""}[level]
    gz = ", compression 'gzip'" if src.suffix == ".gz" else ""
    # jitter in [-1, 1): a hash of the source row's key, the replica, the seed (and the
    # recipe's tag, for a copy that is another text)
    key = f"r.metric, r.jref, r.jsys, {keys}, m.replica, {seed}"
    jitter = (f"((case when r.tag = '' then hash({key}) else hash({key}, r.tag) end "
              f"% 2000000) / 1000000.0 - 1.0)")
    con.execute(f"""
        copy (
            with r as (select * from read_csv('{src}', columns={{{COLS[level]}}}, {RAW})),
            spread as (select metric, lp, coalesce(stddev_pop(score), 0) as sd
                       from r group by all),
            extra as (  -- QARLA's rows (qarla_recipes), from the metric's real rows
                select r.metric, r.lp, r.testset, c.dst_refset as refset,
                       case when c.dst_system = '*' then r.system else c.dst_system end
                           as system,
                       {cols}r.score, r.refset as jref, r.system as jsys, c.tag, c.synth,
                       c.multi
                from r
                join qarla_metric q on q.base = r.lp and q.metric = r.metric
                join recipe c on c.base = r.lp and c.src_refset = r.refset
                 and (c.src_system = '*' or c.src_system = r.system)
                where {'true' if level == 'sys' else 'not c.multi'}
            ),
            rows as (
                select *, refset as jref, system as jsys, '' as tag, false as synth from r
                union all by name
                select * exclude (multi) from extra e
                where not e.multi or not exists (  -- a real row of the key stays alone
                    select 1 from r x where x.metric = e.metric and x.lp = e.lp
                    and x.refset = e.refset and x.system = e.system)
            )
            select r.metric, m.lp, r.testset, r.refset, r.system, {cols}
                   case when (m.replica = 0 and not r.synth) or r.score is null then r.score
                        else r.score + 0.02 * s.sd * {jitter} end as score
            from rows r join lp_map m on m.base = r.lp
            join spread s on s.metric = r.metric and s.lp = r.lp
            order by m.lp, r.system, r.refset{', ' + keys if level != 'sys' else ''}
        ) to '{dst}' (format csv, delimiter '\t', header false, quote ''{gz})""")


# ---------------------------------------------------------------- measuring

def run(db: Path, args: list[str], timeout: float, log: Path) -> dict[str, object]:
    """One ``ulcdb`` command: seconds, peak RSS (MB), exit status, last output line.

    The peak RSS comes from GNU time where it exists: Linux carries a process's high-water
    RSS across exec, so a child forked straight from this (larger) process would report this
    process's RSS for every command smaller than it."""
    rss_file = log.with_suffix(".rss")
    timer = ["/usr/bin/time", "-f", "%M", "-o", str(rss_file)] \
        if Path("/usr/bin/time").exists() else []
    start = time.perf_counter()
    with log.open("a") as out:
        out.write(f"$ ulcdb {' '.join(args)}\n")
        out.flush()
        proc = subprocess.Popen([*timer, sys.executable, "-m", "ulcdb", "--db", str(db), *args],
                                stdout=out, stderr=subprocess.STDOUT)
        status, usage = _wait(proc, timeout)
    seconds = time.perf_counter() - start
    kb = usage.ru_maxrss
    if timer and rss_file.exists():
        kb = int(rss_file.read_text(encoding="utf-8").split()[-1])
    tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
    return {"s": round(seconds, 2), "rss_mb": round(kb / 1024), "rc": status,
            "last": tail[0][:160] if tail else ""}


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> tuple[int, resource.struct_rusage]:
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage
        if time.monotonic() > deadline:
            proc.kill()  # our own child, by its handle
        time.sleep(0.05)


def serve(db: Path, timeout: float, log: Path) -> dict[str, object]:
    """Seconds from ``ulcdb serve`` to its first answer (it answers while the mirror is
    built), to the mirror's first stage (tables and views: what browsing needs) and to the
    complete mirror (with the analyses), as its status file says, and the mirror's bytes at
    each; the analyses are waited for up to ``timeout`` in all."""
    mirror = db.with_suffix(".mirror.sqlite")
    status = mirror.with_name(f".{mirror.name}.status.json")
    port = _free_port()
    start = time.perf_counter()
    with log.open("a") as out:
        proc = subprocess.Popen([sys.executable, "-m", "ulcdb", "--db", str(db), "serve",
                                 "--port", str(port), "--mirror", str(mirror)],
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    found: dict[str, object] = {"s": None, "tables_s": None, "tables_mb": None,
                                "mirror_s": None, "mirror_mb": None, "parts": None}
    try:
        while time.perf_counter() - start < timeout and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30):
                    found["s"] = round(time.perf_counter() - start, 2)
                    break
            except OSError:
                time.sleep(0.25)
        while found["s"] and time.perf_counter() - start < timeout and proc.poll() is None:
            state = _status(status)
            done = state.get("preparing") is False
            if found["tables_s"] is None and (done or state.get("step") == "analyses"):
                found["tables_s"] = round(time.perf_counter() - start, 1)
                found["tables_mb"] = round(mirror.stat().st_size / 1e6, 1)
            if state.get("total"):  # the last count seen (the final status has none)
                found["parts"] = f"{state.get('done', 0)}/{state['total']}"
            if state.get("error") or done:
                if done:
                    found["mirror_s"] = round(time.perf_counter() - start, 1)
                break
            time.sleep(1)
    finally:
        try:
            os.killpg(proc.pid, 15)  # the session we started: serve and its children
        except ProcessLookupError:  # it ended, and its children with it
            pass
        proc.wait()
    if found["mirror_s"]:
        found["mirror_mb"] = round(mirror.stat().st_size / 1e6, 1)
    return {**found, "rc": 0 if found["s"] and found["tables_s"] else 1}


def _status(path: Path) -> dict[str, Any]:
    """The mirror's status file (empty while it is being written)."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def qarla_metrics(db: Path) -> list[str]:
    """Up to ten metrics for QUEEN and KING on the one pair: those with segment scores against
    every single reference of it (QUEEN reads segment scores only, at every level, and
    `queen`/`king` refuse a metric without them); WMT20's de-en has four."""
    return [r[0] for r in _read(db, """
        with refs as (
            select f.refset_id
            from refset f join refset_member using (refset_id)
            join translator t using (translator_id) join testbed b on b.testbed_id = f.testbed_id
            where b.name = ? and f.size = 1 and t.role = 'reference'
        )
        select m.name
        from (select distinct metric_id, refset_id from seg_score
              where refset_id in (select refset_id from refs)) s
        join metric m using (metric_id)
        group by m.name
        having count(*) = (select count(*) from refs)
        order by m.name
        limit 10""", [ONE])]


def compare_args(db: Path) -> list[str]:
    """-m, -r and -s for ``compare`` on the one pair: the segment-level metric with the most
    scores, its best-covered reference set, the systems it scores on every segment."""
    rows = _read(db, """
        select m.name, r.name, t.name, count(*) as n
        from seg_score s join metric m using (metric_id) join translator t using (translator_id)
        join refset r using (refset_id) join testbed b on b.testbed_id = t.testbed_id
        where b.name = ? and t.role = 'system' and s.value is not null group by all""", [ONE])
    totals = {(m, r): sum(n for m2, r2, _, n in rows if (m2, r2) == (m, r))
              for m, r, _, _ in rows}
    metric, refset = max(sorted(totals), key=lambda key: totals[key])
    full = max(n for m, r, _, n in rows if (m, r) == (metric, refset))
    systems = sorted(t for m, r, t, n in rows if (m, r) == (metric, refset) and n == full)
    return ["-m", metric, "-r", refset, "-s", ",".join(systems)]


def _read(db: Path, sql: str, params: list[object]) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def command_args(db: Path, pairs: Iterable[str]) -> dict[str, list[str]]:
    """The ulcdb arguments of each timed command on the store ``db`` of language pairs
    ``pairs``."""
    metrics = ",".join(qarla_metrics(db))
    return {
        "meta-sys": ["meta", "-t", ONE, "-G", "sys", "-c", "DA-z", "-B", "1000",
                     "-r", ONE_REFS, "-f", "csv"],
        "meta-seg": ["meta", "-t", ONE, "-G", "seg", "-c", "DA-z", "-B", "1000",
                     "-r", ONE_REFS, "-f", "csv"],
        "protocol": ["meta", "--protocol", "wmt24", "-t", ONE, "-c", "DA-z", "-r", ONE_REFS,
                     "-f", "csv"],
        "protocol-all": ["meta", "--protocol", "wmt24", "-c", "DA-z", "-r", "ref-A", "--testbeds",
                         ",".join(f"newstest2020:{lp}" for lp in pairs), "-f", "csv"],
        "queen": ["queen", "-t", ONE, "-m", metrics, "-G", "sys", "-f", "csv", "-j", "1"],
        "king": ["king", "-t", ONE, "-m", metrics, "-G", "sys", "-f", "csv", "-j", "1"],
        "compare": ["compare", "-t", ONE, *compare_args(db), "--pairs", "-j", "1",
                    "-f", "csv"],
        "sql": ["sql", LEADERBOARD.read_text(encoding="utf-8"), "-f", "csv"],
    }


def one_factor(factor: int, work: Path, only: list[str], timeout: float,
               qarla: bool = True) -> dict[str, object]:
    """Everything measured at one factor (run in its own process)."""
    root, db, log = work / f"wmt20x{factor}", work / f"x{factor}.duckdb", work / f"x{factor}.log"
    row: dict[str, object] = {"factor": factor}
    start = time.perf_counter()
    pairs = build(root, factor, qarla=qarla)
    row["build_s"] = round(time.perf_counter() - start, 1)
    row["pairs"] = len(pairs)
    if db.exists():
        db.unlink()
    row["ingest"] = run(db, ["ingest", "scores", str(root), "--format", "wmt20"], timeout, log)
    con = duckdb.connect(str(db), read_only=True)
    counts = con.execute("select (select count(*) from seg_score), (select count(*) from "
                         "doc_score), (select count(*) from sys_score)").fetchone()
    con.close()
    assert counts is not None
    row["seg_scores"], row["scores"] = counts[0], sum(counts)
    row["db_mb"] = round(db.stat().st_size / 1e6, 1)
    row["bytes_per_seg_score"] = round(db.stat().st_size / max(counts[0], 1), 1)
    ingest_s = float(row["ingest"]["s"])  # type: ignore[index]
    row["scores_per_s"] = round(sum(counts) / ingest_s)
    commands = command_args(db, pairs)
    for name in only:
        if name in commands:
            row[name] = run(db, commands[name], timeout, log)
        elif name == "serve":
            row[name] = serve(db, timeout, log)
    row["db_mb_after"] = round(db.stat().st_size / 1e6, 1)
    return row


# ---------------------------------------------------------------- report

def figures(row: dict[str, object]) -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in row.items():
        if isinstance(value, dict) and value.get("s") is not None and value.get("rc") == 0:
            out[key] = float(value["s"])
    serve = row.get("serve")
    if isinstance(serve, dict):
        for key in ("tables_s", "tables_mb", "mirror_s", "mirror_mb"):
            if serve.get(key):
                out[key] = float(serve[key])
    out["db_mb"] = float(row["db_mb"])  # type: ignore[arg-type]
    return out


def report(rows: list[dict[str, object]]) -> None:
    print(f"\n{'factor':>6} {'scores':>11} {'MB':>8} {'B/seg':>6} {'scores/s':>9}  "
          "command: seconds (peak RSS MB)")
    for row in rows:
        cells = []
        for key in COMMANDS:
            value = row.get(key)
            if isinstance(value, dict):
                extra = (f" tables {value['tables_mb']} MB in {value['tables_s']} s, "
                         f"complete {value['mirror_mb']} MB in {value['mirror_s']} s "
                         f"(analyses {value['parts']})"
                         if "mirror_mb" in value else f" {value['rss_mb']} MB")
                bad = "" if value["rc"] == 0 else f" FAILED rc={value['rc']}"
                cells.append(f"{key} {value['s']} s{extra}{bad}")
        print(f"{row['factor']:>6} {row['scores']:>11} {row['db_mb']:>8} "
              f"{row['bytes_per_seg_score']:>6} {row['scores_per_s']:>9}  " + "; ".join(cells))
    for a, b in zip(rows, rows[1:], strict=False):
        fa, fb = figures(a), figures(b)
        ratio = math.log(int(b["factor"]) / int(a["factor"]))  # type: ignore[call-overload]
        ks = [f"{k} {math.log(fb[k] / fa[k]) / ratio:.2f}" for k in fa
              if k in fb and fa[k] > 0 and fb[k] > 0]
        print(f"k (time ~ factor^k), factor {a['factor']} -> {b['factor']}: " + ", ".join(ks))
    last = rows[-1]
    scale = 1e9 / int(last["scores"])  # type: ignore[call-overload]
    proj = {k: v * scale for k, v in figures(last).items()}
    print(f"linear projection to 10^9 scores (x{scale:.0f} of factor {last['factor']}): "
          + ", ".join(f"{k} {v:,.0f}" + (" MB" if k.endswith("_mb") else " s")
                      for k, v in proj.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--only", nargs="+", choices=COMMANDS, default=list(DEFAULT),
                        help="commands to time after the ingest (ingest always runs)")
    parser.add_argument("--work", type=Path, help="working folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the data and stores")
    parser.add_argument("--timeout", type=float, default=1800, help="per command, seconds")
    parser.add_argument("--no-qarla", action="store_true",
                        help="the release's own references and rows only (no third reference: "
                        "the campaign of the ingest figures measured before it; queen/king "
                        "are then refused)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # child: one factor
    args = parser.parse_args()
    if not (REAL / "input_details").is_dir():
        raise SystemExit(f"WMT20 release not found: {REAL} (set ULCDB_SHARED)")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_scale."))
    work.mkdir(parents=True, exist_ok=True)
    if args.one:
        row = one_factor(args.one, work, args.only, args.timeout, qarla=not args.no_qarla)
        (work / f"x{args.one}.json").write_text(json.dumps(row), encoding="utf-8")
        return
    print(f"load: {os.getloadavg()}; work: {work}")
    rows = []
    for factor in args.factor:
        subprocess.run([sys.executable, __file__, "--one", str(factor), "--work", str(work),
                        "--timeout", str(args.timeout), "--only", *args.only,
                        *(["--no-qarla"] if args.no_qarla else [])], check=True)
        rows.append(json.loads((work / f"x{factor}.json").read_text(encoding="utf-8")))
        print(json.dumps(rows[-1]), flush=True)
        if not args.keep:
            shutil.rmtree(work / f"wmt20x{factor}", ignore_errors=True)
            for p in work.glob(f"x{factor}.*duckdb*"):
                p.unlink()
            for p in work.glob(f"x{factor}.mirror*"):
                p.unlink()
    print(f"load: {os.getloadavg()}")
    report(rows)


if __name__ == "__main__":
    main()

"""`ulcdb serve`'s comparison page is bounded work (issue 31): a time limit with a clear
message, the computation stopped when its client goes, at most a few at once, results reused
for the same parameters, and the SQL box and other pages answering while heavy comparisons
are asked for.  Over the bundled sample store, whose `method=ar&by=length&analysis=category`
comparison takes several seconds here."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from serve_helpers import build_sample_store, free_port, start_serve, stop

from ulcdb.serve.bounded import Gone, Limits, Pool, TooLong, run_in_child

HEAVY = "/-/compare?method=ar&by=length&analysis=category"
TOO_LONG = "too long: narrow the request or run `ulcdb compare`"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """The sample store served with a 2-second comparison limit, two at once."""
    tmp = tmp_path_factory.mktemp("bounded")
    store = build_sample_store(tmp / "sample.duckdb")
    proc = start_serve(store, port := free_port(), tmp / "serve.log",
                       extra=("--compare-time-limit", "2", "--compare-at-once", "2"))
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        stop(proc)


def _get(url: str, timeout: float = 30.0) -> tuple[float, str]:
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=timeout) as r:
        body = r.read().decode("utf-8")
    return time.monotonic() - start, body


def test_a_heavy_comparison_is_stopped_at_the_limit(served) -> None:
    base, _ = served
    took, page = _get(base + HEAVY)
    assert took < 4.5, f"answered after {took:.1f} s with a 2 s limit"
    assert 'id="compare-error"' in page and TOO_LONG in page.replace("&#39;", "'")


def test_a_quick_comparison_answers_and_is_reused(served) -> None:
    base, _ = served
    url = base + "/-/compare?metric=chrF&refset=ref-A&baseline=sysA"
    _, first = _get(url)
    took, again = _get(url)
    assert 'id="compare-table"' in first and TOO_LONG not in first
    assert again == first and took < 0.5


def test_the_sql_box_and_pages_answer_during_heavy_comparisons(served) -> None:
    base, _ = served
    heavy = [base + HEAVY + f"&metric={m}&by={by}" for m in ("BLEU", "NIST", "chrF", "GTM-1")
             for by in ("length", "doc")]
    threads = [threading.Thread(target=_get, args=(u,), daemon=True) for u in heavy]
    for t in threads:
        t.start()
    time.sleep(0.5)
    sql = base + "/sample.json?" + urllib.parse.urlencode(
        {"sql": "select count(*) from segment", "_shape": "array"})
    took_sql, body = _get(sql, timeout=10)
    took_page, page = _get(base + "/-/plots", timeout=10)
    assert '"count(*)": 12' in body.replace('"count(*)":12', '"count(*)": 12')
    assert "plots" in page.lower()
    assert took_sql < 2.0 and took_page < 2.0, (took_sql, took_page)
    for t in threads:
        t.join(timeout=60)


@pytest.fixture(scope="module")
def served_long(tmp_path_factory: pytest.TempPathFactory):
    """The sample store served with a 120-second comparison limit: a computation that goes on
    after its client went lives far longer than the test waits for it to go."""
    tmp = tmp_path_factory.mktemp("bounded_long")
    store = build_sample_store(tmp / "sample.duckdb")
    proc = start_serve(store, port := free_port(), tmp / "serve.log",
                       extra=("--compare-time-limit", "120", "--compare-at-once", "2"))
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        stop(proc)


def _tree(pid: int) -> set[int]:
    """``pid`` and every live descendant."""
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
        found.add(p)
    return found


def test_a_dropped_client_stops_its_computation(served_long) -> None:
    """Each comparison runs in a child process: when its client goes, the child goes, in
    less than half the time the comparison takes when its client waits.  Checked by the
    processes and against that duration measured in the same run, not by CPU time in a fixed
    window, which a loaded machine shares out too thinly to tell running from stopped."""
    base, proc = served_long
    heavy = base + "/-/compare?method=ar&by=length&metric="
    took, _ = _get(heavy + "NIST")  # also starts the fork server
    idle = _tree(proc.pid)
    # corpus-formula metrics (resampled through sacrebleu's formulas) are the heavy ones
    for m in ("chrF", "BLEU"):
        with pytest.raises((TimeoutError, urllib.error.URLError)):
            _get(heavy + m, timeout=0.5)
    dropped = time.monotonic()
    while (left := _tree(proc.pid) - idle) and time.monotonic() - dropped < took / 2:
        time.sleep(0.1)
    assert not left, (f"computations still running {time.monotonic() - dropped:.1f} s after "
                      f"their clients went (one takes {took:.1f} s): {left}")
    # long enough for the check to tell: a child left running would outlive the wait by
    # took - 0.5 (its client gave up after 0.5 s) - took / 2 seconds
    assert took > 1.5


# The pool itself, with time.sleep standing in for a comparison.

def _run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@pytest.fixture(autouse=True, scope="module")
def _forkserver_started() -> None:
    """The fork server imports the comparison code once, on first use: not timed here."""
    _run(run_in_child(time.sleep, 0))


def test_at_most_at_once_run_together_and_the_queue_counts_toward_the_limit() -> None:
    async def main() -> tuple[float, list[object]]:
        pool = Pool(Limits(seconds=1.5, at_once=1))
        start = time.monotonic()
        got = await asyncio.gather(*(pool.get(k, time.sleep, (0.6,)) for k in "abc"),
                                   return_exceptions=True)
        return time.monotonic() - start, got
    took, got = _run(main())
    # one slot: a then b finish (0.6 s each), c is still waiting or running at 1.5 s
    assert got[:2] == [None, None] and isinstance(got[2], TooLong)
    assert 1.4 < took < 2.5


def test_the_same_key_is_computed_once() -> None:
    async def main() -> int:
        pool = Pool(Limits(seconds=5, at_once=2))
        await asyncio.gather(*(pool.get("k", time.sleep, (0.3,)) for _ in range(4)))
        await pool.get("k", time.sleep, (0.3,))
        return pool.started
    assert _run(main()) == 1


def test_a_gone_client_kills_the_child() -> None:
    async def main() -> float:
        pool = Pool(Limits(seconds=30, at_once=1))
        gone = asyncio.Event()
        asyncio.get_running_loop().call_later(0.3, gone.set)
        start = time.monotonic()
        with pytest.raises(Gone):
            await pool.get("k", time.sleep, (30,), gone)
        assert not pool.running
        return time.monotonic() - start
    assert _run(main()) < 3


def test_errors_come_back_from_the_child() -> None:
    from ulcdb.errors import UlcdbError

    with pytest.raises(UlcdbError, match="no store"):
        _run(run_in_child(_refuse))


def _refuse() -> None:
    from ulcdb.errors import NotFound

    raise NotFound("no store here")

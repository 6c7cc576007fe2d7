"""Bounded work for `ulcdb serve`'s comparison page (issue 31).

A comparison (resampling, buckets, word-level analyses) can take many seconds, and anyone who
can reach the port may ask for as many as they like.  So each one runs in a child process
that can be stopped: at most ``at_once`` run together (the others wait for a slot), each is
killed when it passes the time limit or when every client that asked for it has gone, and a
finished result is kept (least recently used first out) for the same parameters and store
modification time.  Datasette's own threads and its SQL box are not held while they run.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from multiprocessing.context import ForkServerContext
from typing import Any

from ulcdb.errors import UlcdbError

DEFAULT_SECONDS = 20.0
DEFAULT_AT_ONCE = 2
CACHED = 64


class TooLong(UlcdbError):
    """A comparison passed the page's time limit (or waited that long for a slot)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"too long: narrow the request or run `ulcdb compare` (this comparison needs more "
            f"than the page's limit of {seconds:g} s; `ulcdb serve --compare-time-limit` "
            f"sets it)")


class Gone(Exception):
    """Every client that asked for the computation has disconnected."""


@dataclass(frozen=True)
class Limits:
    """How long one comparison may take (seconds, waiting for a slot included) and how many
    run at once."""

    seconds: float = DEFAULT_SECONDS
    at_once: int = DEFAULT_AT_ONCE

    @classmethod
    def from_config(cls, config: dict[str, Any] | None) -> Limits:
        config = config or {}
        return cls(float(config.get("compare_time_limit", DEFAULT_SECONDS)),
                   max(1, int(config.get("compare_at_once", DEFAULT_AT_ONCE))))


def _child(send: multiprocessing.connection.Connection, fn: Callable[..., Any],
           args: tuple[Any, ...]) -> None:
    """In the child process: ``fn(*args)``, its result or its error message sent back."""
    try:
        outcome: tuple[str, Any] = ("ok", fn(*args))
    except UlcdbError as exc:
        outcome = ("refused", str(exc))
    except Exception as exc:  # noqa: BLE001 - reported to the page's handler, which raises
        outcome = ("crashed", f"{type(exc).__name__}: {exc}")
    send.send(outcome)
    send.close()


def _settle(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


_CONTEXT: ForkServerContext | None = None


def _context() -> ForkServerContext:
    """A fork server with the comparison code imported once, so each child starts at once."""
    global _CONTEXT
    if _CONTEXT is None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["ulcdb.serve.compare_page"])
        _CONTEXT = ctx
    return _CONTEXT


async def run_in_child(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a child process; cancelling the awaiting task kills the child."""
    loop = asyncio.get_running_loop()
    receive, send = multiprocessing.Pipe(duplex=False)
    proc = _context().Process(target=_child, args=(send, fn, args), daemon=True)
    try:
        await loop.run_in_executor(None, proc.start)
        send.close()
        ready: asyncio.Future[None] = loop.create_future()
        loop.add_reader(receive.fileno(), _settle, ready)
        try:
            await ready
        finally:
            loop.remove_reader(receive.fileno())
        try:
            kind, value = await loop.run_in_executor(None, receive.recv)
        except EOFError:
            raise UlcdbError("the comparison stopped without an answer (out of memory?): "
                             "run `ulcdb compare`") from None
    finally:
        if proc.is_alive():
            proc.kill()
        receive.close()
        with contextlib.suppress(ValueError):  # not started: nothing to reap
            proc.join(timeout=5)
    if kind == "refused":
        raise UlcdbError(value)
    if kind == "crashed":
        raise RuntimeError(value)
    return value


@dataclass
class _Job:
    task: asyncio.Task[Any]
    waiters: int = 0


@dataclass
class Pool:
    """Runs ``fn(*args)`` bounded by ``limits``: shared by every request with the same key,
    cached once done, at most ``limits.at_once`` at a time."""

    limits: Limits = field(default_factory=Limits)
    done: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict)
    running: dict[Hashable, _Job] = field(default_factory=dict)
    _slots: asyncio.Semaphore | None = None
    started: int = 0  # computations begun (what the cache saved is visible in tests)

    def slots(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.at_once)
        return self._slots

    async def _compute(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...]
                       ) -> Any:
        try:
            async with self.slots():
                self.started += 1
                value = await run_in_child(fn, *args)
            self.done[key] = value
            while len(self.done) > CACHED:
                self.done.popitem(last=False)
            return value
        finally:
            self.running.pop(key, None)

    async def get(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...],
                  gone: asyncio.Event | None = None) -> Any:
        """The result for ``key``: cached, or joined to the computation already running, or
        started.  Raises TooLong past the time limit and Gone when ``gone`` is set first;
        the computation is stopped when no one waits for it any more."""
        if key in self.done:
            self.done.move_to_end(key)
            return self.done[key]
        job = self.running.get(key)
        if job is None:
            job = self.running[key] = _Job(asyncio.ensure_future(self._compute(key, fn, args)))
        job.waiters += 1
        watch = asyncio.ensure_future((gone or asyncio.Event()).wait())
        try:
            finished, _ = await asyncio.wait({job.task, watch}, timeout=self.limits.seconds,
                                             return_when=asyncio.FIRST_COMPLETED)
            if job.task in finished:
                return job.task.result()
            if watch in finished:
                raise Gone
            raise TooLong(self.limits.seconds)
        finally:
            watch.cancel()
            job.waiters -= 1
            if job.waiters == 0 and not job.task.done():
                job.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await job.task


async def watch_disconnect(receive: Callable[[], Any], gone: asyncio.Event) -> None:
    """Sets ``gone`` when the ASGI client disconnects (a GET's body is empty, so every
    message but the disconnect is skipped)."""
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            gone.set()
            return

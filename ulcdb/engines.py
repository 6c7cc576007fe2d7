"""Where the heavy work runs: local processes (the default) or a Ray cluster.

ulcdb plans its work items itself (distinct texts to annotate, (family, target, reference
sets) scoring tasks); an engine only maps a picklable function over them and hands the results
back in order.  Workers never touch the store: inputs go out with the task, results come back,
and the driver writes them in the same transactions and batches whatever the engine, so a
store scored on Ray equals one scored locally row for row.

- ``local``: a process pool of ``jobs`` workers that end with their parent (``workers``);
  one process, no pool, when ``jobs`` is 1.
- ``ray``: ``ray.init()`` starts a local cluster of ``jobs`` CPUs, or ``address`` joins an
  existing one (``ray start --head`` prints it; ``auto`` finds a running one).  A task that
  fails is retried by Ray (``RETRIES``); if it keeps failing, the run stops with the item named
  and nothing of that family is written.  Models load once per worker process (cached), not
  per task.  Ray is an optional extra: ``pip install 'ulcdb[ray]'``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from ulcdb.errors import UlcdbError
from ulcdb.workers import init_worker

ENGINES = ("local", "ray")
RETRIES = 2


class Engine(Protocol):
    """Maps a function over tasks, results in task order."""

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]: ...

    def close(self, cancel: bool = False) -> None: ...


class LocalEngine:
    """``jobs`` worker processes (none for one job)."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]:
        if self.jobs <= 1:
            return map(fn, tasks)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=init_worker,
                                             initargs=(os.getpid(),))
        return self._pool.map(fn, tasks)

    def close(self, cancel: bool = False) -> None:
        if self._pool is not None:  # after an interrupt: stop the workers, do not wait
            self._pool.shutdown(wait=not cancel, cancel_futures=True)
            self._pool = None


class RayEngine:
    """Tasks on a Ray cluster: a local one of ``jobs`` CPUs, or the one at ``address``."""

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise UlcdbError("--engine ray needs Ray: pip install 'ulcdb[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                       "ignore_reinit_error": True}
            if address:
                options["address"] = address
            else:
                options["num_cpus"] = jobs or os.cpu_count() or 1
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"at {address}" if address else "locally"
                raise UlcdbError(f"cannot start or reach a Ray cluster {where}: "
                                 f"{str(exc).splitlines()[0]}") from None
        self._remote = ray.remote(max_retries=RETRIES, retry_exceptions=True)(_call)

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]:
        items = list(tasks)
        refs = [self._remote.remote(fn, t) for t in items]
        for item, ref in zip(items, refs, strict=True):
            try:
                yield self.ray.get(ref)
            except self.ray.exceptions.RayError as exc:
                for pending in refs:
                    self.ray.cancel(pending, force=True)
                cause = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc)
                raise UlcdbError(f"Ray task {label(item)} failed after {RETRIES} retries: "
                                 f"{cause}") from None

    def close(self, cancel: bool = False) -> None:
        """The cluster stays up for the next call in this process (ray.shutdown at exit)."""


def _call(fn: Callable[[Any], Any], task: Any) -> Any:
    return fn(task)


def make_engine(name: str = "local", jobs: int | None = None,
                address: str | None = None) -> Engine:
    if name not in ENGINES:
        raise UlcdbError(f"engine must be one of {', '.join(ENGINES)}, not {name!r}")
    if address and name != "ray":
        raise UlcdbError("--address is for --engine ray")
    return RayEngine(jobs, address) if name == "ray" else LocalEngine(jobs)

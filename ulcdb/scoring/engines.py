"""Where the heavy work runs: local processes (the default) or a Ray cluster.

ulcdb plans its work items itself (distinct texts to annotate, (family, target, reference
sets) scoring tasks); an engine only maps a picklable function over them and hands the results
back in order.  Workers never touch the store: inputs go out with the task, results come back,
and the driver writes them in the same transactions and batches whatever the engine, so a
store scored on Ray equals one scored locally row for row.

- ``local``: a process pool of ``jobs`` workers that end with their parent (``workers``);
  one process, no pool, when ``jobs`` is 1.
- ``ray``: ``ray.init()`` starts a local cluster of ``jobs`` CPUs, or ``address`` joins an
  existing one (``ray start --head`` prints it; ``auto`` finds a running one); the driver's
  ``ULCDB_*`` variables (VerbNet's path) go to the workers with the job.  A task that
  fails is retried by Ray (``RETRIES``); if it keeps failing, the run stops with the item named
  and nothing of that family is written.  Models load once per worker process (cached), not
  per task.  Ray is an optional extra: ``pip install 'ulcdb[ray]'``.

What Ray costs over local processes, and what keeps it low:

- Inputs several tasks read (a reference's analyses, read by every target scored against
  it) are ``share``-d: pickled and put in the object store once per run, and unpickled once
  per worker (a per-process cache), instead of being pickled into every task.  Local
  processes share the same way, except that the pickled bytes go with each task.
- Tasks cross as ``pickle`` bytes in which each shared value is a persistent id (its key);
  the worker resolves it from its cache or from the object the task names.  Pickling 500
  analyses takes about 0.3 s each way (measured on the 2-core machine, busy), and a
  reference's analyses were pickled into every task scored against it, in every family.
- The local cluster starts without the dashboard and usage statistics, so its processes
  take no CPU from the workers.
"""

from __future__ import annotations

import io
import os
import pickle
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from ulcdb.errors import UlcdbError
from ulcdb.scoring.workers import init_worker, pool_context, worker_args

ENGINES = ("local", "ray")
RETRIES = 2
CACHED = 32  # shared inputs a worker process keeps unpickled (least recently used go first)


class Engine(Protocol):
    """Maps a function over tasks, results in task order.  ``map`` hands every task to the
    workers before it returns (one worker: as the results are read), so a caller can map
    several families' tasks first and read the results after, keeping the workers busy
    while it writes."""

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]: ...

    def share(self, value: Any) -> Any:
        """What a task carries instead of ``value``, which many tasks read; the task
        function sees ``value`` itself."""
        ...

    def close(self, cancel: bool = False) -> None: ...


class LocalEngine:
    """``jobs`` worker processes (none for one job)."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None
        self._shared: dict[int, tuple[Any, Shared]] = {}  # id(value) -> (value, handle)
        self._bytes: dict[str, bytes] = {}  # handle key -> the value pickled once

    def forks(self) -> bool:
        """Whether its workers, not started yet, will be forked from this process (and so
        inherit what it has loaded)."""
        return self.jobs > 1 and self._pool is None and \
            pool_context().get_start_method() == "fork"

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]:
        if self.jobs <= 1:
            return map(fn, tasks)
        if self._pool is None:
            context = pool_context()
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=init_worker,
                                             initargs=worker_args(context), mp_context=context)
        if not self._bytes:
            return self._pool.map(fn, tasks)
        packed = []
        for t in tasks:
            payload, keys = _dumps((fn, t))
            packed.append((payload, keys, [self._bytes[k] for k in keys]))
        return self._pool.map(_call_local, packed)

    def share(self, value: Any) -> Any:
        """Pickled once here, unpickled once per worker process (its cache); the bytes still
        go with every task, which costs a copy, not a pickling.  One job: the value itself."""
        if self.jobs <= 1:
            return value
        return _share_once(self._shared, value, self._bytes.__setitem__)

    def close(self, cancel: bool = False) -> None:
        self._shared.clear()
        self._bytes.clear()
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
            if _worker_env():
                options["runtime_env"] = {"env_vars": _worker_env()}
            if address:
                options["address"] = address
            else:
                options["num_cpus"] = jobs or os.cpu_count() or 1
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"at {address}" if address else "locally"
                raise UlcdbError(f"cannot start or reach a Ray cluster {where}: "
                                 f"{str(exc).splitlines()[0]}") from None
        self._remote = ray.remote(max_retries=RETRIES, retry_exceptions=True)(_call)
        self._shared: dict[int, tuple[Any, Shared]] = {}  # id(value) -> (value, handle)
        self._objects: dict[str, Any] = {}  # handle key -> ObjectRef of the pickled value

    def share(self, value: Any) -> Any:
        """Put ``value`` in the object store once (the same object shared twice is put once)."""
        def put(key: str, data: bytes) -> None:
            self._objects[key] = self.ray.put(data)

        return _share_once(self._shared, value, put)

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any],
            label: Callable[[Any], str] = str) -> Iterator[Any]:
        """Every task is submitted now (a caller may map the next function before it reads
        these results, so the cluster never waits for it); results come in task order."""
        items = list(tasks)
        refs = []
        for t in items:
            payload, keys = _dumps((fn, t))
            refs.append(self._remote.remote(payload, keys, *(self._objects[k] for k in keys)))
        return self._results(items, refs, label)

    def _results(self, items: list[Any], refs: list[Any], label: Callable[[Any], str]
                 ) -> Iterator[Any]:
        for item, ref in zip(items, refs, strict=True):
            try:
                result = pickle.loads(self.ray.get(ref))
            except self.ray.exceptions.RayError as exc:
                self._cancel(refs)
                cause = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc)
                raise UlcdbError(f"Ray task {label(item)} failed after {RETRIES} retries: "
                                 f"{cause}") from None
            if isinstance(result, _Refused):
                self._cancel(refs)
                raise result.error
            yield result

    def _cancel(self, refs: list[Any]) -> None:
        """Stop the tasks whose results are not there yet.  A task whose result is there is
        left alone: its completion may not yet be recorded in this process, and cancelling
        it then trips a check in Ray's core worker that ends the process (a race between
        cancellation and completion, ray-project/ray#54846; seen here as a refused task's
        run ending with no message)."""
        _, pending = self.ray.wait(refs, num_returns=len(refs), timeout=0)
        for ref in pending:
            self.ray.cancel(ref, force=True)

    def close(self, cancel: bool = False) -> None:
        """The cluster stays up for the next call in this process (ray.shutdown at exit);
        the shared inputs are released."""
        self._shared.clear()
        self._objects.clear()


def _worker_env() -> dict[str, str]:
    """The driver's ``ULCDB_*`` settings (``--verbnet`` sets ``ULCDB_VERBNET``), which the
    workers of a cluster started before (``ray start``) would not otherwise see."""
    return {k: v for k, v in os.environ.items() if k.startswith("ULCDB_")}


def _share_once(shared: dict[int, tuple[Any, Shared]], value: Any,
                keep: Callable[[str, bytes], None]) -> Shared:
    """The handle of ``value``: pickled once and handed to ``keep`` the first time it is
    shared (the value is kept in ``shared`` too, so its id stays unique)."""
    if id(value) not in shared:
        handle = Shared(uuid.uuid4().hex)
        keep(handle.key, pickle.dumps(value, protocol=5))
        shared[id(value)] = (value, handle)
    return shared[id(value)][1]


class Shared:
    """A value in the object store, named by ``key``, inside a pickled task."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


class _Pickler(pickle.Pickler):
    """Pickles a task with each :class:`Shared` value as a reference to its key."""

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=5)
        self.keys: list[str] = []

    def persistent_id(self, obj: Any) -> str | None:
        if type(obj) is Shared:
            if obj.key not in self.keys:
                self.keys.append(obj.key)
            return obj.key
        return None


def _dumps(task: Any) -> tuple[bytes, list[str]]:
    out = io.BytesIO()
    pickler = _Pickler(out)
    pickler.dump(task)
    return out.getvalue(), pickler.keys


_CACHE: OrderedDict[str, Any] = OrderedDict()  # in each worker: shared key -> value


class _Unpickler(pickle.Unpickler):
    """Unpickles a task, each shared value from the worker's cache or its pickled bytes."""

    def __init__(self, payload: bytes, given: dict[str, bytes]) -> None:
        super().__init__(io.BytesIO(payload))
        self.given = given

    def persistent_load(self, pid: Any) -> Any:
        if pid in _CACHE:
            _CACHE.move_to_end(pid)
            return _CACHE[pid]
        value = pickle.loads(self.given[pid])
        _CACHE[pid] = value
        while len(_CACHE) > CACHED:
            _CACHE.popitem(last=False)
        return value


def _run(payload: bytes, keys: list[str], values: Iterable[bytes]) -> Any:
    """In a worker: the task's function on the task, shared values resolved."""
    fn, task = _Unpickler(payload, dict(zip(keys, values, strict=True))).load()
    return fn(task)


class _Refused:
    """What a Ray task returns when ulcdb itself refuses its input (UlcdbError: a missing
    resource, bad data): the same input fails the same way again, so it is not retried
    and the driver raises it as the local engine does."""

    def __init__(self, error: UlcdbError) -> None:
        self.error = error


def _call(payload: bytes, keys: list[str], *values: bytes) -> bytes:
    """Runs in a Ray worker: the result pickled (Ray's object store gets bytes)."""
    try:
        result = _run(payload, keys, values)
    except UlcdbError as exc:
        result = _Refused(exc)
    return pickle.dumps(result, protocol=5)


def _call_local(packed: tuple[bytes, list[str], list[bytes]]) -> Any:
    """Runs in a local worker process."""
    return _run(*packed)


def make_engine(name: str = "local", jobs: int | None = None,
                address: str | None = None) -> Engine:
    if name not in ENGINES:
        raise UlcdbError(f"engine must be one of {', '.join(ENGINES)}, not {name!r}")
    if address and name != "ray":
        raise UlcdbError("--address is for --engine ray")
    return RayEngine(jobs, address) if name == "ray" else LocalEngine(jobs)

"""Worker processes that end with their parent.

Every pool ulcdb starts (scoring families, spaCy annotation) runs :func:`init_worker` in each
worker: on Linux the kernel sends the worker SIGTERM when its parent dies (``prctl
PR_SET_PDEATHSIG``), and everywhere a daemon thread ends it once the parent is gone (it is
then re-parented).  So ``kill -9`` of ``ulcdb score`` no longer leaves workers holding the
store's file handles.  Workers ignore SIGINT: Ctrl-C reaches the parent, which stops the
pool and reports it in one line.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.context import BaseContext

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 1.0


def pool_context() -> BaseContext:
    """How worker processes start: forked (fast: the parent's imports come along), but from
    a fresh fork server once Ray is loaded in this process, whose threads do not survive a
    fork (forked workers crashed in ``_raylet.so`` after a Ray run in the same process, as a
    notebook that tried ``--engine ray`` first would)."""
    if not hasattr(os, "fork"):
        return multiprocessing.get_context()
    return multiprocessing.get_context("forkserver" if "ray" in sys.modules else "fork")


def worker_args(context: BaseContext) -> tuple[int, bool]:
    """``init_worker``'s arguments for a pool of ``context`` started by this process."""
    return os.getpid(), context.get_start_method() == "forkserver"


def init_worker(parent: int, via_server: bool = False) -> None:
    """Run first in every worker: die with ``parent``.  A fork server's worker watches the
    server instead, its own parent, which ends when ``parent`` does."""
    if via_server:
        parent = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before this line
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(1)


class Terminated(BaseException):
    """SIGTERM received: raised in the main thread so transactions roll back and pools stop."""


def terminate_on_sigterm() -> None:
    """Turn SIGTERM into :class:`Terminated` (the CLI reports it in one line)."""

    def handler(signum: int, frame: object) -> None:
        raise Terminated()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)

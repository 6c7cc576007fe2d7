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
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 1.0


def init_worker(parent: int) -> None:
    """Run first in every worker: die with ``parent``."""
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

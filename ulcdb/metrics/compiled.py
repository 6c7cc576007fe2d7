"""numba for the metric kernels (ROUGE, METEOR, GTM, TER), in one place.

A kernel module keeps its functions as plain Python (its tests run them so, against the golden
files) and compiles them on first use: ``jit_helpers`` turns the helpers into numba dispatchers
in the module's namespace first, so the compiled callers can call them, then ``jit`` compiles
the entry point.  numba is imported here, late: it takes a while.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def jit_helpers(module: dict[str, Any], names: Sequence[str]) -> bool:
    """Replace each function ``names`` of ``module`` (a module's ``globals()``) by its compiled
    dispatcher, in order; False (nothing replaced) where numba is not installed."""
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - exercised only where numba is missing
        return False
    for name in names:
        module[name] = njit(cache=True)(module[name])
    return True


def jit(function: Callable[..., Any]) -> Any:
    """``function`` compiled (cached on disk by numba); call after ``jit_helpers`` said yes."""
    from numba import njit

    return njit(cache=True)(function)

"""An argument's choices checked once for the CLI and the API: the refusal lives in
``ulcdb.errors`` (low enough for ``ulcdb.meta`` to use it too) and is imported here for the
operations."""

from __future__ import annotations

from ulcdb.errors import choice, hint, listed

__all__ = ["choice", "hint", "listed"]

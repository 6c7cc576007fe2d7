"""Loaded by Datasette with --plugins-dir: ulcdb's plot pages (see ulcdb.serve.plots) and the
read-only guard (ulcdb.serve.readonly)."""

from ulcdb.serve.plots import register_routes  # noqa: F401  (a pluggy hook implementation)
from ulcdb.serve.readonly import asgi_wrapper  # noqa: F401  (a pluggy hook implementation)

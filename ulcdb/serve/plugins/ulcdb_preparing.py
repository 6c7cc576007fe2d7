"""Loaded by Datasette with --plugins-dir: serving while the mirror is prepared (see
ulcdb.serve.preparing)."""

from ulcdb.serve.preparing import (  # noqa: F401  (pluggy hook implementations)
    asgi_wrapper,
    canned_queries,
    extra_body_script,
    register_routes,
    startup,
)

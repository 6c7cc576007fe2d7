"""What each command does, for the command line and the Python API alike.

One module per command group (score, qarla, meta, compare, tune, export, delete): each
resolves the selection, checks it, plans the work, computes what is missing and reads the
result.  The CLI (``ulcdb.cli``) only parses options and renders what these return; the
Python API (``ulcdb.api``) only converts arguments and returns tables.  Both reach the store
through an ``access.Access``, so the same mistakes fail with the same ``ulcdb.errors``
exception and message.

This module, ``levels``, ``choices`` and ``outputs`` import nothing heavy: the CLI checks
options with them at parse time.
"""

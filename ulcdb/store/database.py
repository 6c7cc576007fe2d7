"""The DuckDB store: opening, schema application and version checks, transactions."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from ulcdb.errors import NotFound, StoreError

SCHEMA_VERSION = 2
DEFAULT_DB = "ulcdb.duckdb"


def data_dir(name: str) -> Path:
    """Shipped folder (``schema``, ``datasette``, ``sample``): in the wheel, or the source tree."""
    packaged = Path(__file__).parents[1] / "_data" / name
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / name


def schema_files() -> list[Path]:
    base = data_dir("schema")
    lines = (base / "manifest.txt").read_text(encoding="utf-8").splitlines()
    return [base / ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def schema_hash() -> str:
    """Digest of the shipped schema (manifest order and every file's text)."""
    digest = hashlib.sha256()
    for path in schema_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def named_query(name: str) -> str:
    """The text of ``schema/queries/NAME.sql``: a query ulcdb runs from Python with
    parameters, over a work table of one load, on the SQLite mirror, or for one command only
    (a fixed relation users also want in `ulcdb sql` or Datasette is a view)."""
    return (data_dir("schema") / "queries" / f"{name}.sql").read_text(encoding="utf-8")


_SHADOW = re.compile(r"^create\s+or\s+replace\s+(view|macro)\b", re.IGNORECASE | re.MULTILINE)


# Compact a store after a deletion when at least this share of its blocks is free.
COMPACT_SHARE = 0.05

_LOCK = re.compile(r"Conflicting lock is held in (.*?) \(PID (\d+)\)")


def holder_command(pid: int) -> str | None:
    """The ulcdb command line of process ``pid`` (``ulcdb --db x score -m BLEU``), read from
    /proc; None when it is not ulcdb or cannot be read (another OS, another user)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    args = [a.decode("utf-8", "replace") for a in raw.split(b"\0") if a]
    for i, arg in enumerate(args):
        name = Path(arg).name
        if name == "ulcdb" or (arg == "-m" and args[i + 1:i + 2] == ["ulcdb"]):
            rest = args[i + (2 if arg == "-m" else 1):]
            return " ".join(["ulcdb", *(shlex.quote(a) for a in rest)])
    return None


def check_store_file(path: Path) -> None:
    """Refuse, before DuckDB touches it, anything that is not a DuckDB file (a SQLite file
    would make DuckDB try to download its sqlite extension)."""
    if not path.exists():
        return
    if not path.is_file():
        raise StoreError(f"{path} is not a ulcdb store: it is not a regular file")
    with path.open("rb") as fh:
        head = fh.read(16)
    if head.startswith(b"SQLite format 3"):
        raise StoreError(f"{path} is a SQLite database, not a ulcdb store (a DuckDB file): "
                         "give the path of a store, or create one with `ulcdb init`")
    if len(head) < 12 or head[8:12] != b"DUCK":
        raise StoreError(f"{path} is not a ulcdb store (not a DuckDB file, or truncated): "
                         "give the path of a store, or create one with `ulcdb init`")


def open_error(path: Path, exc: duckdb.Error) -> StoreError:
    """DuckDB's failure to open a store, in one line of ulcdb's words."""
    text = str(exc)
    lock = _LOCK.search(text)
    if lock:
        holder = holder_command(int(lock.group(2))) or lock.group(1)
        return StoreError(f"the store {path} is in use by another process ({holder}, "
                          f"PID {lock.group(2)}); try again when it ends")
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return StoreError(f"cannot open store {path}: {first}")


def ensure_unlocked(path: Path) -> None:
    """Raise when another process holds the DuckDB file at ``path`` (before deleting it)."""
    try:
        check_store_file(path)
    except StoreError:
        return  # not a DuckDB file: DuckDB cannot be holding it
    try:
        duckdb.connect(str(path)).close()
    except duckdb.Error as exc:
        if _LOCK.search(str(exc)):
            raise open_error(path, exc) from None


class Store:
    """One DuckDB file holding test beds, translations, judgments and scores."""

    def __init__(self, path: str | Path = DEFAULT_DB, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only and str(path) != ":memory:"
        if read_only and not self.path.exists():
            raise NotFound(f"no store at {self.path} (create one with `ulcdb init`)")
        check_store_file(self.path)
        try:
            self.con = duckdb.connect(str(self.path), read_only=read_only)
        except duckdb.Error as exc:
            raise open_error(self.path, exc) from None
        try:
            info = self._schema_info()
            self._check_version(info)
            self._sync_schema(read_only, info)
        except BaseException:
            self.con.close()
            raise

    # -- schema ---------------------------------------------------------------------------
    def _schema_info(self) -> dict[str, str] | None:
        """The store's schema_info rows (key: value), or None when it has no such table:
        one query, what every open pays (issue 28)."""
        try:
            rows = self.con.execute("select key, value from main.schema_info").fetchall()
        except duckdb.CatalogException:
            return None
        return {str(key): str(value) for key, value in rows if value is not None}

    def _stored_version(self, info: dict[str, str] | None) -> int | None:
        value = (info or {}).get("schema_version")
        if value is None:
            return None
        if not value.isdigit():
            raise StoreError(f"store {self.path} has schema version {value!r}, not a number: "
                             "it is damaged or not a ulcdb store")
        return int(value)

    def _check_version(self, info: dict[str, str] | None) -> None:
        version = self._stored_version(info)
        if version is None and self.scalar("select count(*) from duckdb_tables()"):
            raise StoreError(f"{self.path} is a DuckDB file of another program, not a ulcdb "
                             "store (it has tables but no schema_info): give the path of a "
                             "store, or create one with `ulcdb init`")
        if version is None or version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"store {self.path} has schema version {version}, newer than this ulcdb "
                f"understands ({SCHEMA_VERSION}): upgrade ulcdb to use it"
            )
        raise StoreError(
            f"store {self.path} has schema version {version}, older than this ulcdb's "
            f"({SCHEMA_VERSION}): re-create it with `ulcdb init --force` and ingest again"
        )

    def _sync_schema(self, read_only: bool, info: dict[str, str] | None) -> None:
        """Bring the views up to the shipped SQL when its digest differs from the stored one:
        written on a writable open, as temporary shadows on a read-only one."""
        if info is not None and info.get("schema_hash") == schema_hash():
            return
        if not read_only:
            self.apply_schema()
        elif self._stored_version(info) is None:
            raise StoreError(f"{self.path} is not a ulcdb store (it has no schema_info table): "
                             "give the path of one, or create one with `ulcdb init`")
        else:
            self._shadow_views()

    def apply_schema(self) -> None:
        """Create missing tables and (re)create every view, in the manifest's order; records
        the schema's digest, so later opens skip this while the shipped SQL is unchanged."""
        with self.transaction():
            for path in schema_files():
                self.con.execute(path.read_text(encoding="utf-8"))
            self.con.executemany(
                "insert or replace into schema_info values (?, ?)",
                [("schema_version", str(SCHEMA_VERSION)), ("schema_hash", schema_hash())],
            )

    def _shadow_views(self) -> None:
        """A read-only open of a store whose views predate the shipped SQL: this connection
        gets the shipped views and macros as temporary ones, which shadow the stored ones, so
        no stale view code runs and nothing is written."""
        for path in schema_files():
            if path.parent.name == "views":
                self.con.execute(_SHADOW.sub(r"create or replace temp \1",
                                             path.read_text(encoding="utf-8")))

    # -- transactions and helpers ----------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All or nothing: any exception rolls the store back to where it was."""
        self.con.execute("begin transaction")
        try:
            yield self.con
        except BaseException:
            self.con.execute("rollback")
            raise
        self.con.execute("commit")

    def drop_orphan_batches(self) -> int:
        """Delete provenance rows (score_batch) that no score points to any more (after
        --replace or --remake); returns how many went."""
        used = "select batch_id from stored_scores"
        n = self.scalar(f"select count(*) from score_batch where batch_id not in ({used})")
        if n:
            self.con.execute(f"delete from score_batch where batch_id not in ({used})")
        return int(n)

    def query(self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
              ) -> list[tuple[Any, ...]]:
        return self.con.execute(sql, params or []).fetchall()

    def scalar(self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
               ) -> Any:
        rows = self.con.execute(sql, params or []).fetchall()  # leaves no pending result
        return rows[0][0] if rows else None

    def insert_columns(self, table: str, columns: dict[str, list[Any]]) -> None:
        """Bulk insert column lists through Arrow (fast, unlike executemany)."""
        if not columns or not next(iter(columns.values())):
            return
        import pyarrow as pa  # here: commands that only read the store do not load it

        self.insert_arrow(table, pa.table(columns))

    def insert_arrow(self, table: str, rows: Any) -> None:
        """Bulk insert an Arrow table into the columns of ``table`` its columns name."""
        with self.registered("_ulcdb_bulk", rows):
            names = ", ".join(rows.column_names)
            self.con.execute(f"insert into {table} ({names}) select {names} from _ulcdb_bulk")

    def register(self, name: str, table: Any) -> None:
        """Name an Arrow table for SQL.  DuckDB 2 refuses while a streamed result is open
        (a ``fetchone`` leaves one), so one small query is run to completion first."""
        self.con.execute("select 1").fetchall()
        self.con.register(name, table)

    @contextmanager
    def registered(self, name: str, table: Any) -> Iterator[None]:
        """``table`` named ``name`` for the statements inside the block."""
        self.register(name, table)
        try:
            yield
        finally:
            self.con.unregister(name)

    def close(self) -> None:
        self.con.close()

    def compact(self) -> tuple[int, int]:
        """Give back the space deleted rows held; returns the file's size before and after.

        DuckDB keeps a file's size (CHECKPOINT marks blocks free for reuse; VACUUM does not
        shrink the file), so when the checkpoint leaves at least ``COMPACT_SHARE`` of the
        blocks free the store is copied into a fresh file beside it (tables, sequences,
        views and macros; COPY FROM DATABASE) that replaces it while this connection still
        holds the lock, and the connection moves to the new file."""
        before = self.path.stat().st_size
        self.con.execute("checkpoint")
        row = self.con.execute("select total_blocks, free_blocks from pragma_database_size() "
                               "where database_name = current_database()").fetchone()
        if row is None or not row[0] or row[1] / row[0] < COMPACT_SHARE:
            return before, self.path.stat().st_size
        fresh = self.path.with_name(self.path.name + ".compact")
        fresh.unlink(missing_ok=True)
        name = self.scalar("select current_database()")
        literal = "'" + str(fresh).replace("'", "''") + "'"
        try:
            self.con.execute(f"attach {literal} as ulcdb_compact")
            self.con.execute(f'copy from database "{name}" to ulcdb_compact')
            self.con.execute("detach ulcdb_compact")
            os.replace(fresh, self.path)
        finally:
            fresh.unlink(missing_ok=True)
        self.con.close()
        self.con = duckdb.connect(str(self.path))
        return before, self.path.stat().st_size

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- lookups ---------------------------------------------------------------------------
    def testbed_id(self, name: str) -> int:
        tid = self.scalar("select testbed_id from testbed where name = ?", [name])
        if tid is None:
            known = [r[0] for r in self.query("select name from testbed order by name")]
            raise NotFound(f"no test bed named {name!r} (store has: {', '.join(known) or 'none'})")
        return int(tid)

    def only_testbed(self) -> str:
        """The test bed to use when none is named: there must be exactly one."""
        names = [str(r[0]) for r in self.query("select name from testbed order by testbed_id")]
        if len(names) == 1:
            return names[0]
        if not names:
            raise NotFound("the store holds no test bed yet (see `ulcdb ingest testbed --help`)")
        raise StoreError(f"the store holds several test beds ({', '.join(names)}): name one "
                         "with -t/--testbed")

    def translators(self, testbed_id: int, role: str | None = None) -> dict[str, int]:
        sql = "select name, translator_id from translator where testbed_id = ?"
        params: list[Any] = [testbed_id]
        if role:
            sql += " and role = ?"
            params.append(role)
        return {n: int(i) for n, i in self.query(sql + " order by translator_id", params)}

"""`ulcdb serve` answers while the mirror is still being built: the first stage (tables and
views) is browsable and queryable, pages needing the analyses say "preparing: N of M parts",
and once the analyses are written the same server shows them (it follows the replaced file)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from serve_helpers import build_sample_store, free_port, start_serve, stop

from ulcdb.serve.background import begin, stages, status_path
from ulcdb.serve.config import datasette_command, write_metadata
from ulcdb.serve.mirror import build_mirror, mirror_is_fresh
from ulcdb.serve.status import STATUS_ENV, write_status


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def _wait(url: str, proc: subprocess.Popen) -> None:
    for _ in range(600):
        assert proc.poll() is None, "datasette stopped"
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} never answered")


def test_pages_while_the_mirror_is_prepared(tmp_path: Path) -> None:
    store = build_sample_store(tmp_path / "sample.duckdb")
    out = tmp_path / "sample.sqlite"
    begin(out)  # no mirror yet: an empty placeholder, status "preparing"
    assert out.exists() and not mirror_is_fresh(store, out)
    assert stages(out, full=False) == [False, True]  # tables first, then the analyses
    first = build_mirror(store, out, analyses=False)
    assert "scores" in first.tables and "ulc" not in first.tables
    assert not mirror_is_fresh(store, out)  # a first stage is never taken for the mirror
    write_status(status_path(out), preparing=True, done=34, total=84, step="analyses")
    port = free_port()
    meta = write_metadata(out, tmp_path / "metadata.json")
    proc = subprocess.Popen(datasette_command(out, meta, "127.0.0.1", port),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, STATUS_ENV: str(status_path(out))})
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(base + "/-/versions.json", proc)
        code, body = _get(base + "/sample/ulc")
        assert code == 503 and "preparing: 34 of 84 parts (analyses)" in body
        code, body = _get(base + "/sample/system_ranking")  # a canned query over ulc
        assert code == 503 and "preparing: 34 of 84 parts" in body
        code, body = _get(base + "/sample/translator")  # a finished table
        assert code == 200 and "sysA" in body and "preparing: 34 of 84 parts" in body
        code, body = _get(base + "/sample.json?sql=select+count(*)+as+n+from+scores"
                          "+where+level+%3D+'sys'&_shape=array")
        sys_scores = sqlite3.connect(out).execute(
            "select count(*) from scores where level = 'sys'").fetchone()[0]
        assert code == 200 and json.loads(body) == [{"n": sys_scores}] and sys_scores > 0
        code, body = _get(base + "/sample/nosuchtable_typo")  # still 503 while preparing
        assert code == 503
        assert json.loads(_get(base + "/-/preparing.json")[1])["preparing"] is True

        report = build_mirror(store, out)  # the analyses, on top of the first stage
        assert report.rewritten == report.parts - first.parts
        write_status(status_path(out), preparing=False)
        assert mirror_is_fresh(store, out)
        code, body = _get(base + "/sample/ulc?level=sys&metric_set=metrics_LEX")
        assert code == 200 and "preparing" not in body and "sysA" in body
        code, body = _get(base + "/sample/score_matrix?refset=ref-A")  # pivot: the systems
        assert code == 200 and "sysA" in body and "message-error" not in body
        assert _get(base + "/sample/nosuchtable_typo")[0] == 404
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_from_a_cold_start(tmp_path: Path) -> None:
    store = build_sample_store(tmp_path / "cold.duckdb")
    port = free_port()
    proc = start_serve(store, port, tmp_path / "serve.log", prepared=False)
    try:  # the server answered; the mirror is built behind it
        base = f"http://127.0.0.1:{port}"
        for _ in range(1200):
            if not json.loads(_get(base + "/-/preparing.json")[1])["preparing"]:
                break
            time.sleep(0.25)
        code, body = _get(base + "/cold/ulc?level=sys")
        assert code == 200 and "sysA" in body
    finally:
        stop(proc)
    assert mirror_is_fresh(store, tmp_path / "cold.sqlite")
    assert not status_path(tmp_path / "cold.sqlite").exists()
    assert "parts rewritten" in (tmp_path / "serve.log").read_text()

"""A reader that stops early (`ulcdb list metrics -f csv | head -1`) is no error of the
command: it printed "Error: Broken pipe" on stderr (the CLI's last net for I/O errors
caught it) where sacrebleu, grep or cat print nothing."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_a_reader_closing_the_pipe_gets_no_error_line() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "ulcdb", "list", "metrics", "-f", "csv"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"name,family,level,languages,range,computed\n"
    proc.stdout.close()  # the rest (1,700 metrics, over 100 kB) goes to a closed pipe
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait() == 1  # as Typer (and click) exit on a broken pipe
    assert err == b""

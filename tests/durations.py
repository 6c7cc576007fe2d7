"""Measured test times, from which tests/conftest.py derives the `slow` mark.

`python tests/durations.py OUT.txt [JUNIT.xml]` reads the output of a whole-suite run
``python -m pytest -q -p no:randomly --durations=0 > OUT.txt`` (every setup, call and teardown
of at least 5 ms, one line each) and writes tests/durations.json: each module's total (set-up,
calls and tear-down of all its tests) and the calls of single tests over TEST_LIMIT seconds.
With a junit file (``--junitxml=JUNIT.xml``) the module totals come from it instead (its time
of a test is set-up + call + tear-down, the short ones included).  Set the load average the
run was made under in ``measured``: times on a loaded machine are several times the quiet ones.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE = HERE / "durations.json"
MODULE_LIMIT = 60.0  # a module whose tests take longer than this in total is slow
TEST_LIMIT = 20.0  # so is a single test whose call takes longer than this
LINE = re.compile(r"^([\d.]+)s (setup|call|teardown)\s+(\S+?\.py)::(\S+)")


def stem_and_name(path: str, name: str) -> tuple[str, str]:
    """('test_x', 'test_y') for tests/a/test_x.py::Class::test_y[p]."""
    return Path(path).stem, name.split("::")[-1].split("[")[0]


def from_durations(text: str) -> tuple[Counter[str], dict[str, float]]:
    modules: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    for line in text.splitlines():
        if m := LINE.match(line.strip()):
            seconds, phase, path, name = float(m.group(1)), m.group(2), m.group(3), m.group(4)
            stem, test = stem_and_name(path, name)
            modules[stem] += seconds
            if phase == "call":
                calls[f"{stem}::{test}"] += seconds  # parametrized cases summed
    return modules, {k: round(v, 1) for k, v in calls.items() if v > TEST_LIMIT}


def from_junit(path: Path) -> Counter[str]:
    modules: Counter[str] = Counter()
    for case in ET.parse(path).getroot().iter("testcase"):
        parts = (case.get("classname") or "").split(".")
        stem = next((p for p in parts if p.startswith("test_")), None)
        if stem:  # a run stopped by Ctrl-C ends with a case of no class
            modules[stem] += float(case.get("time") or 0)
    return modules


def main(argv: list[str]) -> None:
    modules, tests = from_durations(Path(argv[0]).read_text(encoding="utf-8"))
    if len(argv) > 1:
        modules = from_junit(Path(argv[1]))
    old = json.loads(FILE.read_text(encoding="utf-8")) if FILE.exists() else {}
    data = {"measured": old.get("measured", "when, on what machine, under what load"),
            "module_limit": MODULE_LIMIT, "test_limit": TEST_LIMIT,
            "modules": {k: round(v, 1) for k, v in sorted(modules.items())},
            "tests": dict(sorted(tests.items()))}
    FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    slow = [m for m, s in modules.items() if s > MODULE_LIMIT]
    print(f"{len(modules)} modules ({len(slow)} slow), {len(tests)} slow tests -> {FILE}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""`ulcdb eval`: sacrebleu's command line, reproduced byte for byte on the shared samples
(1, 2 and 3 references; single system, several systems, paired bs and ar), plus ulcdb's
metrics, standard input, --save, and the refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest
from typer.testing import CliRunner

from ulcdb.cli.main import app

RUNNER = CliRunner()
SYSTEMS = ("Facebook-AI", "Online-W", "AFRL")


@pytest.fixture(scope="module")
def ruen(ruen_sample: Path) -> Path:
    return ruen_sample


def refs_of(sample: Path, names: tuple[str, ...]) -> list[str]:
    return [str(next((sample / "refs").glob(f"{n}.*.txt"))) for n in names]


def systems_of(sample: Path, names: tuple[str, ...]) -> list[str]:
    return [str(next((sample / "systems").glob(f"{n}.*.txt"))) for n in names]


def sacrebleu(*args: str) -> str:
    env = {**os.environ, "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-m", "sacrebleu", *args], capture_output=True,
                         text=True, env=env, check=True)
    return out.stdout


def ulcdb_eval(*args: str, stdin: str | None = None) -> str:
    result = RUNNER.invoke(app, ["eval", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("fmt", ["json", "text"])
@pytest.mark.parametrize("refs", [("ref-A",), ("ref-A", "ref-B")])
def test_single_system_equals_sacrebleu(ruen: Path, refs: tuple[str, ...], fmt: str) -> None:
    args = [*refs_of(ruen, refs), "-i", *systems_of(ruen, SYSTEMS[:1]), "-m", "bleu", "chrf",
            "ter", "-f", fmt]
    assert ulcdb_eval(*args) == sacrebleu(*args)


def test_three_references_and_widths_equal_sacrebleu(ende_sample: Path) -> None:
    args = [*refs_of(ende_sample, ("ref-A", "ref-C", "ref-D")), "-i",
            *systems_of(ende_sample, ("Online-W",)), "-m", "bleu", "chrf", "ter", "-w", "4"]
    assert ulcdb_eval(*args) == sacrebleu(*args)


def test_several_systems_table_equals_sacrebleu(ruen: Path) -> None:
    args = [*refs_of(ruen, ("ref-A",)), "-i", *systems_of(ruen, SYSTEMS), "-m", "bleu",
            "chrf", "-f", "text"]
    assert ulcdb_eval(*args) == sacrebleu(*args)


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_paired_tests_equal_sacrebleu(ruen: Path, test: str) -> None:
    args = [*refs_of(ruen, ("ref-A", "ref-B")), "-i", *systems_of(ruen, SYSTEMS), "-m",
            "bleu", "chrf", "ter", test, "-f", "text"]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    assert "(p = " in out


def test_paired_three_references_equal_sacrebleu(ende_sample: Path) -> None:
    args = [*refs_of(ende_sample, ("ref-A", "ref-C", "ref-D")), "-i",
            *systems_of(ende_sample, ("Online-W", "ICL")), "-m", "bleu", "ter", "--paired-bs",
            "-f", "text"]
    assert ulcdb_eval(*args) == sacrebleu(*args)


def test_paired_json_is_sacrebleus_test(ruen: Path) -> None:
    """The JSON sacrebleu cannot write itself (float32): values from its PairedTest."""
    refs, systems = refs_of(ruen, ("ref-A",)), systems_of(ruen, SYSTEMS[:2])
    records = json.loads(ulcdb_eval(*refs, "-i", *systems, "-m", "bleu", "chrf", "ter",
                                    "--paired-bs"))
    texts = [Path(p).read_text(encoding="utf-8").splitlines() for p in [*refs, *systems]]
    named = [(p, t) for p, t in zip(systems, texts[1:], strict=True)]
    metrics = {"BLEU": BLEU(references=[texts[0]]), "CHRF": CHRF(references=[texts[0]]),
               "TER": TER(references=[texts[0]])}
    _, expected = PairedTest(named, metrics, None, test_type="bs", n_samples=1000)()
    assert [r["system"] for r in records] == [f"Baseline: {systems[0]}", systems[1]]
    for name in ("BLEU", "chrF2", "TER"):
        for record, want in zip(records, expected[name], strict=True):
            got = record[name]
            assert got["score"] == pytest.approx(want.score, abs=1e-9)
            assert got["mean"] == pytest.approx(float(want.mean), abs=1e-4)
            assert got["ci"] == pytest.approx(float(want.ci), abs=1e-4)
            assert got["p_value"] == (None if want.p_value is None
                                      else pytest.approx(float(want.p_value)))


def test_standard_input_and_no_file_left(ruen: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ref, system = refs_of(ruen, ("ref-A",))[0], systems_of(ruen, SYSTEMS[:1])[0]
    piped = ulcdb_eval(ref, "-m", "bleu", "-f", "text",
                       stdin=Path(system).read_text(encoding="utf-8"))
    assert piped == sacrebleu(ref, "-i", system, "-m", "bleu", "-f", "text")
    assert list(tmp_path.iterdir()) == []


def test_ulcdb_metrics_on_either_scale(ruen: Path) -> None:
    """A metric sacrebleu lacks, in sacrebleu's record shape; --scale 1 is ulcdb's scale,
    where BLEU equals what `ulcdb score` stores (0.400068 for Facebook-AI against ref-A)."""
    args = [*refs_of(ruen, ("ref-A",)), "-i", *systems_of(ruen, SYSTEMS[:1])]
    records = json.loads(ulcdb_eval(*args, "-m", "bleu,MTR-exact,NIST", "-w", "4"))
    by_name = {r["name"]: r for r in records}
    assert by_name["BLEU"]["score"] == 40.0068
    assert by_name["MTR-exact"]["signature"].startswith("METEOR|nrefs:1|")
    assert by_name["MTR-exact"]["impl"] == "meteor-1.5"
    assert 0 < by_name["MTR-exact"]["score"] <= 100
    assert by_name["NIST"]["score"] < 15  # unbounded: never scaled
    line = ulcdb_eval(*args, "-m", "MTR-exact", "--scale", "1", "-w", "6", "-f", "text")
    assert float(line.split("= ")[1]) == pytest.approx(by_name["MTR-exact"]["score"] / 100,
                                                        abs=1e-4)


def test_save_keeps_the_test_bed_and_scores(ruen: Path, tmp_path: Path) -> None:
    store = tmp_path / "kept.duckdb"
    ulcdb_eval(*refs_of(ruen, ("ref-A",)), "-i", *systems_of(ruen, SYSTEMS[:2]), "-m", "bleu",
               "--save", str(store), "--name", "ruen")
    result = RUNNER.invoke(app, ["--db", str(store), "sql", "select translator, value from "
                                 "scores where metric = 'BLEU' and level = 'sys' order by 1",
                                 "-f", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == ["Facebook-AI.en.txt,0.4000679009870036",
                                              "Online-W.en.txt,0.3580303259508338"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--paired-bs"], "paired tests need two systems"),
    (["-n", "0"], "must be positive"),
    (["-m", "NoSuchMetric"], "NoSuchMetric"),
    (["--paired-bs", "--paired-ar"], "exclude each other"),
])
def test_refusals_are_one_line(ruen: Path, extra: list[str], message: str) -> None:
    args = [*refs_of(ruen, ("ref-A",)), "-i", *systems_of(ruen, SYSTEMS[:1]), *extra]
    result = RUNNER.invoke(app, ["eval", *args])
    assert result.exit_code == 1
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_line_count_mismatch_names_the_file(ruen: Path, tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["eval", *refs_of(ruen, ("ref-A",)), "-i", str(short)])
    assert result.exit_code == 1
    assert str(short) in result.output and "has 1 lines" in result.output

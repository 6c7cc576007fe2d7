"""`ulcdb eval` read and printed as sacrebleu 2.6.0 reads and prints the same command line,
on the WMT21 ru-en sample (what the walkthrough found different)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ulcdb.cli.main import app


def sacrebleu(*args: str) -> str:
    env = {**os.environ, "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-m", "sacrebleu", *args], capture_output=True,
                         text=True, env=env, check=True)
    return out.stdout


def ulcdb_eval(*args: str) -> str:
    result = CliRunner().invoke(app, ["eval", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def files(sample: Path, *systems: str) -> list[str]:
    return [str(sample / "refs" / "ref-A.en.txt"), "-i",
            *(str(sample / "systems" / f"{s}.en.txt") for s in systems)]


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_paired_tests_lowercase_as_asked(ruen_sample: Path, test: str) -> None:
    """The paired table printed the mixed-case BLEU (39.5 for Online-B) under a signature
    saying case:lc; sacrebleu's lowercased BLEU is 40.7."""
    args = [*files(ruen_sample, "Online-B", "AFRL"), "-m", "bleu", "ter", "-lc", test,
            "-f", "text"]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    baseline = next(line for line in out.splitlines() if "Baseline:" in line)
    assert baseline.split("│")[2].split()[0] == "40.7"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_several_systems_in_sacrebleus_metric_order(ruen_sample: Path, fmt: str) -> None:
    """Without a paired test sacrebleu sorts its metrics (BLEU, chrF2, TER) whatever -m's
    order; eval's table and signatures followed -m (TER, chrF2, BLEU)."""
    args = [*files(ruen_sample, "Online-B", "AFRL"), "-m", "ter", "chrf", "bleu", "-f", fmt]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    if fmt == "text":
        header = out.splitlines()[1].split("│")
        assert [h.strip() for h in header[2:5]] == ["BLEU", "chrF2", "TER"]
        sigs = [line.split()[1] for line in out.splitlines() if line.startswith(" - ")]
        assert sigs == ["BLEU", "chrF2", "TER"]


@pytest.mark.parametrize("case", [["-lc"], ["-lc", "--chrf-lowercase"], ["--chrf-lowercase"]])
@pytest.mark.parametrize("test", [[], ["--paired-bs"]])
def test_lowercase_is_bleus_and_chrf_has_its_own(ruen_sample: Path, case: list[str],
                                                 test: list[str]) -> None:
    """sacrebleu's -lc lowercases BLEU, not chrF (its --chrf-lowercase does): eval -lc
    printed Online-B's chrF2 as 65.8 (case:lc) where sacrebleu -lc prints 65.0 (case:mixed)."""
    systems = ("Online-B", "AFRL") if test else ("Online-B",)
    args = [*files(ruen_sample, *systems), "-m", "bleu", "chrf", *case, *test, "-f", "text"]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    chrf = next(line for line in out.splitlines() if "chrF2" in line and "nc:6" in line)
    lowered = "--chrf-lowercase" in case
    assert ("case:lc" if lowered else "case:mixed") in chrf
    if not test:
        assert chrf.endswith("= 65.8" if lowered else "= 65.0")


def test_a_sets_chrf_is_cased_as_chrf(ruen_sample: Path) -> None:
    """-lc leaves chrF as written when a metric set brings it too (metrics_CHRF)."""
    out = ulcdb_eval(*files(ruen_sample, "Online-B"), "-m", "metrics_CHRF", "bleu", "-lc",
                     "-f", "text")
    lines = {line.split("|")[0].strip(): line for line in out.splitlines()}
    assert "case:lc" in lines["BLEU"]
    assert "case:mixed" in lines["chrF2"] and lines["chrF2"].endswith("= 65.0")
    assert "case:mixed" in lines["chrF2++"]


@pytest.mark.parametrize(("refs", "extra"), [
    (("ref-A",), ["-f", "text"]),
    (("ref-A", "ref-B"), ["-f", "json", "-w", "4"]),
    (("ref-A",), ["--confidence-n", "300", "-lc", "-f", "text", "-w", "3"]),
])
def test_confidence_is_sacrebleus(ruen_sample: Path, refs: tuple[str, ...],
                                  extra: list[str]) -> None:
    """sacrebleu's --confidence (refused before as 'No such option'): each metric's bootstrap
    mean and 95% interval, and bs:N|seed:S in its signature."""
    args = [*(str(ruen_sample / "refs" / f"{r}.en.txt") for r in refs), "-i",
            str(ruen_sample / "systems" / "Online-B.en.txt"), "-m", "bleu", "chrf", "ter",
            "--confidence", *extra]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    assert "bs:300|seed:12345" in out if "300" in extra else "bs:1000|seed:12345" in out


def test_confidence_seed_is_sacrebleus_seed(ruen_sample: Path) -> None:
    args = [*files(ruen_sample, "Online-B"), "--confidence", "-f", "text", "-w", "3"]
    out = ulcdb_eval(*args, "--seed", "7")
    env = {**os.environ, "NO_COLOR": "1", "SACREBLEU_SEED": "7"}
    want = subprocess.run([sys.executable, "-m", "sacrebleu", *args], capture_output=True,
                          text=True, env=env, check=True).stdout
    assert out == want
    assert "= 39.468 (μ = 39.285 ± 4.340)" in out


@pytest.mark.parametrize(("systems", "extra", "message"), [
    (("Online-B", "AFRL"), [], "--confidence is for one system"),
    (("Online-B",), ["-m", "bleu", "NIST"], "not of NIST"),
    (("Online-B",), ["--confidence-n", "0"], "must be positive, not 0"),
])
def test_confidence_refusals(ruen_sample: Path, systems: tuple[str, ...], extra: list[str],
                             message: str) -> None:
    result = CliRunner().invoke(app, ["eval", *files(ruen_sample, *systems), "--confidence",
                                      *extra])
    assert result.exit_code == 1
    assert message in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("extra", [
    ["-b"], ["-b", "-f", "text"], ["-b", "--confidence", "-f", "text"], ["-sh", "-f", "text"],
    ["-sh", "--confidence", "-f", "text"], ["-tok", "13a", "-cw", "0", "-j", "2", "-q"],
    ["--tokenize=13a", "-nc", "-f", "text"],
])
def test_sacrebleus_display_options_on_one_system(ruen_sample: Path, extra: list[str]) -> None:
    """-b, -sh, -nc (and sacrebleu's defaults spelled out) were 'No such option'."""
    args = [*files(ruen_sample, "Online-B"), "-m", "bleu", "chrf", "ter", *extra]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    if extra[:2] == ["-b", "-f"]:
        assert out.split() == ["39.5", "65.0", "50.6"]


@pytest.mark.parametrize("extra", [
    ["-b", "-f", "text"], ["-sh", "-f", "text", "--paired-bs", "--paired-bs-n", "200"],
    ["--paired-ar", "--paired-ar-n", "200", "-f", "text"],
])
def test_sacrebleus_options_on_several_systems(ruen_sample: Path, extra: list[str]) -> None:
    args = [*files(ruen_sample, "Online-B", "AFRL"), "-m", "bleu", "chrf", *extra]
    out = ulcdb_eval(*args)
    assert out == sacrebleu(*args)
    if "200" in extra:
        assert f"{'bs' if '--paired-bs' in extra else 'ar'}:200|" in out


@pytest.mark.parametrize(("extra", "message"), [
    (["-tok", "char"], "sacrebleu's -tok char is not offered by eval: eval's BLEU is "
     "sacrebleu's default (tok:13a"),
    (["--tokenize=intl"], "sacrebleu's --tokenize intl is not offered"),
    (["--chrf-word-order", "2"], "it is -m chrf++"),
    (["-t", "wmt21"], "give the reference files"),
    (["-nr", "2"], "one reference per file"),
    (["--ter-case-sensitive"], "eval's TER is sacrebleu's default (case:lc"),
    (["-sl"], "score -G seg"),
])
def test_sacrebleus_other_options_refused_saying_why(ruen_sample: Path, extra: list[str],
                                                     message: str) -> None:
    """Refused as usage errors (2) in one line saying what eval does, where click said 'No
    such option' (for -tok char: 'No such option: -t')."""
    result = CliRunner().invoke(app, ["eval", *files(ruen_sample, "Online-B"), *extra])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_files_of_one_name_in_several_folders(ruen_sample: Path, tmp_path: Path) -> None:
    """runs/a/hyp.en.txt and runs/b/hyp.en.txt (and a name with a comma): sacrebleu scores
    them; eval refused "'hyp.en.txt' already names runs/a/hyp.en.txt"."""
    paths = [tmp_path / "runs" / "a" / "hyp.en.txt", tmp_path / "runs" / "b" / "hyp.en.txt",
             tmp_path / "out,v2=b.en.txt"]
    for path, system in zip(paths, ("Online-B", "AFRL", "Online-W"), strict=True):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((ruen_sample / "systems" / f"{system}.en.txt").read_bytes())
    ref = str(ruen_sample / "refs" / "ref-A.en.txt")
    args = [ref, "-i", *map(str, paths), "-m", "bleu", "-f", "text"]
    assert ulcdb_eval(*args) == sacrebleu(*args)
    store = tmp_path / "kept.duckdb"
    ulcdb_eval(*args, "--save", str(store))
    listed = CliRunner().invoke(app, ["--db", str(store), "list", "systems", "-f", "csv"])
    assert [line.split(",")[0] for line in listed.stdout.splitlines()[1:]] == [
        "a/hyp.en.txt", "b/hyp.en.txt", "out_v2_b.en.txt"]


def test_one_file_given_twice_is_refused(ruen_sample: Path) -> None:
    system = str(ruen_sample / "systems" / "AFRL.en.txt")
    result = CliRunner().invoke(app, ["eval", *files(ruen_sample), system, system])
    assert result.exit_code == 1
    assert result.output == f"Error: {system}: given twice: give each reference and system once\n"


@pytest.mark.parametrize(("pair", "tok"), [("ru-zh", "zh"), ("ru-ja", "ja-mecab"),
                                           ("ru-ko", "ko-mecab")])
def test_language_pair_whose_bleu_sacrebleu_tokenizes_its_own_way(
        ruen_sample: Path, pair: str, tok: str) -> None:
    """sacrebleu -l ru-zh scores BLEU with tok:zh (25.0 against 13a's 24.6 on en-de's ICL);
    eval printed 13a's BLEU for the same command line."""
    result = CliRunner().invoke(app, ["eval", *files(ruen_sample, "AFRL"), "-l", pair])
    assert result.exit_code == 1
    assert result.output == (f"Error: -l {pair}: sacrebleu scores BLEU into {pair[3:]} with "
                             f"its tokenizer tok:{tok}, which eval does not offer (its BLEU is "
                             "tok:13a): leave bleu out of -m, or run sacrebleu\n")
    args = [*files(ruen_sample, "AFRL"), "-l", pair, "-m", "chrf", "ter", "-f", "text"]
    assert ulcdb_eval(*args) == sacrebleu(*args)


def test_other_language_pairs_are_sacrebleus(ruen_sample: Path) -> None:
    args = [*files(ruen_sample, "AFRL"), "-l", "ru-en", "-m", "bleu", "chrf", "ter"]
    assert ulcdb_eval(*args) == sacrebleu(*args)


@pytest.mark.parametrize(("given", "said"), [
    (["--paired-bs", "--paired-bs-n", "10"],
     "-n 10 (sacrebleu's --paired-bs-n) cannot give a p-value below 0.05 (the smallest is "
     "1/11 = 0.0909): use at least 20, or leave it out (1000)"),
    (["--paired-ar", "-n", "19"],
     "-n 19 (sacrebleu's --paired-ar-n) cannot give a p-value below 0.05 (the smallest is "
     "1/20 = 0.05): use at least 20, or leave it out (10000)"),
])
def test_too_few_resamples_named_by_evals_option(ruen_sample: Path, given: list[str],
                                                  said: str) -> None:
    """The refusal named `ulcdb compare`'s --resamples, which eval has not."""
    result = CliRunner().invoke(app, ["eval", *files(ruen_sample, "Online-B", "AFRL"),
                                      *given])
    assert result.exit_code == 1
    assert result.output == f"Error: {said}\n"

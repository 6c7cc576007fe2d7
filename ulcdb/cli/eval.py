"""`ulcdb eval`: score plain files at once, as sacrebleu does (no store needed)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import typer
from typer.core import TyperCommand

from ulcdb.cli.common import one_of

# Options that take several values after one flag, as sacrebleu's do (-i a b c, -m bleu chrf).
_MULTI = {"-i", "--input", "-m", "--metrics"}


class _SacrebleuArgs(TyperCommand):
    """Reads ``-i A B C`` as ``-i A -i B -i C`` (and ``-m`` likewise), as sacrebleu does;
    sacrebleu's options eval does not take are refused saying what eval does instead."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        from ulcdb.oneshot.options import sacrebleu_only

        args = sacrebleu_only(args)
        out: list[str] = []
        flag: str | None = None
        for arg in args:
            if arg in _MULTI:
                flag = arg
                out.append(arg)
            elif flag and not arg.startswith("-") and out[-1] != flag:
                out += [flag, arg]
            else:
                flag = flag if arg == flag or (out and out[-1] == flag) else None
                out.append(arg)
        return super().parse_args(ctx, out)


Format = Literal["json", "text"]


def eval_(
    refs: Annotated[list[Path], typer.Argument(
        help="Reference files, one segment per line.", show_default=False)],
    systems: Annotated[list[str] | None, typer.Option(
        "-i", "--input", help="System files (several after one -i, as sacrebleu); without "
        "-i the system is read from standard input.", show_default=False)] = None,
    metrics: Annotated[list[str] | None, typer.Option(
        "-m", "--metrics", help="sacrebleu's names (bleu chrf chrf++ ter) or any metric or "
        "set of `ulcdb list metrics`, space- or comma-separated [default: bleu].",
        show_default=False)] = None,
    paired_bs: Annotated[bool, typer.Option(
        "--paired-bs", help="Paired bootstrap resampling against the first system.")] = False,
    paired_ar: Annotated[bool, typer.Option(
        "--paired-ar", help="Paired approximate randomization against the first "
        "system.")] = False,
    resamples: Annotated[int | None, typer.Option(
        "-n", "--paired-n", help="Resamples (bs, default 1000) or trials (ar, default "
        "10000): sacrebleu's --paired-bs-n or --paired-ar-n.")] = None,
    confidence: Annotated[bool, typer.Option(
        "--confidence", help="One system's bootstrap mean and 95% interval of each of "
        "sacrebleu's metrics, as sacrebleu's --confidence.")] = False,
    confidence_n: Annotated[int, typer.Option(
        "--confidence-n", help="Resamples of --confidence.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the paired test or of "
                                      "--confidence (sacrebleu's SACREBLEU_SEED).")] = 12345,
    lowercase: Annotated[bool, typer.Option(
        "-lc", "--lowercase", help="Lowercase before scoring, as sacrebleu's -lc: BLEU and "
        "every metric of ulcdb, not chrF (sacrebleu's TER is case-insensitive anyway).")
        ] = False,
    chrf_lowercase: Annotated[bool, typer.Option(
        "--chrf-lowercase", help="Lowercase before scoring chrF and chrF++ (sacrebleu's).")
        ] = False,
    fmt: Annotated[Format, typer.Option("-f", "--format", help="sacrebleu's output format.",
                                        **one_of("format", get_args(Format)))] = "json",
    scale: Annotated[int, typer.Option(
        "--scale", help="100: sacrebleu's 0-100 scale; 1: ulcdb's 0-1 scale (unbounded "
        "metrics such as NIST are never scaled).")] = 100,
    width: Annotated[int, typer.Option("-w", "--width", help="Decimals printed.")] = 1,
    score_only: Annotated[bool, typer.Option(
        "-b", "--score-only", help="One system: its scores alone, as sacrebleu's -b.")
        ] = False,
    short: Annotated[bool, typer.Option(
        "-sh", "--short", help="sacrebleu's short signatures (-f text; ulcdb's metrics keep "
        "theirs).")] = False,
    no_color: Annotated[bool, typer.Option(
        "-nc", "--no-color", help="No colours (as when the output is no terminal).")
        ] = False,
    source: Annotated[Path | None, typer.Option(
        "--src", help="Source file (kept with --save; no metric of eval needs it).")] = None,
    langpair: Annotated[str | None, typer.Option(
        "-l", "--language-pair", help="SRC-TGT, e.g. en-de (the target language chooses "
        "language-specific metric settings, as in ingest).")] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", help="Keep the test bed and its scores in this store (created when "
        "missing), as `ulcdb ingest testbed` and `ulcdb score` would.")] = None,
    name: Annotated[str, typer.Option("--name", help="Test bed name with --save.")] = "eval",
) -> None:
    """Score plain text files at once, as sacrebleu does: no store, nothing left behind.

    Prints what sacrebleu prints (its scores, signatures and, with --paired-bs/--paired-ar,
    its table with the first system as baseline), computed by ulcdb, so any metric of the
    catalogue can be added. Scores are on sacrebleu's 0-100 scale by default.

    Example: ulcdb eval ref.de -i sysA.de sysB.de -m bleu chrf ter --paired-bs -f text
    """
    from ulcdb.errors import UlcdbError
    from ulcdb.oneshot.inputs import EvalFiles
    from ulcdb.oneshot.render import render
    from ulcdb.oneshot.run import EvalRequest, evaluate

    if paired_bs and paired_ar:
        raise UlcdbError("--paired-bs and --paired-ar exclude each other: pick one")
    if scale not in (1, 100):
        raise UlcdbError(f"--scale is 100 or 1, not {scale}")
    src_lang, tgt_lang = _languages(langpair)
    request = EvalRequest(
        EvalFiles(tuple(map(str, refs)), tuple(systems or ()),
                  str(source) if source else None),
        tuple(metrics or ("bleu",)), "bs" if paired_bs else "ar" if paired_ar else None,
        resamples, seed, confidence_n if confidence else None, lowercase=lowercase,
        chrf_lowercase=chrf_lowercase, scale=float(scale), src_lang=src_lang,
        tgt_lang=tgt_lang, save=save, name=name)
    stdin = None if systems or sys.stdin.isatty() else sys.stdin.buffer
    render(evaluate(request, stdin), fmt, width, score_only, short, not no_color)


def _languages(pair: str | None) -> tuple[str | None, str | None]:
    from ulcdb.errors import UlcdbError

    if pair is None:
        return None, None
    src, sep, tgt = pair.partition("-")
    if not (sep and src and tgt):
        raise UlcdbError(f"-l {pair!r}: give the language pair as SRC-TGT, e.g. en-de")
    return src, tgt


def register(app: typer.Typer) -> None:
    app.command("eval", cls=_SacrebleuArgs)(eval_)

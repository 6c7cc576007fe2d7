"""sacrebleu's options that `ulcdb eval` does not take, each refused in one line saying what
eval does instead; sacrebleu's options that change nothing eval prints are read and let be.

sacrebleu 2.6.0's ``--help`` is the list: an option of it that eval did not know was refused
as click's 'No such option', ``-tok char`` even as 'No such option: -t'.
"""

from __future__ import annotations

from ulcdb.errors import ChoiceError

_BLEU = ("eval's BLEU is sacrebleu's default (tok:13a, smooth:exp in its signature); other "
         "tokenizers and smoothings are not offered")
_CHRF = ("eval's chrF is sacrebleu's default (nc:6, beta 2, space:no, eff:yes in its "
         "signature); with word bigrams it is -m chrf++ (sacrebleu's --chrf-word-order 2)")
_TER = ("eval's TER is sacrebleu's default (case:lc, punct:yes, norm:no, asian:no in its "
        "signature)")
_TEST_SETS = "eval scores the files it is given: give the reference files (sacrebleu downloads "\
    "its test sets itself)"

# sacrebleu's flag (long and short) -> (takes a value, why eval refuses it)
REFUSED: dict[str, tuple[bool, str]] = {
    **dict.fromkeys(("--tokenize", "-tok", "--smooth-method", "-s", "--smooth-value",
                     "-sv"), (True, _BLEU)),
    **dict.fromkeys(("--chrf-char-order", "-cc", "--chrf-word-order", "-cw", "--chrf-beta"),
                    (True, _CHRF)),
    **dict.fromkeys(("--chrf-whitespace", "--chrf-eps-smoothing"), (False, _CHRF)),
    **dict.fromkeys(("--ter-case-sensitive", "--ter-asian-support", "--ter-no-punct",
                     "--ter-normalized"), (False, _TER)),
    **dict.fromkeys(("--test-set", "-t", "--origlang", "-ol", "--subset", "--download",
                     "--echo"), (True, _TEST_SETS)),
    **dict.fromkeys(("--list", "--citation", "--cite"), (False, _TEST_SETS)),
    **dict.fromkeys(("--num-refs", "-nr"), (True, "eval reads one reference per file: give "
                                            "each reference file (sacrebleu's -nr splits "
                                            "tab-separated references of one file)")),
    **dict.fromkeys(("--encoding", "-e"), (True, "eval reads UTF-8 only (convert a file "
                                           "with iconv -f ENCODING -t UTF-8)")),
    **dict.fromkeys(("--sentence-level", "-sl"), (False, "eval prints corpus scores; for "
                                                  "segment scores keep them with --save "
                                                  "STORE, then `ulcdb --db STORE score -G "
                                                  "seg`")),
    **dict.fromkeys(("--detail", "-d"), (False, "eval has no per-subset detail (sacrebleu's "
                                         "-d splits a downloaded test set by origlang)")),
}
# sacrebleu's flags that change nothing eval prints: its jobs of paired tests, its quiet
# (eval writes no progress), its tokenizer and chrF word order at their defaults.
IGNORED: dict[str, tuple[bool, str | None]] = {
    **dict.fromkeys(("--paired-jobs", "-j"), (True, None)),
    **dict.fromkeys(("--quiet", "-q"), (False, None)),
    **dict.fromkeys(("--tokenize", "-tok"), (True, "13a")),
    **dict.fromkeys(("--chrf-word-order", "-cw"), (True, "0")),
}


# sacrebleu's names of eval's options (too long for one line of --help)
RENAMED = {"--paired-bs-n": "--paired-n", "--paired-ar-n": "--paired-n"}


def sacrebleu_only(args: list[str]) -> list[str]:
    """``args`` without sacrebleu's flags that change nothing eval prints and with eval's
    names of its others; a flag eval does not offer is a ``ChoiceError`` (a usage error)
    saying what eval does instead."""
    out: list[str] = []
    rest = iter(args)
    for arg in rest:
        flag, eq, attached = arg.partition("=")
        if flag in RENAMED or (flag not in REFUSED and flag not in IGNORED):
            out.append(RENAMED[flag] + eq + attached if flag in RENAMED else arg)
            continue
        takes_value = (IGNORED.get(flag) or REFUSED[flag])[0]
        value = (attached if eq else next(rest, "")) if takes_value else None
        ignored = IGNORED.get(flag)
        if ignored is not None and ignored[1] in (None, value):
            continue
        given = f"{flag} {value}" if value is not None else flag
        raise ChoiceError(f"sacrebleu's {given} is not offered by eval: {REFUSED[flag][1]}")
    return out

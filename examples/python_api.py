"""ulcdb from Python, notebook style: run it cell by cell (or `python examples/python_api.py`
from the repository root).  It builds a store from the bundled sample, scores it, computes
QUEEN and meta-evaluates every metric scored against the sample's DA judgments."""

# %% a store (created when missing)
from pathlib import Path

import ulcdb

sample = Path(__file__).resolve().parents[1] / "sample"
plain = sample / "plain"
db = ulcdb.open("api-example.duckdb")

# %% a test bed from plain files (identical content again is a no-op)
print(db.ingest_testbed(
    name="sample", source=plain / "source.es.txt", docs=plain / "docs.tsv",
    refs={r: plain / "refs" / f"{r}.en.txt" for r in ("ref-A", "ref-B", "ref-C")},
    systems={s: plain / "systems" / f"{s}.en.txt" for s in ("sysA", "sysB", "sysC", "sysD")},
    src_lang="es", tgt_lang="en").summary())
print(db.ingest_assessments(sample / "human" / "da.tsv", criterion="DA-raw",
                            mapping={"system": "system", "seg_id": "seg_id",
                                     "score": "da_raw", "judge": "judge"}).summary())

# %% scores: a pyarrow Table (to_pandas() for a DataFrame)
print(db.score("BLEU,chrF,MTR-exact", level="sys").to_pylist())

# %% QUEEN and meta-evaluation
print(db.queen("BLEU,chrF").to_pylist())
for row in db.meta("DA-raw", level="sys", coefficients=["pearson", "kendall_tau_b"]).to_pylist():
    print(row["metric"], row["pearson"], row["kendall_tau_b"])

# %% typed entities and SQL
print([t.name for t in db.translators()])
print(db.sql("select metric, avg(value) as mean from scores where level = 'seg' "
             "group by metric order by metric").to_pylist())
db.close()

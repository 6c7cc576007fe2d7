"""Turn `ulcdb meta -f csv` output into the long TSV rows of wmt20-metrics.sh.

At system level the task named every row of the bleurt-combi submission file after the
file's first row, bleurt-Yisi-combi (combine-scores-sys-DA.py keeps one name per file; the
rows against newstestP2020 carry that name, the others bleurt-combi), so its tables list the
file's system scores against every reference set as bleurt-Yisi-combi.  Document and
segment level keep the names of the rows."""

import csv
import sys

SYS_NAMES = {"bleurt-combi": "bleurt-Yisi-combi"}

lp, level, refset, systems = sys.argv[1:5]
for row in csv.DictReader(sys.stdin):
    metric = SYS_NAMES.get(row["metric"], row["metric"]) if level == "sys" else row["metric"]
    for coef in ("pearson", "kendall_tau_b", "darr_tau"):
        if coef in row and row[coef] != "":
            n = row.get(f"{coef}_pairs") or row["n_items"]
            print("\t".join([lp, level, refset, systems, metric, coef, n, row[coef]]))

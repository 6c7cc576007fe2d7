"""Turn `ulcdb meta -f csv` output into the long TSV rows of dr-doc.sh:
table, level, metric (with SUFFIX, e.g. ' for DR'), coefficient, value, 99% interval, n."""

import csv
import sys

table, level = sys.argv[1:3]
suffix = sys.argv[3] if len(sys.argv) > 3 else ""
for row in csv.DictReader(sys.stdin):
    for coef in ("pearson", "spearman", "kendall_tau_b"):
        if row.get(coef, "") != "":
            print("\t".join([table, level, row["metric"] + suffix, coef, row[coef],
                             row.get(f"{coef}_lo99", ""), row.get(f"{coef}_hi99", ""),
                             row["n_items"]]))

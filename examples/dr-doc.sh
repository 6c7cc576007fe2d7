#!/usr/bin/env bash
# The experiment of "Document-level Automatic MT Evaluation based on Discourse
# Representations" (Giménez, Màrquez, Comelles, Castellón, Arranz; MetricsMATR 2010) on the
# shared WMT21 ru-en test bed instead of NIST mt06 (into English, 10 systems, references A and
# B scored against together, DA; human document and system scores = the mean of segment
# scores, as the paper derived them):
# - Table 1 (document level) and Table 2 (system level): Pearson, Spearman and Kendall tau-b
#   of METEOR (MTR-wnsyn), DR-Or-*, DR-Orp-*, DR-STM-4 and their DR_doc counterparts
#   (DRdoc-*: one DRS per document), with 1000 bootstrap resamples at 99%;
# - the DR' variants (system score = mean of document scores, the paper's 3.2) at system level;
# - Table 3 (section 4): ULC over ULC_DR = {DR-Or-*, DR-Orp-*, DR-STM-4}, ULC_DRdoc (their
#   DR_doc versions) and the paper's ULC_h, at document and system level.
# DRSs come from ulcdb's own builder (drs:ulcdb-v1) on spaCy's annotation: C&C/Boxer cannot
# be had here (see README, "DR and DR_doc").  Criterion: DA-z (da_z of human/da_seg.tsv; the
# HUMAN rows, a reference scored as a system, are left out as the paper had no such row).
#
# Prints one TSV on stdout:  table  level  metric  coefficient  value  ci99_low  ci99_high  n
# Usage: examples/dr-doc.sh [RUEN_DIR] [STORE]      (ULCDB: the ulcdb command to run)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tb=${1:-$here/../../shared/testbeds/wmt21_newstest2021_ruen}
db=${2:-$(mktemp -d)/drdoc.duckdb}
ulcdb=${ULCDB:-ulcdb}
run() { $ulcdb --db "$db" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$db" ]; then
  sys_args=()
  for f in "$tb"/systems/*.en.txt; do
    n=$(basename "$f" .en.txt); sys_args+=(--sys "$n=$f")
  done
  run ingest testbed --name ruen --source "$tb/source.ru.txt" \
    --ref "ref-A=$tb/refs/ref-A.en.txt" --ref "ref-B=$tb/refs/ref-B.en.txt" \
    "${sys_args[@]}" --docs "$tb/docs.tsv" --src-lang ru --tgt-lang en >&2
  awk -F'\t' 'NR == 1 || $1 != "HUMAN"' "$tb/human/da_seg.tsv" > "$tmp/da_seg.tsv"
  run ingest assessments "$tmp/da_seg.tsv" --format table --map system=system \
    --map seg_id=seg_id --map score=da_z -c DA-z >&2
fi
refs=ref-A+ref-B
dr="DR-Or-*,DR-Orp-*,DR-STM-4"
drdoc="DRdoc-Or-*,DRdoc-Orp-*,DRdoc-STM-4"
run score -r "ref-A,ref-B" -m "MTR-wnsyn,ULC_DR,ULC_DRdoc,ULC_h" -f csv > /dev/null

# ULC of the three sets, as metrics of their own (document and system scores from the ulc
# macro, Asiya's normalisation), so meta correlates them beside the others.
ulc_set() {  # NAME LEVEL METRICS...
  local name=$1 level=$2; shift 2
  local list; list=$(printf "'%s'," "$@"); list="[${list%,}]"
  run sql "select translator as system, '$name' as metric, doc_id, ulc as score
           from ulc($list, '$level') where refset = '$refs' and role = 'system'
           order by 1, 3" -f tsv > "$tmp/$name.$level.tsv"
  local map=(--map target=system --map value=score)
  [ "$level" = doc ] && map+=(--map doc_id=doc_id)
  run ingest scores "$tmp/$name.$level.tsv" --format table "${map[@]}" --level "$level" \
    --metric "$name" --ref "$refs" --replace >&2
}
h="RG-W-1.2 MTR-wnsyn DP-HWC-r-4 DP-Oc-* DP-Ol-* DP-Or-* CP-STM-4 SR-Or-* SR-Orv DR-Orp-*"
for level in doc sys; do
  ulc_set ULC-DR "$level" DR-Or-\* DR-Orp-\* DR-STM-4
  ulc_set ULC-DRdoc "$level" DRdoc-Or-\* DRdoc-Orp-\* DRdoc-STM-4
  # shellcheck disable=SC2086
  set -f; ulc_set ULC-h "$level" $h; set +f
done

meta() {  # TABLE LEVEL METRICS [extra options]
  local table=$1 level=$2 metrics=$3; shift 3
  run meta -t ruen -r "$refs" -c DA-z -G "$level" -m "$metrics" --human derived \
    --coef pearson,spearman,kendall_tau_b -B 1000 --ci 99 --seed 1234 -f csv "$@" 2>/dev/null |
    python3 "$here/meta_csv_to_drdoc.py" "$table" "$level" "${DR_SUFFIX:-}"
}
printf 'table\tlevel\tmetric\tcoefficient\tvalue\tci99_low\tci99_high\tn\n'
meta 1 doc "MTR-wnsyn,$dr,$drdoc"
meta 2 sys "MTR-wnsyn,$dr,$drdoc"
DR_SUFFIX="'" meta 2 sys "$dr" --dr
meta 3 doc "ULC-DR,ULC-DRdoc,ULC-h"
meta 3 sys "ULC-DR,ULC-DRdoc,ULC-h"

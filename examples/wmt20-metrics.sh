#!/usr/bin/env bash
# Meta-evaluate the official WMT20 metrics-task scores the way the task did (Mathur et al.
# 2020, "Results of the WMT20 Metrics Shared Task"; its scripts and result files are
# github.com/WMT-Metrics-task/wmt20-metrics, results/), for every language pair, reference
# set, level and system selection the release holds:
# - system level: Pearson and Kendall tau-b on the DA z-score means over the MT systems (no
#   human translation is a system: results/output/system-level, Tables 5-6); in addition,
#   for the reference sets without reference A, the selection no-outliers+Human-A counts the
#   standard reference translation as a system (Table 7);
# - document and segment level: the DARR Kendall-like tau on raw DA, threshold 25, metric ties
#   counted as discordant (documents with fewer than 2 scored segments skipped).  Segment
#   level pairs only MT systems (the task's DArr-seglevel pairs hold no human translation);
#   document level also counts judged human translations that are neither the test set's
#   references (A, B) nor among the references scored against (for en-de the paraphrased
#   Human-P, as the task's document-level pairs do);
# - both selections everywhere: all systems, and without the task's outliers;
# - reference-free metrics (COMET-QE, OpenKiwi-*, YiSi-2) are listed under every reference
#   set with their one score, as the official tables list them;
# - MEE has no multi-reference (newstestM2020) scores: as the task did, its system score
#   against both references is the maximum of its single-reference scores;
# - at system level the task names every row of the bleurt-combi file bleurt-Yisi-combi (the
#   name on the file's first row; its newstestP2020 rows carry it): so does the output here;
# - each metric is correlated on the items it scores (--own-items), as the task did.
# Builds a fresh store from ../shared/testbeds/wmt20_metrics and prints one TSV on stdout:
#   lp  level  refset  systems  metric  coefficient  n  value
# (systems = all | no-outliers | no-outliers+Human-A; n = systems at sys level, pairs at doc/seg
# level); stderr names each language pair and reference set as it starts them, and its
# last line counts the rows.  WMT20_LPS (e.g. "en-de de-en") limits the
# language pairs.
#
# Usage: examples/wmt20-metrics.sh [WMT20_DIR] [STORE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../../shared/testbeds/wmt20_metrics}
db=${2:-$(mktemp -d)/wmt20.duckdb}
rm -f "$db" "$db.wal"
ulcdb --db "$db" ingest scores "$data" --format wmt20 >&2
reference_free="COMET-QE,OpenKiwi-Bert,OpenKiwi-XLMR,YiSi-2"

sql() { ulcdb --db "$db" sql "$1" -f tsv | tail -n +2; }
join() { local IFS=,; echo "$*"; }

# MEE's system scores against both references (newstestM2020): the maximum of its scores
# against each single reference, where it has them all (combine-scores-sys-DA.py).
mee_max=$(mktemp -d)/MEE.sys.tsv
sql "with single as (
       select testbed, translator, value from scores
       where metric = 'MEE' and level = 'sys' and refset_kind = 'reference'
         and refset not like '%+%'),
     refs as (
       select testbed, count(distinct refset) as n from scores
       where metric = 'MEE' and level = 'sys' and refset_kind = 'reference'
         and refset not like '%+%' group by testbed)
     select 'MEE', split_part(testbed, ':', 2), split_part(testbed, ':', 1), 'newstestM2020',
            translator, max(value)::varchar
     from single join refs using (testbed)
     where testbed in (select testbed from scores where refset = 'ref-A+ref-B')
       and testbed not in (select testbed from scores where metric = 'MEE'
                           and refset = 'ref-A+ref-B')
     group by testbed, translator, n having count(*) = n order by 2, 5" > "$mee_max"
if [ -s "$mee_max" ]; then
  ulcdb --db "$db" ingest scores "$mee_max" --format wmt >&2
fi

# meta LP TB REFSET(scored against) LABEL(refset printed) METRICS(or '') LEVEL SYSTEMS EXCLUDED
meta() {
  local lp=$1 tb=$2 against=$3 label=$4 metrics=$5 level=$6 systems=$7 excluded=$8
  local args=(--db "$db" meta -t "$tb" -r "$against" -G "$level" -B 0 -f csv --own-items
              --include-human)
  [ -n "$metrics" ] && args+=(-m "$metrics")
  [ -n "$excluded" ] && args+=(--exclude "$excluded")
  [[ "$systems" == no-outliers* ]] && args+=(--exclude outliers)
  case $level in
    sys) args+=(-c DA-z --coef pearson,kendall_tau_b) ;;
    doc) args+=(-c DA-raw --coef darr_tau --threshold 25 --min-segments 2) ;;
    seg) args+=(-c DA-raw --coef darr_tau --threshold 25) ;;
  esac
  { ulcdb "${args[@]}" 2>/dev/null || true; } |
    python3 "$here/meta_csv_to_tsv.py" "$lp" "$level" "$label" "$systems"
}

# The humans that are not systems at LEVEL and in SYSTEMS when scoring against REFSET
# (comma-separated): at sys level all but Human-A in no-outliers+Human-A, at seg level all, at
# doc level the test set's references A and B and those among REFSET.
excluded_humans() {
  local tb=$1 refset=$2 level=$3 systems=$4 out=() h
  for h in $(sql "select m.member from named_set s join named_set_member m using (set_id)
                  join testbed t using (testbed_id) where t.name = '$tb' and s.name = 'human'
                  order by 1"); do
    local ref="ref-${h#Human-}"; ref=${ref%.0}
    case $level in
      sys) [[ "$systems" == *+Human-A && "$h" == Human-A.0 ]] || out+=("$h") ;;
      seg) out+=("$h") ;;
      doc) if [[ "+$refset+" == *"+$ref+"* || "$h" == Human-[AB].0 ]]; then out+=("$h"); fi ;;
    esac
  done
  join "${out[@]}"
}

printf 'lp\tlevel\trefset\tsystems\tmetric\tcoefficient\tn\tvalue\n'
rows=0
for tb in $(sql "select name from testbed order by name"); do
  lp=${tb#*:}
  [ -n "${WMT20_LPS:-}" ] && [[ " $WMT20_LPS " != *" $lp "* ]] && continue
  refsets=$(sql "select distinct refset from scores where testbed = '$tb'
                 and refset_kind = 'reference' order by 1")
  on_a=$(sql "select distinct metric from scores where testbed = '$tb' and refset = 'ref-A'
              order by 1")
  for refset in $refsets; do
    echo "$lp against $refset: sys, doc and seg level..." >&2  # 10 minutes in all: progress
    own=$(sql "select distinct metric from scores where testbed = '$tb' and refset = '$refset'
               order by 1")
    borrowed=()  # reference-free: listed under this reference set with their one score
    for m in $on_a; do
      if [[ ",$reference_free," == *",$m,"* ]] && ! grep -qx -- "$m" <<< "$own"; then
        borrowed+=("$m")
      fi
    done
    for level in sys doc seg; do
      selections="all no-outliers"
      [ $level = sys ] && [[ "+$refset+" != *+ref-A+* ]] && selections+=" no-outliers+Human-A"
      for systems in $selections; do
        excluded=$(excluded_humans "$tb" "$refset" "$level" "$systems")
        meta "$lp" "$tb" "$refset" "$refset" "" "$level" "$systems" "$excluded"
        if [ ${#borrowed[@]} -gt 0 ]; then
          meta "$lp" "$tb" ref-A "$refset" "$(join "${borrowed[@]}")" "$level" "$systems" \
               "$excluded"
        fi
      done
    done
  done
done | tee >(tail -n +1 | wc -l | xargs -I{} echo "{} correlations" >&2)

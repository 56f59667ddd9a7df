#!/bin/bash
# GPU machine script: tunes launchopt's three parameters for each app on its
# data sets with `bench/tune` (launchopt-tune): every configuration of a
# reduced grid is built in parallel first (once per app), then, per entry,
# the guided search (at most ten runs) and, for the apps in EXHAUSTIVE, the
# exhaustive sweep, run one after another on the GPU. Files under $OUT (three,
# however many entries: the GPU machine returns few files): tune.log (every
# entry's log, each after a "== entry" line), tune.csv (every run, the entry in
# the first column) and tuned.txt (one variants.txt line per entry with the best
# configuration).
# An APPS entry is app:dataset, or app alone for the apps that generate their
# input (bt, ms, qt: the full suite's first driver arguments). VARIANT names the
# tuned lines: TCA-tuned (default: one configuration per app), or a name used
# per data set, written NAME@dataset (bench/harness runs such a line on that
# data set only).
#   APPS="bfs:kron20 bt ..." EXHAUSTIVE="tc" DEADLINE=570 bench/run_gpu_tune.sh
#   APPS="bfs:rmat12 bfs:mesh1k" VARIANT=TCA-ds bench/run_gpu_tune.sh
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
APPS=${APPS:-bfs:kron20 sssp:kron20 spmv:kron20 tc:kron16 gc:kron16 bt ms qt}
EXHAUSTIVE=${EXHAUSTIVE:-}
VARIANT=${VARIANT:-TCA-tuned}
GRID=${GRID:---thresholds 1,32,256,1024 --cfactors 1,4,8 --granularities warp,block,multiblock:8,grid}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
declare -A file=([block]=TCA-block [multiblock8]=TCA-multiblock [grid]=TCA-grid [warp]=TCA-warp)
declare -A built=()
for entry in $APPS; do
  app=${entry%%:*} data= dir=/tmp/launchopt-tune-$app
  [[ $entry == *:* ]] && data=${entry#*:}
  name=$VARIANT
  [ "$VARIANT" != TCA-tuned ] && [ -n "$data" ] && name=$VARIANT@$data
  log=/tmp/launchopt-tune-$app${data:+-$data}.log
  [ "$(left)" -gt 30 ] || { echo "# $entry: no time left" | tee -a "$OUT/tuned.txt"; continue; }
  search=--no-exhaustive
  case " $EXHAUSTIVE " in *" $app "*) search= ;; esac
  : > "$log"
  if [ -z "${built[$app]}" ]; then  # the executables do not depend on the data set
    timeout "$(left)" python3 bench/tune --app "$app" ${data:+--dataset "$data"} --out "$dir" --build-only \
      --jobs "$(nproc)" $GRID >> "$log" 2>&1 && built[$app]=1
  fi
  [ -n "${built[$app]}" ] &&
    timeout "$(left)" python3 bench/tune --app "$app" ${data:+--dataset "$data"} --out "$dir" --run-only \
      --reps 5 --budget 0.5 --timeout 30 $GRID $search >> "$log" 2>&1
  { echo "== $entry"; cat "$log"; } >> "$OUT/tune.log"
  if [ -f "$dir/tune.csv" ]; then
    [ -f "$OUT/tune.csv" ] || sed -n '1s/^/entry,/p' "$dir/tune.csv" > "$OUT/tune.csv"
    sed "1d; s/^/$entry,/" "$dir/tune.csv" >> "$OUT/tune.csv"
    rm -f "$dir/tune.csv"
  fi
  best=$(grep '^best: ' "$log" | awk '{print $2}')
  echo "# $entry: $(grep -E '^(guided|exhaustive) +[0-9]+ ' "$log" | tr -s ' ' | paste -sd';')"
  if [[ $best =~ ^t([0-9]+)_c([0-9]+)_([a-z0-9]+)(_a([0-9]+))?$ ]]; then
    agg=${BASH_REMATCH[5]:+ -DLAUNCHOPT_AGG_THRESHOLD=${BASH_REMATCH[5]}}
    echo "$app $name apps/$app/generated/${app}_cdp.${file[${BASH_REMATCH[3]}]}.cu cdp" \
      "-DLAUNCHOPT_THRESHOLD=${BASH_REMATCH[1]} -DLAUNCHOPT_CFACTOR=${BASH_REMATCH[2]}$agg" |
      tee -a "$OUT/tuned.txt"
  fi
done
echo "# run_gpu_tune.sh: $(( $(date +%s) - start )) s"

#!/bin/bash
# GPU machine script: tunes launchopt's three parameters for each app on its
# main data set with `bench/tune` (launchopt-tune): every configuration of a
# reduced grid is built in parallel first, then the guided search (at most ten
# runs) and, for the apps in EXHAUSTIVE, the exhaustive sweep run one after
# another on the GPU. Files under $OUT: tune-<app>.log, tune_<app>_<data>.csv,
# and tuned.txt (one variants.txt line per app with the best configuration).
# An APPS entry is app:dataset, or app alone for the apps that generate their
# input (bt, ms, qt: the full suite's first driver arguments).
#   APPS="bfs:kron20 bt ..." EXHAUSTIVE="tc" DEADLINE=570 bench/run_gpu_tune.sh
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
APPS=${APPS:-bfs:kron20 sssp:kron20 spmv:kron20 tc:kron16 gc:kron16 bt ms qt}
EXHAUSTIVE=${EXHAUSTIVE:-}
GRID=${GRID:---thresholds 1,32,256,1024 --cfactors 1,4,8 --granularities warp,block,multiblock:8,grid}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
declare -A file=([block]=TCA-block [multiblock8]=TCA-multiblock [grid]=TCA-grid [warp]=TCA-warp)
for entry in $APPS; do
  app=${entry%%:*} data= dir=/tmp/launchopt-tune-$app
  [[ $entry == *:* ]] && data=${entry#*:}
  [ "$(left)" -gt 30 ] || { echo "# $app: no time left" | tee -a "$OUT/tuned.txt"; continue; }
  search=--no-exhaustive
  case " $EXHAUSTIVE " in *" $app "*) search= ;; esac
  { timeout "$(left)" python3 bench/tune --app "$app" ${data:+--dataset "$data"} --out "$dir" --build-only \
      --jobs "$(nproc)" $GRID &&
    timeout "$(left)" python3 bench/tune --app "$app" ${data:+--dataset "$data"} --out "$dir" --run-only \
      --reps 5 --budget 0.5 --timeout 30 $GRID $search; } > "$OUT/tune-$app.log" 2>&1
  cp "$dir/tune.csv" "$OUT/tune_${app}${data:+_$data}.csv" 2>/dev/null
  best=$(grep '^best: ' "$OUT/tune-$app.log" | awk '{print $2}')
  echo "# $app ${data:-(generated input)}: $(grep -E '^(guided|exhaustive) +[0-9]+ ' "$OUT/tune-$app.log" | tr -s ' ' | paste -sd';')"
  if [[ $best =~ ^t([0-9]+)_c([0-9]+)_([a-z0-9]+)$ ]]; then
    echo "$app TCA-tuned apps/$app/generated/${app}_cdp.${file[${BASH_REMATCH[3]}]}.cu cdp" \
      "-DLAUNCHOPT_THRESHOLD=${BASH_REMATCH[1]} -DLAUNCHOPT_CFACTOR=${BASH_REMATCH[2]}" | tee -a "$OUT/tuned.txt"
  fi
done
echo "# run_gpu_tune.sh: $(( $(date +%s) - start )) s"

#!/bin/bash
# GPU machine script for a runtime switch of launchopt's outputs: each output
# of VARIANTS is built twice from the same file, as generated and with
# MACRO (the SUFFIX variant), side by side with flat and expert. The
# harness checks every output against the reference.
#   OUT=dir APPS=spmv,gc MACRO=-DLAUNCHOPT_COMBINE_ATOMICS=0 SUFFIX=-direct \
#     VARIANTS="T R-T4 auto" bench/run_gpu_macro.sh
# Files under $OUT: build.log, run.log, results.csv, variants.txt.
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
APPS=${APPS-bfs,sssp,spmv,gc,tc,sp}
: "${MACRO:?MACRO names the -D flag of the second build}" "${SUFFIX:?SUFFIX names its variants}"
VARIANTS=${VARIANTS:-T TCA-tuned TCA-threads auto}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
chosen="^[a-z]+ +($(echo "$VARIANTS" | tr ' ' '|')) "
{
  grep -E '^[a-z]+ +(flat|expert) ' bench/variants.txt
  grep -E "$chosen" bench/variants.txt
  grep -E "$chosen" bench/variants.txt | awk -v s="$SUFFIX" -v m="$MACRO" '{ $2 = $2 s; print $0, m }'
} > "$OUT/variants.txt"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -1
  python3 bench/harness build --variants "$OUT/variants.txt" --jobs "$(nproc)" ${APPS:+--apps $APPS}
} > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
tail -1 "$OUT/build.log"
timeout "$(left)" python3 bench/harness run --variants "$OUT/variants.txt" --suite full --out "$OUT" \
  ${APPS:+--apps $APPS} --budget 0.3 --timeout 60 2>&1 | tee "$OUT/run.log"
rm -f "$OUT/speedup.png"
echo "# run_gpu_macro.sh: $(( $(date +%s) - start )) s"

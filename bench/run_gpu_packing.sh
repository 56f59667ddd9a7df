#!/bin/bash
# GPU machine script for the packed serial copies (runtime/include/launchopt/
# packing.cuh): each launchopt output that runs children in parent threads
# (T, TCA-tuned, TCA-threads, auto) is built twice from the same file, as
# generated (packed: the lanes of a warp share their children's threads) and
# with -DLAUNCHOPT_SERIAL_PACKING=0 (the "-serial" variant: each parent
# thread runs its own child, as before), side by side with flat and expert.
# The harness checks every output against the reference.
#   OUT=dir APPS=bfs,sssp,spmv bench/run_gpu_packing.sh
# Files under $OUT: build.log, run.log, results.csv, variants.txt.
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
APPS=${APPS-bfs,sssp,spmv,gc,tc,sp}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
{
  grep -E '^[a-z]+ +(flat|expert|T|TCA-tuned|TCA-threads|auto) ' bench/variants.txt
  grep -E '^[a-z]+ +(T|TCA-tuned|TCA-threads|auto) ' bench/variants.txt |
    awk '{ $2 = $2 "-serial"; print $0, "-DLAUNCHOPT_SERIAL_PACKING=0" }'
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
echo "# run_gpu_packing.sh: $(( $(date +%s) - start )) s"

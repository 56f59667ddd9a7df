#!/bin/bash
# GPU machine script for thread-granular aggregation: builds and runs, side by
# side on the full suite, the variants A-threads and TCA-threads (bench/transform.sh
# writes them) next to cdp, flat, expert, A-grid, TCA-grid and TCA-tuned; the
# harness checks every output against the reference. Everything stops by
# DEADLINE seconds (default 570) so that what finished comes back.
#   OUT=dir bench/run_gpu_threads.sh        APPS=bfs,sssp,spmv narrows the apps
# By default the apps whose children are packed: MS and QT's children use
# __syncthreads, so their threads variants are their grid variants.
# Files under $OUT: build.log (environment + builds), run.log, results.csv, variants.txt.
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
APPS=${APPS-bfs,sssp,spmv,tc,gc,bt}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
grep -E '^[a-z]+ +(cdp|flat|expert|A-grid|TCA-grid|TCA-tuned|A-threads|TCA-threads) ' \
  bench/variants.txt > "$OUT/variants.txt"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -1
  python3 bench/harness build --variants "$OUT/variants.txt" --jobs "$(nproc)" ${APPS:+--apps $APPS}
} > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
tail -1 "$OUT/build.log"
timeout "$(left)" python3 bench/harness run --variants "$OUT/variants.txt" --suite full --out "$OUT" \
  ${APPS:+--apps $APPS} --budget 1 --cdp-budget 2 --timeout 60 2>&1 | tee "$OUT/run.log"
rm -f "$OUT/speedup.png" # the chart is drawn from results.csv off the GPU machine
echo "# run_gpu_threads.sh: $(( $(date +%s) - start )) s"

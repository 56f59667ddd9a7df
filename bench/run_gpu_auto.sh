#!/bin/bash
# GPU machine script for --auto: builds and runs, side by side on the full
# suite, the variant auto (bench/transform.sh writes it: launchopt --auto,
# untuned) next to cdp, flat, expert, the tuned and untuned T+C+A at grid and
# thread granularity, launch removal's own selector (R-auto) and, for the
# promotion apps, PO, PA and PAO (pools of 32; auto may take a pool of 1,024);
# the harness checks every output against the reference.
# Everything stops by DEADLINE seconds (default 570) so that what finished
# comes back.   OUT=dir bench/run_gpu_auto.sh      APPS=bfs,sssp narrows the apps
# Files under $OUT: build.log (environment + builds), run.log, results.csv,
# variants.txt; bench/targets prints the issue's ratios from results.csv.
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
APPS=${APPS-}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
grep -E '^[a-z]+ +(cdp|flat|expert|TCA-grid|TCA-tuned|TCA-threads|R-auto|PO|PA|PAO|auto) ' \
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
[ -f "$OUT/results.csv" ] && python3 bench/targets "$OUT/results.csv" --tca auto > "$OUT/targets.txt" 2>&1
echo "# run_gpu_auto.sh: $(( $(date +%s) - start )) s"

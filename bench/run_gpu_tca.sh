#!/bin/bash
# GPU machine script for launchopt's passes: builds the whole suite (naive CDP,
# flat, expert and every launchopt output in variants.txt) and the tuner's
# configurations for BFS and SpMV on kron20, all in parallel; then runs the
# suite side by side, then the tuner (bench/tune, which runs launchopt-tune). Everything stops by DEADLINE seconds
# (default 570) so that what finished comes back; PHASES picks what runs:
#   PHASES="suite tune-bfs tune-spmv" (default), APPS=bfs,sssp to narrow the suite.
# Files under $OUT (at most 8): build.log (environment + builds), run.log, log.txt,
# results.csv, tune.log, tune_bfs_kron20.csv, tune_spmv_kron20.csv.
set -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
OUT=${OUT:-bench/.build/out}
DEADLINE=${DEADLINE:-570}
PHASES=${PHASES:-suite tune-bfs tune-spmv}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
left() { echo $((DEADLINE - ($(date +%s) - start))); }
jobs=$(nproc)
{
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version
  python3 -c "import matplotlib; print('matplotlib', matplotlib.__version__)" 2>&1
  t0=$(date +%s)
  pids=()
  case " $PHASES " in *" suite "*)
    python3 bench/harness build --jobs "$jobs" ${APPS:+--apps $APPS} > "$OUT/build.suite.tmp" 2>&1 & pids+=($!) ;; esac
  for a in bfs spmv; do
    case " $PHASES " in *" tune-$a "*)
      [ -x "bench/.build/tune-$a/bin/t1024_c8_grid" ] ||
        python3 bench/tune --app $a --dataset kron20 --build-only --jobs "$jobs" \
          > "$OUT/build.tune-$a.tmp" 2>&1 & pids+=($!) ;; esac
  done
  for p in "${pids[@]}"; do wait "$p" || echo "build step $p failed"; done
  for f in "$OUT"/build.*.tmp; do [ -f "$f" ] && { echo "== $f"; cat "$f"; rm -f "$f"; }; done
  echo "# all builds: $(( $(date +%s) - t0 )) s"
} > "$OUT/build.log" 2>&1
tail -5 "$OUT/build.log"
case " $PHASES " in *" suite "*)
  timeout "$(left)" python3 bench/harness run --suite full --out "$OUT" ${APPS:+--apps $APPS} \
    --budget 1 --cdp-budget 1 --slow-variants C --slow-warmup 0 --timeout 60 2>&1 | tee "$OUT/run.log"
  rm -f "$OUT/speedup.png" ;;  # the chart is drawn from results.csv off the GPU machine
esac
for a in bfs spmv; do
  case " $PHASES " in *" tune-$a "*)
    [ "$(left)" -gt 20 ] || { echo "# tune $a: no time left" | tee -a "$OUT/tune.log"; continue; }
    timeout "$(left)" python3 bench/tune --app $a --dataset kron20 --run-only --reps 5 --budget 0.5 \
      --timeout 30 2>&1 | tee -a "$OUT/tune.log"
    cp "bench/.build/tune-$a/tune.csv" "$OUT/tune_${a}_kron20.csv" ;;
  esac
done
echo "# run_gpu_tca.sh: $(( $(date +%s) - start )) s"

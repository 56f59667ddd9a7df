#!/bin/bash
# Builds every variant and runs the full suite on the GPU machine; logs, CSV and
# chart go to $OUT (default bench/.build/out). Extra arguments go to
# `harness run`, e.g. --apps bfs,sssp; with --apps only those apps are built.
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/.build/out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
{
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version
  python3 -c "import matplotlib; print('matplotlib', matplotlib.__version__)" 2>&1
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
apps=()
prev=
for a in "$@"; do
  [ "$prev" = --apps ] && apps=(--apps "$a")
  case $a in --apps=*) apps=(--apps "${a#--apps=}") ;; esac
  prev=$a
done
python3 bench/harness build --jobs "$(nproc)" "${apps[@]}" 2>&1 | tee "$OUT/build.log" || exit 1
python3 bench/harness run --suite full --out "$OUT" --budget 4 --cdp-budget 8 --timeout 90 "$@" 2>&1 \
  | tee "$OUT/run.log"

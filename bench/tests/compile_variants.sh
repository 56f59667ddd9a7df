#!/bin/sh
# Compiles and links the variants listed in bench/variants.txt for sm_90
# (no GPU needed). Exit 77 tells ctest the test was skipped. By default the
# "ci" subset (harness build --subset ci: every hand-written variant, all of
# launchopt's outputs for bfs, TCA for the other apps); BENCH_COMPILE_ALL=1
# builds all of them (~100, too slow for CI on 2 cores).
set -e
out=${1:-$(dirname "$0")/../.build}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ] && ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "SKIPPED: nvcc not found at $nvcc; variants not compiled"
  exit 77
fi
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
NVCC=$nvcc exec python3 "$(dirname "$0")/../harness" build --build-dir "$out" --jobs "$jobs" \
  --subset "$([ "${BENCH_COMPILE_ALL:-0}" = 1 ] && echo all || echo ci)"

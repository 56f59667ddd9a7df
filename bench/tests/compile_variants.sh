#!/bin/sh
# Compiles and links every variant listed in bench/variants.txt for sm_90
# (no GPU needed). Exit 77 tells ctest the test was skipped.
set -e
out=${1:-$(dirname "$0")/../.build}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ] && ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "SKIPPED: nvcc not found at $nvcc; variants not compiled"
  exit 77
fi
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
NVCC=$nvcc exec python3 "$(dirname "$0")/../harness" build --build-dir "$out" --jobs "$jobs"

#!/bin/sh
# Compiles and links every program of the fusion corpus and every launchopt
# output present beside it, for sm_90, plain and with the timing hooks
# (-DLAUNCHOPT_FUSION_TIMING): what run_gpu.sh builds, without a GPU.
# Exit 77 (ctest: skipped) when nvcc is missing.
# Usage: compile.sh [build folder]
set -eu
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ] && ! command -v "$nvcc" > /dev/null 2>&1; then
  echo "SKIPPED: nvcc not found at $nvcc; the corpus was not compiled"
  exit 77
fi
out=$(realpath -m "${1:-/tmp/launchopt-fusion-programs}")
mkdir -p "$out"
cd "$(dirname "$0")/.."
failed=0
for p in diffusion2d euler_mesh heat3d mlp; do
  for f in $(cd $p && ls $p.cu $p.*.cu 2>/dev/null); do
    v=${f%.cu}
    set -- ""
    [ "$v" = "$p" ] || set -- "" -DLAUNCHOPT_FUSION_TIMING
    for define in "$@"; do
      if (cd $p && "$nvcc" -O3 -arch=sm_90 -std=c++17 -Xcompiler -fopenmp $define -o "$out/$v" "$f"); then
        echo "compiled $p/$f $define"
      else
        echo "FAILED: $p/$f $define"
        failed=1
      fi
    done
  done
done
exit $failed

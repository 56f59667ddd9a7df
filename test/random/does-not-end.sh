#!/usr/bin/env bash
# An interestingness test for `launchopt-dpgen --reduce --test=...` on a GPU
# machine: exits 0 (the failure is still there) when the candidate compiles
# and its program is still running after HANG_SECONDS (default 5), in each
# of HANG_RUNS runs (default 1). The runs take a lock (GPU_LOCK), so that
# tests running side by side (--jobs) compile together but never share the
# GPU, where a hung program would slow the others past their limit.
#   launchopt-dpgen --reduce --seed=12 --jobs=12 --test=test/random/does-not-end.sh -o r.cu
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# COMPILE_FLAGS as in run.sh: the device optimization level changes whether
# some programs end.
# shellcheck disable=SC2086
"$nvcc" -arch=sm_90 -rdc=true -std=c++17 -w ${COMPILE_FLAGS:-} "$1" -o "$tmp/program" \
  -lcudadevrt >/dev/null 2>&1 || exit 1
for ((run = 0; run < ${HANG_RUNS:-1}; ++run)); do
  flock "${GPU_LOCK:-/tmp/launchopt-dpgen-gpu.lock}" \
    timeout -k 2 "${HANG_SECONDS:-5}" "$tmp/program" >/dev/null 2>&1
  status=$?
  [ $status -eq 124 ] || [ $status -eq 137 ] || exit 1
done
exit 0

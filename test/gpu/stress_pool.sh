#!/usr/bin/env bash
# Repeats the pool-exhaustion builds of the aggregated GPU test programs
# (a record pool of 8 KiB, so most parent threads fall back to direct
# launches) on fresh seeds, each run under a timeout, and compares every
# output with the original's. Intermittent hangs or races in the fallback
# path show up here; a single differential run can miss them.
#
#   test/gpu/stress_pool.sh [dir]     dir: transformed sources (default test/gpu/out)
#
# REPEAT (default 10) runs per build; RUN_TIMEOUT (default 60) seconds per run;
# BUILDS: program.variant names (default: the builds that once hung, and the
# group-scope builds whose parents are launched from device code, where a
# launch that cannot be recorded goes to a direct copy). struct_segments.A-host
# hung in 15 of 95 runs while every parent block opened the host's grid
# scope (test/gpu/results/host-scope-open-h200.log); struct_segments.A-grid
# and A-multiblock hung in 17 of 50 while every block stored to its group
# scope and tried the atomic, 0 of 50 once only the first block does
# (test/gpu/results/group-scope-open-h200.log).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/out}
repeat=${REPEAT:-10}
limit=${RUN_TIMEOUT:-60}
builds=(${BUILDS:-bfs_skewed.A-grid nested_segments.A-block nested_segments.A-warp bfs_skewed.A-block
                  recursive_tiles.A-grid recursive_tiles.A-multiblock nested_segments.A-grid
                  struct_segments.A-host struct_segments.A-grid})
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU on this machine: pool stress test skipped"
  exit 0
fi
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
flags=(-O3 -arch=sm_90 -rdc=true -std=c++17 -I"$dir" -lcudadevrt)
bin="$dir/bin-stress"
mkdir -p "$bin"
"$nvcc" -O2 -o "$bin/compare_outputs" "$here/compare_outputs.cpp"
declare -A programs=()
for b in "${builds[@]}"; do programs[${b%%.*}]=1; done
{
  for p in "${!programs[@]}"; do echo "$nvcc ${flags[*]} -o $bin/$p.orig $dir/$p.cu"; done
  for b in "${builds[@]}"; do
    echo "$nvcc ${flags[*]} -DLAUNCHOPT_POOL_BYTES=8192 -o $bin/$b-pool8K $dir/$b.cu"
  done
} | xargs -P "$(nproc)" -I{} sh -c '{} || echo "BUILD FAILED: {}"'

echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
failures=0 runs=0
for b in "${builds[@]}"; do
  p=${b%%.*}
  for i in $(seq "$repeat"); do
    seed=$(( $(date +%s%N) % 1000000007 ))
    runs=$((runs + 1))
    timeout "$limit" "$bin/$p.orig" "$seed" "$bin/$p.orig.out" >/dev/null
    if line=$(timeout "$limit" "$bin/$b-pool8K" "$seed" "$bin/$b.out" 2>&1); then
      verdict=$("$bin/compare_outputs" "$bin/$p.orig.out" "$bin/$b.out") || true
    else
      rc=$?
      verdict="FAILED (exit $rc$([ $rc = 124 ] && echo ": hung past $limit s")) $line"
    fi
    case "$verdict" in equal*) ;; *) failures=$((failures + 1)) ;; esac
    printf '%-28s run %2d seed %-10s %-34s %s\n' "$b-pool8K" "$i" "$seed" "${line%% launch_failures*}" "$verdict"
  done
done
echo "$((runs - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]

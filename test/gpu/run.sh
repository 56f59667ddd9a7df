#!/usr/bin/env bash
# Differential GPU check of the passes: original and transformed programs run
# on the same fresh random input; outputs are compared element by element and
# all are timed (median of 10 runs inside each program).
#
#   test/gpu/run.sh transform [launchopt] [dir]  write thresholded sources (needs launchopt)
#   test/gpu/run.sh run [dir]                    build, compare, time (needs a GPU and nvcc)
#   test/gpu/run.sh                              both
#
# Each program run is stopped after RUN_TIMEOUT seconds (default 120) and
# then counts as failed, so a hang is reported rather than stalling the run.
# RUN_JOBS=N (default 1) runs N programs at once, each with its variants in
# turn: the outputs are still compared, but the times are then shared-GPU
# times, not comparable with a run of one. A binary newer than its source is
# not built again, so that a second call on the same machine only runs.
# VARIANTS, THRESHOLDS and POOL_VARIANTS (space-separated, as below; empty
# for none) replace the lists, for a run of some variants only.
#
# The two steps are separate because the GPU machine may lack Clang: the
# transformed sources in [dir] (default test/gpu/out) are what it needs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
programs=(${PROGRAMS:-bfs_skewed regions2d nested_segments callee_builtins recursive_tiles
           template_launch quicksort_stream reach_helpers recursive_halving pool_barriers
           ordered_stream deep_partition ordered_chain header_child device_helpers
           template_defaults quicksort_host block_children local_shapes group_children
           exclusive_branches member_launch chained_scan chained_scan_own_block template_parent
           template_recursion template_deduced last_thread merge_tail struct_segments bezier_lines
           template_chain uniform_atomics template_pointer_args macro_launch
           recursive_tiles_own_block local_template_args recursive_tiles_unread_smem
           node_counts_unread_smem helper_two_kernels tiles_three_children
           two_children_segments nested_groups})
# THRESHOLDS, VARIANTS and POOL_VARIANTS (space-separated) replace the lists
# below, e.g. VARIANTS="S:--spawn" THRESHOLDS= POOL_VARIANTS= for one variant.
thresholds=(${THRESHOLDS-32 64 128 256 512 1024 4096 1000000000})
# name:launchopt flags (commas for spaces); T is swept over the thresholds.
variants=(${VARIANTS:-T:--threshold C:--coarsen A-warp:--aggregate=warp A-block:--aggregate=block
          A-multiblock:--aggregate=multiblock:8 A-grid:--aggregate=grid
          TC:--threshold,--coarsen TCA-block:--threshold,--coarsen,--aggregate=block
          TCA-grid:--threshold,--coarsen,--aggregate=grid A-threads:--aggregate=threads
          A-threads-block:--aggregate=threads:block TCA-threads:--threshold,--coarsen,--aggregate=threads
          A-host:--aggregate=host A-threads-host:--aggregate=threads:host
          TCA-host:--threshold,--coarsen,--aggregate=host
          R-T3:--remove-launches=T3 R-T4:--remove-launches=T4 R-T1:--remove-launches=T1
          R-T2:--remove-launches=T2 R-auto:--remove-launches=auto
          S:--spawn S-TCA:--threshold,--spawn,--coarsen,--aggregate=block
          P:--promote=P PO:--promote=PO auto:--auto})
# name:variant:nvcc flags (commas for spaces): a variant's output built again
# with a record pool of a few KiB, so most parent threads find the pool or
# their scope full and take the direct-launch fallback; and built with
# -DGPU_TEST_DEFAULT_POOL, which keeps the pending-launch pool at its default
# 2,048 entries in pool_barriers (8,192 children at once): no launch may be
# dropped (the other programs ignore the flag).
pool_variants=(${POOL_VARIANTS-A-warp-pool8K:A-warp:-DLAUNCHOPT_POOL_BYTES=8192
               A-block-pool8K:A-block:-DLAUNCHOPT_POOL_BYTES=8192
               A-grid-pool8K:A-grid:-DLAUNCHOPT_POOL_BYTES=8192
               TCA-block-pool8K:TCA-block:-DLAUNCHOPT_POOL_BYTES=8192
               A-threads-pool8K:A-threads:-DLAUNCHOPT_POOL_BYTES=8192
               S-pool2K:S:-DGPU_TEST_DEFAULT_POOL A-warp-pool2K:A-warp:-DGPU_TEST_DEFAULT_POOL
               A-block-pool2K:A-block:-DGPU_TEST_DEFAULT_POOL
               A-host-pool8K:A-host:-DLAUNCHOPT_POOL_BYTES=8192
               A-host-copy:A-host:-DLAUNCHOPT_HOST_COUNT_COPY=1})

transform() {
  local launchopt=${1:-$root/build/tools/launchopt/launchopt} dir=${2:-$here/out}
  mkdir -p "$dir"
  for p in "${programs[@]}"; do
    cp "$here/programs/$p.cu" "$dir/$p.cu"
    for v in "${variants[@]}"; do
      local name=${v%%:*} flags=${v#*:}
      "$launchopt" ${flags//,/ } "$dir/$p.cu" -o "$dir/$p.$name.cu" \
        --report="$dir/$p.$name.report.txt" --quiet -- -I"$here/programs"
      echo "transformed $p ($name): $(grep -c ': applied' "$dir/$p.$name.report.txt") site(s) changed"
    done
  done
  cp "$here"/programs/*.cuh "$dir/"
}

run() {
  local dir=${1:-$here/out}
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU on this machine: GPU differential test skipped"
    return 0
  fi
  local nvcc=${NVCC:-nvcc}
  command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
  echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "nvcc: $("$nvcc" --version | tail -1)"
  local bin="$dir/bin"
  mkdir -p "$bin"
  "$nvcc" -O2 -o "$bin/compare_outputs" "$here/compare_outputs.cpp"
  local flags=(-O3 -arch=sm_90 -rdc=true -std=c++17 -I"$dir" -lcudadevrt)
  local builds=()
  for p in "${programs[@]}"; do
    builds+=("$p.orig|$dir/$p.cu|")
    for t in "${thresholds[@]}"; do builds+=("$p.T$t|$dir/$p.T.cu|-DLAUNCHOPT_THRESHOLD=$t"); done
    for v in "${variants[@]}"; do
      local name=${v%%:*}
      [ "$name" = T ] || builds+=("$p.$name|$dir/$p.$name.cu|")
    done
    for v in "${pool_variants[@]}"; do
      local base defs
      IFS=: read -r name base defs <<<"$v"
      builds+=("$p.$name|$dir/$p.$base.cu|${defs//,/ }")
    done
  done
  for b in "${builds[@]}"; do
    IFS='|' read -r out src def <<<"$b"
    [ "$bin/$out" -nt "$src" ] && continue
    echo "$nvcc ${flags[*]} $def -o $bin/$out $src"
  done | xargs -P "$(nproc)" -I{} sh -c '{} || echo "BUILD FAILED: {}"'

  local failures=0
  # The device runtime's own checks (each prints one line; exits 1 on a failure).
  if ! "$nvcc" -arch=sm_90 -rdc=true -std=c++17 -I"$root/runtime/include" "$here/allocation_runtime.cu" \
       -lcudadevrt -o "$bin/allocation_runtime" || ! timeout "${RUN_TIMEOUT:-120}" "$bin/allocation_runtime"; then
    echo "allocation_runtime: FAILED"
    failures=$((failures + 1))
  fi
  pool_runtime "$nvcc" "$bin" || failures=$((failures + 1))
  local least
  for least in 8 2; do
    if ! "$nvcc" -arch=sm_90 -std=c++17 -I"$root/runtime/include" -DLAUNCHOPT_WARP_COMBINE_MIN=$least \
         "$here/accumulate_runtime.cu" -o "$bin/accumulate_runtime" ||
       ! timeout "${RUN_TIMEOUT:-120}" "$bin/accumulate_runtime"; then
      echo "accumulate_runtime (LAUNCHOPT_WARP_COMBINE_MIN=$least): FAILED"
      failures=$((failures + 1))
    fi
  done
  local cost
  for cost in 0 48; do
    if ! "$nvcc" -arch=sm_90 -std=c++17 -I"$root/runtime/include" -DLAUNCHOPT_PACKED_ROUND_COST=$cost \
         "$here/packing_runtime.cu" -o "$bin/packing_runtime" ||
       ! timeout "${RUN_TIMEOUT:-120}" "$bin/packing_runtime"; then
      echo "packing_runtime (LAUNCHOPT_PACKED_ROUND_COST=$cost): FAILED"
      failures=$((failures + 1))
    fi
  done
  local jobs=${RUN_JOBS:-1}
  [ "$jobs" -gt 1 ] && echo "# $jobs programs at once: times are shared-GPU times"
  printf '%-16s %-22s %10s %10s  %s\n' program variant time_ms speedup output
  local p
  for p in "${programs[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_program "$p" "$bin" >"$bin/$p.log" 2>&1 &
  done
  wait || true
  for p in "${programs[@]}"; do
    cat "$bin/$p.log"
    failures=$((failures + $(grep -c '^# failed variant' "$bin/$p.log" || true)))
  done
  echo "$failures mismatching or failed variant(s)"
  [ "$failures" -eq 0 ]
}

# The record pool's own check (test/gpu/pool_runtime.cu): alone, capped at
# 8 KiB, and as one program of two files sharing one pool.
pool_runtime() {
  local nvcc=$1 bin=$2 ok=0
  local flags=(-arch=sm_90 -rdc=true -std=c++17 -I"$root/runtime/include")
  "$nvcc" "${flags[@]}" "$here/pool_runtime.cu" -lcudadevrt -o "$bin/pool_runtime" &&
    "$nvcc" "${flags[@]}" -DLAUNCHOPT_POOL_BYTES=8192 "$here/pool_runtime.cu" -lcudadevrt \
      -o "$bin/pool_runtime-pool8K" &&
    "$nvcc" "${flags[@]}" -DPOOL_TEST_PROGRAM -DLAUNCHOPT_PROGRAM_POOL \
      -DLAUNCHOPT_PROGRAM_POOL_DEFINITION -c "$here/pool_runtime.cu" -o "$bin/pool_runtime_main.o" &&
    "$nvcc" "${flags[@]}" -DLAUNCHOPT_PROGRAM_POOL -c "$here/pool_runtime_other.cu" \
      -o "$bin/pool_runtime_other.o" &&
    "$nvcc" -arch=sm_90 -rdc=true "$bin/pool_runtime_main.o" "$bin/pool_runtime_other.o" \
      -lcudadevrt -o "$bin/pool_runtime-program" || ok=1
  [ "$ok" -eq 0 ] || { echo "pool_runtime: FAILED to build"; return 1; }
  local b line
  for b in pool_runtime pool_runtime-pool8K pool_runtime-program; do
    if line=$(timeout "${RUN_TIMEOUT:-120}" "$bin/$b" 2>&1); then
      echo "$b: $line"
    else
      echo "$b: FAILED: $line"
      ok=1
    fi
  done
  return "$ok"
}

# Runs one program's original and every variant on one seed; prints a table
# row per variant and a '# failed variant' line per mismatch or failure.
run_program() {
  local p=$1 bin=$2
  {
    local seed=$(( $(date +%s%N) % 1000000007 ))
    echo "# $p: seed $seed"
    local orig_line orig_ms
    if ! orig_line=$(timeout "${RUN_TIMEOUT:-120}" "$bin/$p.orig" "$seed" "$bin/$p.orig.out" 2>&1); then
      echo "# failed variant: $p original (did not build or run): $(echo "$orig_line" | tail -1)"
      return 0
    fi
    orig_ms=$(echo "$orig_line" | awk '{print $2}')
    printf '%-16s %-22s %10s %10s  %s\n' "$p" original "$orig_ms" 1.00 reference
    local runs=()
    for t in "${thresholds[@]}"; do runs+=("T$t:T threshold=$t"); done
    for v in "${variants[@]}"; do
      local name=${v%%:*}
      [ "$name" = T ] || runs+=("$name:$name")
    done
    for v in "${pool_variants[@]}"; do runs+=("${v%%:*}:${v%%:*}"); done
    for r in "${runs[@]}"; do
      local exe=${r%%:*} label=${r#*:} line ms verdict
      if [ ! -x "$bin/$p.$exe" ]; then
        verdict="FAILED to build"; ms=-
      elif line=$(timeout "${RUN_TIMEOUT:-120}" "$bin/$p.$exe" "$seed" "$bin/$p.$exe.out" 2>&1); then
        ms=$(echo "$line" | awk '{print $2}')
        verdict=$("$bin/compare_outputs" "$bin/$p.orig.out" "$bin/$p.$exe.out") || true
      else
        verdict="FAILED to run (exit $?, 124: hung past ${RUN_TIMEOUT:-120} s): $(echo "$line" | tail -3)"; ms=-
      fi
      local speedup=-
      [ "$ms" != - ] && speedup=$(awk -v a="$orig_ms" -v b="$ms" 'BEGIN{printf "%.2f", a/b}')
      printf '%-16s %-22s %10s %10s  %s\n' "$p" "$label" "$ms" "$speedup" "$verdict"
      case "$verdict" in equal*) ;; *) echo "# failed variant: $p $label" ;; esac
    done
  }
}

case "${1:-all}" in
  transform) shift; transform "$@" ;;
  run) shift; run "$@" ;;
  all) transform; run ;;
  *) echo "usage: $0 [transform [launchopt] [dir] | run [dir]]" >&2; exit 2 ;;
esac

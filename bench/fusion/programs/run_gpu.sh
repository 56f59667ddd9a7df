#!/bin/sh
# GPU run of the fusion corpus (device machine; needs nvcc, not launchopt):
# the fused sources were generated beforehand by generate.sh. Per program:
# builds the original and every launchopt output present (<prog>.<name>.cu),
# and timing-hooks builds of them (-DLAUNCHOPT_FUSION_TIMING); runs them
# interleaved, two rounds, on fresh random inputs (seed from the clock),
# each checking itself against its CPU reference and the launchopt outputs
# comparing their outputs with the original's (relative 1e-5, bitwise
# reported; cmp too); the per-launch times; a second input set. Then
# efficiency.py: step speedup, fusion efficiency and DRAM bandwidth per new
# kernel. Writes log.txt, summary.txt and efficiency.csv to the folder given
# as argument, or $OUT, or bench/results/fusion/programs.
# Without a GPU it says so and exits 0.
set -u
OUT=${1:-${OUT:-bench/results/fusion/programs}}
P=bench/fusion/programs
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "run_gpu.sh: no GPU found (nvidia-smi lists none): the corpus was not run"
  exit 0
fi
NVCC=${NVCC:-nvcc}
command -v "$NVCC" > /dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$OUT"
B=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
SEED=${SEED:-$(date +%s)}
ROUNDS=${ROUNDS:-2}
PROGRAMS=${PROGRAMS:-"diffusion2d euler_mesh heat3d mlp"}
FLAGS="-O3 -arch=sm_90 -std=c++17 -Xcompiler -fopenmp"
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
$NVCC --version | tail -1
echo "seed $SEED, $ROUNDS rounds"
$NVCC -O3 -arch=sm_90 -o $B/bandwidth bench/fusion/bandwidth.cu && $B/bandwidth
for p in $PROGRAMS; do
  echo "== $p"
  # launchopt's outputs: every <prog>.<name>.cu (.timed: no fusion, hooks only).
  variants=$(cd $P/$p && ls $p.*.cu 2>/dev/null | sed 's/\.cu$//')
  fused=$(echo "$variants" | grep -v '\.timed$')
  [ -n "$variants" ] || echo "no launchopt output for $p (see $P/$p/fuse.log)"
  for v in $p $variants; do
    (cd $P/$p && $NVCC $FLAGS -o $B/$v $v.cu > $B/$v.build 2>&1) ||
      { cat $B/$v.build; echo "build of $v failed"; } &
    [ $v = $p ] || (cd $P/$p && $NVCC $FLAGS -DLAUNCHOPT_FUSION_TIMING -o $B/$v.t $v.cu > $B/$v.t.build 2>&1) ||
      { cat $B/$v.t.build; echo "build of $v (timing) failed"; } &
  done
  wait
  for v in $fused; do
    echo "-- registers and shared memory per new kernel (ptxas): $v"
    (cd $P/$p && $NVCC $FLAGS --resource-usage -c -o /dev/null $v.cu 2>&1) |
      awk -F"'" '/entry function/ { name = $2 }
        /Used [0-9]+ registers/ && name ~ /__lo_fused/ {
          match($0, /Used [0-9]+ registers/); r = substr($0, RSTART + 5, RLENGTH - 15)
          s = 0; if (match($0, /[0-9]+ bytes smem/)) s = substr($0, RSTART, RLENGTH - 11)
          print name, r, "registers", s, "bytes smem"; name = "" }' 
  done
  for r in $(seq 1 $ROUNDS); do
    echo "-- $p (round $r)"
    [ -x $B/$p ] && { $B/$p 0 0 $SEED $B/ref.bin || echo "FAILED: $p, exit status $?"; }
    for v in $variants; do
      [ -x $B/$v ] || continue
      echo "-- $v (round $r)"
      $B/$v 0 0 $SEED $B/out.bin $B/ref.bin || echo "FAILED: $v, exit status $?"
      if cmp -s $B/ref.bin $B/out.bin; then echo "bitwise: equal"; else echo "bitwise: DIFFERENT"; fi
    done
  done
  for v in $variants; do
    [ -x $B/$v.t ] || continue
    echo "-- per-launch times: $v"
    $B/$v.t 0 0 $SEED $B/out.bin $B/ref.bin | grep -E '^launch |^compare'
  done
  SEED2=$((SEED + 7919))
  echo "-- second input set: seed $SEED2"
  [ -x $B/$p ] && $B/$p 0 0 $SEED2 $B/ref.bin | grep -E '^cpu check|^RESULT'
  for v in $fused; do
    [ -x $B/$v ] || continue
    $B/$v 0 0 $SEED2 $B/out.bin $B/ref.bin | grep -E '^cpu check|^compare|^RESULT'
  done
  rm -f $B/ref.bin $B/out.bin
done
} 2>&1 | tee "$OUT/log.txt"
rm -rf $B
# The block above runs in a pipeline (a subshell): failures are read back from the log.
status=0
grep -qE "^RESULT.* (cpu|reference)=FAIL|^FAILED: |^build of .* failed$" "$OUT/log.txt" && status=1
if command -v python3 > /dev/null; then
  python3 $P/efficiency.py "$OUT/log.txt" "$OUT" | tee "$OUT/summary.txt"
fi
exit $status

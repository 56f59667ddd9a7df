#!/bin/sh
# GPU run of the fusion test-bed (device machine; needs nvcc, not launchopt):
# the fused sources were generated beforehand by bench/fusion/generate.sh.
# Prints device bandwidth, then the original against four fused programs:
# the search's plan and a forced all-halo plan, each generated through
# registers and shared-memory tiles (on chip) and through GMEM alone (.gmem),
# and the plan the search finds now (dycore.search, from plan.json; and
# dycore.search.tiles: the same plan with shared-memory tiles where
# dycore.search recomputes neighbours in registers).
# For each: output comparison on fresh random inputs, step times with CUDA
# events, and per-launch times (-DLAUNCHOPT_FUSION_TIMING). Then the renaming
# test-bed (reuse.cu, one scratch array for two values): the original, the
# search's plan without renaming and with --rename-expandable, outputs
# compared bitwise (cmp) on two random input sets and timed side by side.
# RENAME_ONLY=1 runs only that part.
set -u
OUT=${OUT:-bench/results/fusion/gpu}
mkdir -p "$OUT"
S=bench/fusion/stencil
B=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
NX=${NX:-8192}
REPS=${REPS:-20}
SEED=${SEED:-$(date +%s)}
FLAGS="-O3 -arch=sm_90 -std=c++17 -I$S"
FUSED=${FUSED:-"dycore.fused dycore.fused.gmem dycore.halo dycore.halo.gmem dycore.search dycore.search.tiles"}
RENAMED="reuse reuse.norename.fused reuse.fused"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
nvcc --version | tail -1
status=0
# Renaming: every output array after one step must be bitwise the original's.
rename_check() {
  for v in $RENAMED; do
    nvcc $FLAGS -o $B/$v $S/$v.cu > $B/$v.build 2>&1 || { cat $B/$v.build; echo "build of $v failed"; status=1; } &
  done
  nvcc $FLAGS -DLAUNCHOPT_FUSION_TIMING -o $B/reuse.fused.t $S/reuse.fused.cu > $B/reuse.t.build 2>&1 ||
    { cat $B/reuse.t.build; echo "build of reuse.fused (timing) failed"; status=1; }
  wait
  for seed in $SEED $((SEED + 7919)); do
    echo "== renaming: seed $seed, ${NX}x${NX}, $REPS timed steps"
    echo "-- reuse (original)"; $B/reuse $NX $NX $REPS $seed $B/rref.bin || status=1
    for v in reuse.norename.fused reuse.fused; do
      echo "-- $v"; $B/$v $NX $NX $REPS $seed $B/rout.bin $B/rref.bin || status=1
      if cmp -s $B/rref.bin $B/rout.bin; then echo "bitwise: equal"; else echo "bitwise: DIFFERENT"; status=1; fi
    done
    echo "-- reuse (original, again)"; $B/reuse $NX $NX $REPS $seed $B/rout.bin $B/rref.bin || status=1
  done
  # The reference of the first seed again: the loop left the last seed's in rref.bin.
  $B/reuse $NX $NX 1 $SEED $B/rref.bin > /dev/null || status=1
  echo "-- per-launch times: reuse.fused"; $B/reuse.fused.t $NX $NX $REPS $SEED $B/rout.bin $B/rref.bin || status=1
}
if [ "${RENAME_ONLY:-0}" = 1 ]; then
  rename_check
  rm -rf $B
  exit $status
fi
nvcc $FLAGS -o $B/bandwidth bench/fusion/bandwidth.cu && $B/bandwidth
for v in dycore dycore.timed $FUSED; do
  nvcc $FLAGS -o $B/$v $S/$v.cu > $B/$v.build 2>&1 || { cat $B/$v.build; echo "build of $v failed"; } &
done
for v in dycore.timed $FUSED; do
  nvcc $FLAGS -DLAUNCHOPT_FUSION_TIMING -o $B/$v.t $S/$v.cu > $B/$v.t.build 2>&1 || { cat $B/$v.t.build; echo "build of $v (timing) failed"; } &
done
wait
echo "== registers and shared memory per kernel (ptxas)"
for v in $FUSED; do
  echo "-- $v"
  nvcc $FLAGS --resource-usage -c -o /dev/null $S/$v.cu 2>&1 | grep -E "entry function '_Z10__lo_fused|Used" | paste - - |
    sed -E "s/.*entry function '([^']*)'.*Used ([0-9]+) registers.*barriers(, ([0-9]+) bytes smem)?.*/\1 \2 registers \3 bytes smem/"
done
echo "== seed $SEED, ${NX}x${NX}, $REPS timed steps"
echo "-- original"; $B/dycore $NX $NX $REPS $SEED $B/ref.bin || status=1
for v in $FUSED dycore.timed; do
  echo "-- $v (round 1)"; $B/$v $NX $NX $REPS $SEED $B/out.bin $B/ref.bin || status=1
done
echo "-- original (round 1)"; $B/dycore $NX $NX $REPS $SEED $B/out.bin $B/ref.bin || status=1
for v in dycore.timed $FUSED; do
  echo "-- per-launch times: $v"; $B/$v.t $NX $NX $REPS $SEED $B/out.bin $B/ref.bin || status=1
done
echo "== second input set"
SEED2=$((SEED + 7919))
$B/dycore $NX $NX 1 $SEED2 $B/ref.bin > /dev/null
for v in $FUSED; do echo "-- $v, seed $SEED2"; $B/$v $NX $NX 1 $SEED2 $B/out.bin $B/ref.bin | grep compare || status=1; done
rename_check
rm -rf $B
exit $status

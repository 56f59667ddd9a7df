#!/bin/sh
# GPU run of the fusion test-bed (device machine; needs nvcc, not launchopt):
# the fused sources were generated beforehand by bench/fusion/generate.sh.
# Prints device bandwidth, then original vs fused (search plan) vs a forced
# all-halo plan: output comparison on fresh random inputs, step times with
# CUDA events, and per-launch times (-DLAUNCHOPT_FUSION_TIMING).
set -u
OUT=${OUT:-bench/results/fusion/gpu}
mkdir -p "$OUT"
S=bench/fusion/stencil
B=$(mktemp -d)
NX=${NX:-8192}
REPS=${REPS:-20}
SEED=${SEED:-$(date +%s)}
FLAGS="-O3 -arch=sm_90 -std=c++17 -I$S"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
nvcc $FLAGS -o $B/bandwidth bench/fusion/bandwidth.cu && $B/bandwidth
for v in dycore dycore.fused dycore.halo dycore.timed; do
  nvcc $FLAGS -o $B/$v $S/$v.cu || { echo "build of $v failed"; exit 1; }
done
for v in dycore.fused dycore.halo dycore.timed; do
  nvcc $FLAGS -DLAUNCHOPT_FUSION_TIMING -o $B/$v.t $S/$v.cu || { echo "build of $v (timing) failed"; exit 1; }
done
echo "== seed $SEED, ${NX}x${NX}, $REPS timed steps"
status=0
echo "-- original"; $B/dycore $NX $NX $REPS $SEED $B/ref.bin || status=1
for round in 1 2; do
  for v in dycore.fused dycore.halo dycore.timed; do
    echo "-- $v (round $round)"; $B/$v $NX $NX $REPS $SEED $B/$v.bin $B/ref.bin || status=1
  done
  echo "-- original (round $round)"; $B/dycore $NX $NX $REPS $SEED $B/ref2.bin $B/ref.bin || status=1
done
for v in dycore.timed dycore.fused dycore.halo; do
  echo "-- per-launch times: $v"; $B/$v.t $NX $NX $REPS $SEED $B/t.bin $B/ref.bin || status=1
done
echo "== second input set"
SEED2=$((SEED + 7919))
$B/dycore $NX $NX 3 $SEED2 $B/ref.bin > /dev/null
for v in dycore.fused dycore.halo; do echo "-- $v, seed $SEED2"; $B/$v $NX $NX 3 $SEED2 $B/o.bin $B/ref.bin | grep compare || status=1; done
exit $status

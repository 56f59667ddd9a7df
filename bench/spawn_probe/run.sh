#!/bin/bash
# Builds and runs the spawn controller's probe; writes its GPU description to
# <out>/launch-control.json (the form of lib/Transforms/Fusion/gpus/
# h100.launch-control.json) and the same values as -D flags to
# <out>/spawn_constants.txt (default $OUT, else bench/results/spawn_probe).
#   bench/spawn_probe/run.sh [out]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/../results/spawn_probe}}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
"$nvcc" -arch=sm_90 -rdc=true -O3 "$here/spawn_probe.cu" -o "$out/spawn_probe" -lcudadevrt
if ! command -v nvidia-smi > /dev/null || ! nvidia-smi > /dev/null 2>&1; then
  echo "spawn_probe: no GPU here; built only" | tee "$out/spawn_constants.txt"
  exit 0
fi
"$out/spawn_probe" | tee "$out/launch-control.json"
"$here/flags.sh" "$out/launch-control.json" | tee "$out/spawn_constants.txt"

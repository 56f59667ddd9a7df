#!/bin/bash
# Builds and runs the probe of --auto's guessed constants (model_probe.cu);
# writes what it printed to <out>/model_probe.txt (default $OUT, else
# bench/results/model_probe).
#   bench/model_probe/run.sh [out]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/../results/model_probe}}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
command -v "$nvcc" > /dev/null || nvcc=/usr/local/cuda/bin/nvcc
"$nvcc" -arch=sm_90 -O3 -std=c++17 "$here/model_probe.cu" -o "$out/model_probe"
if ! command -v nvidia-smi > /dev/null || ! nvidia-smi > /dev/null 2>&1; then
  echo "model_probe: no GPU here; built only" | tee "$out/model_probe.txt"
  exit 0
fi
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $("$nvcc" --version | tail -1)"
  for round in 1 2 3; do echo "## round $round"; "$out/model_probe"; done
} | tee "$out/model_probe.txt"

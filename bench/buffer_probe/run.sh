#!/bin/bash
# Builds the launch-buffer probe and runs each case in its own process with a
# timeout (a launch that blocks in the device runtime hangs its process).
# Usage: bench/buffer_probe/run.sh [output folder]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-.}
mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
"$nvcc" -O2 -arch=sm_90 -rdc=true -o "$out/buffer_probe" "$here/buffer_probe.cu" -lcudadevrt || exit 1
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
for c in "chain 1000 16" "chain 1000 256" "chain 4000 16" "chain 4000 256" "chain 20000 16" \
         "chain 20000 256" "fan 1500 16" "fan 1500 256" "fan 4000 16" "fan 4000 256"; do
  timeout 12 "$out/buffer_probe" $c || echo "$c: exit $? (124: hung past 12 s)"
done

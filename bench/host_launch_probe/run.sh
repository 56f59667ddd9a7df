#!/bin/bash
# The cost of launching a host-launched parent's aggregated children from the
# host (--aggregate=host: persistent grid, or LAUNCHOPT_HOST_COUNT_COPY=1;
# --aggregate=host-or-device) against the device launches of
# --aggregate=grid (a tail launch) and --aggregate=multiblock:8, and the
# original CDP code. --auto's launch constants come from it.
# The outputs of launchopt are committed beside this script (the GPU machine
# has no Clang); `run.sh --transform [launchopt]` writes them again.
#   bench/host_launch_probe/run.sh [out]     (default $OUT, else bench/results/host_launch_probe)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --transform ]; then
  launchopt=${2:-$here/../../build/tools/launchopt/launchopt}
  "$launchopt" --aggregate=grid "$here/probe_app.cu" -o "$here/probe_app.grid.cu" --quiet
  "$launchopt" --aggregate=host "$here/probe_app.cu" -o "$here/probe_app.host.cu" --quiet
  "$launchopt" --aggregate=multiblock:8 "$here/probe_app.cu" -o "$here/probe_app.multiblock.cu" \
    --quiet
  "$launchopt" --aggregate=host-or-device "$here/probe_app.cu" \
    -o "$here/probe_app.host-or-device.cu" --quiet
  exit 0
fi
out=${1:-${OUT:-$here/../results/host_launch_probe}}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
cdp=(-arch=sm_90 -rdc=true -O3 -std=c++17)
plain=(-arch=sm_90 -O3 -std=c++17)
"$nvcc" "${cdp[@]}" "$here/probe.cu" "$here/probe_app.cu" -o "$out/cdp" -lcudadevrt
"$nvcc" "${cdp[@]}" "$here/probe.cu" "$here/probe_app.grid.cu" -o "$out/grid-tail" -lcudadevrt
for v in multiblock host-or-device; do
  "$nvcc" "${cdp[@]}" "$here/probe.cu" "$here/probe_app.$v.cu" -o "$out/$v" -lcudadevrt
done
# --aggregate=host leaves no device-side launch here: built without -rdc.
"$nvcc" "${plain[@]}" "$here/probe.cu" "$here/probe_app.host.cu" -o "$out/host-persist"
"$nvcc" "${plain[@]}" -DLAUNCHOPT_HOST_COUNT_COPY=1 "$here/probe.cu" "$here/probe_app.host.cu" \
  -o "$out/host-copy"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi >/dev/null 2>&1; then
  echo "host_launch_probe: no GPU here; built only" | tee "$out/host_launch_probe.txt"
  exit 0
fi
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $("$nvcc" --version | tail -1)"
  for v in cdp grid-tail multiblock host-persist host-copy host-or-device; do "$out/$v" "$v"; done
} | tee "$out/host_launch_probe.txt"

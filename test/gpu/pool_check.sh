#!/usr/bin/env bash
# GPU check of the record pool that the host allocates at run time: every
# variant that aggregates, the same built again with the pool capped at
# 8 KiB (most parent threads then find it full and launch directly), and the
# pool's own check (pool_runtime.cu, run by run.sh). A subset of run.sh.
#
#   test/gpu/pool_check.sh transform [launchopt]   write the sources (needs launchopt)
#   test/gpu/pool_check.sh run                     build, compare, time (GPU machine)
#
# Output as run.sh's; the last line counts the mismatching or failed variants.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export THRESHOLDS=
export VARIANTS="A-warp:--aggregate=warp A-block:--aggregate=block
  A-multiblock:--aggregate=multiblock:8 A-grid:--aggregate=grid
  TCA-block:--threshold,--coarsen,--aggregate=block TCA-grid:--threshold,--coarsen,--aggregate=grid
  A-threads:--aggregate=threads A-threads-block:--aggregate=threads:block
  TCA-threads:--threshold,--coarsen,--aggregate=threads A-host:--aggregate=host
  A-threads-host:--aggregate=threads:host TCA-host:--threshold,--coarsen,--aggregate=host
  S-TCA:--threshold,--spawn,--coarsen,--aggregate=block"
export POOL_VARIANTS="A-warp-pool8K:A-warp:-DLAUNCHOPT_POOL_BYTES=8192
  A-block-pool8K:A-block:-DLAUNCHOPT_POOL_BYTES=8192
  A-multiblock-pool8K:A-multiblock:-DLAUNCHOPT_POOL_BYTES=8192
  A-grid-pool8K:A-grid:-DLAUNCHOPT_POOL_BYTES=8192
  TCA-block-pool8K:TCA-block:-DLAUNCHOPT_POOL_BYTES=8192
  TCA-grid-pool8K:TCA-grid:-DLAUNCHOPT_POOL_BYTES=8192
  A-threads-pool8K:A-threads:-DLAUNCHOPT_POOL_BYTES=8192
  A-host-pool8K:A-host:-DLAUNCHOPT_POOL_BYTES=8192
  TCA-host-pool8K:TCA-host:-DLAUNCHOPT_POOL_BYTES=8192
  S-TCA-pool8K:S-TCA:-DLAUNCHOPT_POOL_BYTES=8192
  A-host-copy:A-host:-DLAUNCHOPT_HOST_COUNT_COPY=1"
exec "$here/run.sh" "$@"

#!/bin/sh
# Regenerates the fused test-bed sources, plans, reports and graphs with
# launchopt (here; the GPU machine only compiles and runs them). With nvcc at
# /usr/local/cuda/bin/nvcc the plans that are followed take each kernel's
# registers and shared memory from ptxas (--nvcc-resources).
set -eu
L=$(realpath "${1:-build/tools/launchopt/launchopt}")
cd bench/fusion/stencil
FLAGS="-- -I. -DLAUNCHOPT_TESTBED_NO_MAIN"
RES=""
[ -x /usr/local/cuda/bin/nvcc ] && RES=--nvcc-resources
$L fuse dycore.cu --function=step --plan=plan.json \
  --report=report.txt --write-problem=problem.json --data-dot=data-dependency.dot \
  --order-dot=order-of-execution.dot $FLAGS 2> remarks.txt > /dev/null
# The search's wall-clock time differs on every run; the file keeps the rest.
sed -i 's/ projected, [0-9.]* s$/ projected/' remarks.txt
# The H100 run (bench/results/fusion/gpu) used the plan the search found with
# the datasheet bandwidth; with the measured one it finds the mirror plan of
# equal projected time (update_u and update_v swap places). The fused source
# follows the plan that ran. Each plan is generated on chip (registers and
# shared-memory tiles) and, for comparison, through GMEM alone (.gmem).
$L fuse dycore.cu --function=step --use-plan=gpu-plan.json --plan=gpu-plan.out.json \
  --report=gpu-report.txt -o dycore.fused.cu --timing-hooks $RES $FLAGS 2> gpu-remarks.txt
$L fuse dycore.cu --function=step --use-plan=gpu-plan.json --on-chip=false \
  -o dycore.fused.gmem.cu --timing-hooks --quiet $FLAGS
$L fuse dycore.cu --function=step --search=none -o dycore.timed.cu --timing-hooks --quiet $FLAGS
$L fuse dycore.cu --function=step --use-plan=halo-plan.json --plan=halo-plan.out.json \
  --report=halo-report.txt -o dycore.halo.cu --timing-hooks --quiet $RES $FLAGS
# The search's current plan (plan.json), to measure against the two above.
$L fuse dycore.cu --function=step --use-plan=plan.json --plan=search-plan.out.json \
  -o dycore.search.cu --report=search-report.txt --timing-hooks --quiet $RES $FLAGS
# The same plan with every neighbour dependence through shared-memory tiles
# (no recomputation), to measure the two on-chip paths against each other.
$L fuse dycore.cu --function=step --use-plan=plan.json --recompute-neighbours=0 \
  -o dycore.search.tiles.cu --report=search-tiles-report.txt --timing-hooks --quiet $RES $FLAGS
$L fuse dycore.cu --function=step --use-plan=halo-plan.json --on-chip=false \
  -o dycore.halo.gmem.cu --timing-hooks --quiet $FLAGS
# Renaming: reuse.cu overwrites its scratch array w after the divergence read
# it. reuse-rename-plan.json fuses kinetic_energy (second version of w) with
# the kernels before the divergence, which only a new buffer for the first
# version allows; the search's plan without renaming is the comparison.
$L fuse reuse.cu --function=step --rename-expandable --use-plan=reuse-rename-plan.json \
  --plan=reuse-plan.json --report=reuse-report.txt -o reuse.fused.cu --timing-hooks $RES \
  $FLAGS 2> reuse-remarks.txt
$L fuse reuse.cu --function=step --plan=reuse-norename-plan.json \
  --report=reuse-norename-report.txt -o reuse.norename.fused.cu --quiet $RES $FLAGS

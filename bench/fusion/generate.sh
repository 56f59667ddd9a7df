#!/bin/sh
# Regenerates the fused test-bed sources, plans, reports and graphs with
# launchopt (here; the GPU machine only compiles and runs them).
set -eu
L=$(realpath "${1:-build/tools/launchopt/launchopt}")
cd bench/fusion/stencil
FLAGS="-- -I. -DLAUNCHOPT_TESTBED_NO_MAIN"
$L fuse dycore.cu --function=step -o dycore.fused.cu --timing-hooks --plan=plan.json \
  --report=report.txt --write-problem=problem.json --data-dot=data-dependency.dot \
  --order-dot=order-of-execution.dot $FLAGS 2> remarks.txt
$L fuse dycore.cu --function=step --search=none -o dycore.timed.cu --timing-hooks --quiet $FLAGS
$L fuse dycore.cu --function=step --use-plan=halo-plan.json --plan=halo-plan.out.json \
  --report=halo-report.txt -o dycore.halo.cu --timing-hooks --quiet $FLAGS

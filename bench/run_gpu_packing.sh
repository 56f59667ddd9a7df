#!/bin/bash
# GPU machine script for the packed serial copies (runtime/include/launchopt/
# packing.cuh): each launchopt output that runs children in parent threads
# (T, TCA-tuned, TCA-threads, auto) is built twice from the same file, as
# generated (packed: the lanes of a warp share their children's threads) and
# with -DLAUNCHOPT_SERIAL_PACKING=0 (the "-serial" variant: each parent
# thread runs its own child, as before), side by side with flat and expert.
#   OUT=dir APPS=bfs,sssp,spmv bench/run_gpu_packing.sh
# Files under $OUT: build.log, run.log, results.csv, variants.txt.
MACRO=-DLAUNCHOPT_SERIAL_PACKING=0 SUFFIX=-serial VARIANTS="T TCA-tuned TCA-threads auto" \
  exec "$(dirname "$0")/run_gpu_macro.sh"

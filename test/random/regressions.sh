#!/usr/bin/env bash
# The GPU regression set of the random differential test: the programs whose
# failures led to fixes, in one file, transformed by every variant of run.sh,
# built at run.sh's flags (COMPILE_FLAGS, e.g. "-Xcicc -O1 -Xptxas -O1", the
# flags the runs use) and compared with their originals. Needs a GPU.
#   test/random/regressions.sh transform [launchopt]   here (needs Clang)
#   test/random/regressions.sh run                     on the GPU machine
# The seeds and what each showed (test/random/results/):
#   8, 101            a parameter passed once per group scope (uniform-in-aggregated-parent)
#   246, 346, 381, 600 a launch left for the stream's order kept its child's group scope (run-h100-v5.md)
#   491, 500, 586     the scope publish wait never ended at -Xcicc -O1 (spin-wait-O1-h100.md)
#   497               a child that tail-launches, serialized or aggregated (timeout-seed497-fixed-h100.txt)
#   9, 12             tail launches from many blocks of one grid (hang-reduced.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${REGRESSIONS_DIR:-$here/regressions-out}
seeds=8,9,12,101,246,346,381,491,497,500,586,600
case ${1:-} in
transform)
  rm -rf "$dir" && mkdir -p "$dir"
  "${DPGEN:-$root/build/tools/launchopt-dpgen/launchopt-dpgen}" --seeds=$seeds -o "$dir/b000.cu"
  "$here/run.sh" transform "${2:-$root/build/tools/launchopt/launchopt}" "$dir"
  "$here/run.sh" pack "$dir" ;;
run)
  "$here/run.sh" run "$dir.tar.gz" ;;
*)
  echo "usage: $0 transform [launchopt] | run" >&2
  exit 2 ;;
esac

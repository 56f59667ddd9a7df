#!/usr/bin/env bash
# The main job on the bundled example: list the launches of
# examples/bfs_cdp.cu, threshold them (and, separately, apply T+C+A), show the
# report and the diff, and when nvcc and a GPU are present build and run the
# versions side by side on the same random graph.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
launchopt="$build/tools/launchopt/launchopt"
example=examples/bfs_cdp.cu
out=out/demo
mkdir -p "$out"

echo "== launch sites in $example"
"$launchopt" --list-launches "$example"

echo
echo "== launchopt --threshold $example -o $out/bfs_cdp.T.cu"
"$launchopt" --threshold "$example" -o "$out/bfs_cdp.T.cu" --report="$out/report.T.txt"
echo
echo "== report ($out/report.T.txt)"
cat "$out/report.T.txt"
echo
echo "== diff"
diff -u "$example" "$out/bfs_cdp.T.cu" || true

echo
echo "== launchopt --threshold --coarsen --aggregate=grid $example -o $out/bfs_cdp.TCA.cu"
"$launchopt" --threshold --coarsen --aggregate=grid "$example" -o "$out/bfs_cdp.TCA.cu" \
  --report="$out/report.TCA.txt" --quiet
cat "$out/report.TCA.txt"

nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ]; then
  echo "== no nvcc at $nvcc: not compiling"
  exit 0
fi
echo
echo "== compiling the three versions with nvcc -arch=sm_90 -rdc=true"
scripts/demo-run.sh "$nvcc" "$example" "$out"

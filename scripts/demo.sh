#!/usr/bin/env bash
# The main job on the bundled example: list the launches of
# examples/bfs_cdp.cu, threshold them, show the report and the diff, and when
# nvcc and a GPU are present build and run both versions side by side.
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
"$launchopt" --threshold "$example" -o "$out/bfs_cdp.T.cu" --report="$out/report.txt"
echo
echo "== report ($out/report.txt)"
cat "$out/report.txt"
echo
echo "== diff"
diff -u "$example" "$out/bfs_cdp.T.cu" || true

nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ]; then
  echo "== no nvcc at $nvcc: not compiling"
  exit 0
fi
echo
echo "== compiling both with nvcc -arch=sm_90 -rdc=true"
flags=(-O3 -arch=sm_90 -rdc=true -std=c++17 -lcudadevrt)
"$nvcc" "${flags[@]}" -o "$out/bfs_cdp" "$example"
"$nvcc" "${flags[@]}" -o "$out/bfs_cdp.T" "$out/bfs_cdp.T.cu"
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "== no GPU here: built $out/bfs_cdp and $out/bfs_cdp.T, not run"
  exit 0
fi
seed=$(( $(date +%s) % 100000 ))
echo "== running both on the same random graph (seed $seed)"
original=$("$out/bfs_cdp" 400000 "$seed")
thresholded=$("$out/bfs_cdp.T" 400000 "$seed")
echo "original:    $original"
echo "thresholded: $thresholded"
strip_time() { sed 's/ time .*//' <<<"$1"; }
if [ "$(strip_time "$original")" != "$(strip_time "$thresholded")" ]; then
  echo "== MISMATCH: the thresholded program computed a different result"
  exit 1
fi
awk -v a="$(sed 's/.* time \([0-9.]*\) ms/\1/' <<<"$original")" \
    -v b="$(sed 's/.* time \([0-9.]*\) ms/\1/' <<<"$thresholded")" \
    'BEGIN { printf "== same result; thresholded is %.1fx faster\n", a / b }'

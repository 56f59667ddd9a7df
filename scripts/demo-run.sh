#!/usr/bin/env bash
# Builds the demo's original, T and T+C+A versions and, on a GPU, runs them on
# the same random graph and checks that they compute the same levels.
#   scripts/demo-run.sh <nvcc> <original.cu> <dir with bfs_cdp.T.cu and bfs_cdp.TCA.cu>
set -euo pipefail
nvcc=$1 example=$2 out=$3
flags=(-O3 -arch=sm_90 -rdc=true -std=c++17 -lcudadevrt)
"$nvcc" "${flags[@]}" -o "$out/bfs_cdp" "$example" &
"$nvcc" "${flags[@]}" -o "$out/bfs_cdp.T" "$out/bfs_cdp.T.cu" &
"$nvcc" "${flags[@]}" -o "$out/bfs_cdp.TCA" "$out/bfs_cdp.TCA.cu" &
wait
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "== no GPU here: built $out/bfs_cdp, $out/bfs_cdp.T and $out/bfs_cdp.TCA, not run"
  exit 0
fi
seed=$(( $(date +%s) % 100000 ))
vertices=200000
echo "== running on the same random graph ($vertices vertices, seed $seed) on $(nvidia-smi --query-gpu=name --format=csv,noheader)"
# A run that does not finish in a minute is reported, not waited for.
run() { timeout 60 "$@" || echo "FAILED (exit $?)"; }
original=$(run "$out/bfs_cdp" "$vertices" "$seed")
echo "original:    $original"
strip_time() { sed 's/ time .*//' <<<"$1"; }
time_of() { sed 's/.* time \([0-9.]*\) ms/\1/' <<<"$1"; }
status=0
for v in T TCA; do
  result=$(run "$out/bfs_cdp.$v" "$vertices" "$seed")
  printf '%-12s %s\n' "$v:" "$result"
  if [ "$(strip_time "$original")" != "$(strip_time "$result")" ]; then
    echo "== MISMATCH: $v computed a different result"
    status=1
  else
    awk -v a="$(time_of "$original")" -v b="$(time_of "$result")" -v v="$v" \
      'BEGIN { printf "== %s: same result, %.1fx faster than the original\n", v, a / b }'
  fi
done
exit $status

#!/usr/bin/env bash
# How long launchopt takes, as a whole process, on a generated 5,000-line
# CUDA file (target: under 2 s). A benchmark, not a test: it prints times.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
launchopt=${1:-$here/../../build/tools/launchopt/launchopt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/generate_large.py" 5000 > "$work/large.cu"
echo "input: $(wc -l < "$work/large.cu") lines, $(grep -c '<<<' "$work/large.cu") launches"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for mode in --list-launches --threshold; do
  times=()
  for run in 1 2 3 4 5; do
    start=$(date +%s.%N)
    "$launchopt" $mode "$work/large.cu" -o "$work/out.cu" --quiet 2>/dev/null || \
      "$launchopt" $mode "$work/large.cu" -o "$work/out.cu" >/dev/null
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f", b-a}')")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  echo "launchopt $mode: median ${median} s of 5 runs (${times[*]})"
done
echo "output: $(wc -l < "$work/out.cu") lines"

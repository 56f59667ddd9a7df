#!/bin/sh
# Search quality and scale of `launchopt fuse` (issue 5), on this machine's CPU.
#  1. Small generated instances (paper Table V attributes, sizes exact search
#     can enumerate): the genetic search with 10 seeds each vs the optimum.
#  2. A 142-kernel / 64-array instance (SCALE-LES's size, paper Table I):
#     wall time of the genetic search per seed.
# Usage: bench/fusion/search-bench.sh [launchopt binary] [output dir]
set -eu
LAUNCHOPT=${1:-build/tools/launchopt/launchopt}
OUT=${2:-bench/results/fusion}
mkdir -p "$OUT"
CSV="$OUT/search.csv"
echo "instance,kernels,arrays,sharing,load,seed,genetic_s,exact_s,found_optimum,search_wall_s" > "$CSV"
for inst in 1 2 3 4 5 6 7 8 9 10; do
  sharing=$(( 2 + (inst % 4) * 2 ))   # 2, 4, 6, 8
  load=$(( 4 + (inst % 3) * 4 ))      # 4, 8, 12
  spec="kernels=11,arrays=20,copies=0,sharing=$sharing,load=$load,kinship=2,seed=$inst"
  found=0
  for seed in 1 2 3 4 5 6 7 8 9 10; do
    log=$("$LAUNCHOPT" fuse --generate "$spec" --rename-expandable --search=both --seed "$seed" 2>&1)
    g=$(echo "$log" | sed -n 's/^genetic search: .*: \([0-9.e+-]*\) s in .*/\1/p')
    t=$(echo "$log" | sed -n 's/.*projected, \([0-9.]*\) s$/\1/p')
    e=$(echo "$log" | sed -n 's/^exact search: \([0-9.e+-]*\) s.*/\1/p')
    ok=$(echo "$log" | grep -c "found the optimum" || true)
    found=$((found + ok))
    echo "small-$inst,11,20,$sharing,$load,$seed,$g,$e,$ok,$t" >> "$CSV"
  done
  optimum=$("$LAUNCHOPT" fuse --generate "$spec" --rename-expandable --search=exact --report=- 2>/dev/null | sed -n 's/^fusion plan: //p')
  echo "small instance $inst ($spec): optimum found in $found of 10 seeded runs; optimum: $optimum"
done
for seed in 1 2 3 4 5 6 7 8 9 10; do
  spec="kernels=142,arrays=64,copies=2,sharing=6,load=8,kinship=3,seed=1"
  start=$(date +%s.%N)
  log=$("$LAUNCHOPT" fuse --generate "$spec" --rename-expandable --seed "$seed" --report=- 2>&1)
  end=$(date +%s.%N)
  wall=$(echo "$end - $start" | bc)
  g=$(echo "$log" | sed -n 's/^genetic search: .*: \([0-9.e+-]*\) s in .*/\1/p')
  echo "large-142x64,142,64,6,8,$seed,$g,,,$wall" >> "$CSV"
  echo "142 kernels / 64 arrays, seed $seed: $(echo "$log" | grep '^genetic search' | sed 's/^genetic search: //'); wall ${wall} s; $(echo "$log" | grep '^fusion plan')"
done

#!/bin/bash
# GPU machine script: where the transformed BFS and SSSP lose time to the flat
# versions on a small input (rmat12.sym: 4096 vertices, maximum degree 201, so
# with a threshold of 256 no child grid is ever launched). Each row leaves one
# stage out, so differences between rows place the time:
#   flat        the hand-written flat version (no -rdc)
#   flat-rdc    the same file built with -rdc=true -lcudadevrt
#   T-inf       T with a threshold nothing reaches: serial children only
#   TCAg-inf    TCA-grid with that threshold: adds the aggregation scopes
#                and the host's pool reset before every parent launch
#   TCAg-noreset  the same without the pool's preparation and reset (safe
#                here: no record is ever written; the scopes find no pool)
# Then the tuner sweeps threshold x cfactor x granularity on rmat12 itself.
# Files under $OUT: overheads.log, tune-<app>.log, tune_<app>_rmat12.csv.
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.build/out}
mkdir -p "$OUT"
rows_file=$(mktemp)  # the variants to build, in place of variants.txt
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
INF=-DLAUNCHOPT_THRESHOLD=1073741824
# Only the rows above are built.
grep -E '^(bfs|sssp) +(flat|T|TCA-grid|TCA-tuned) ' variants.txt > "$rows_file"
for app in bfs sssp; do
  g=apps/$app/generated/${app}_cdp
  sed 's/launchopt::resetPool([^;]*); //' $g.TCA-grid.cu > $g.TCA-grid-noreset.cu
  cat >> "$rows_file" <<V
$app flat-rdc     apps/$app/${app}_flat.cu  cdp
$app T-inf        $g.T.cu  cdp $INF
$app TCAg-inf     $g.TCA-grid.cu  cdp $INF
$app TCAg-noreset $g.TCA-grid-noreset.cu  cdp $INF
V
done
GRID="--thresholds 16,32,64,128,256 --cfactors 1,8 --granularities block,multiblock:8,grid"
{
  python3 harness build --variants "$rows_file" --jobs 8 > "$OUT/build.log" 2>&1 &
  for app in bfs sssp; do
    python3 tune --app $app --dataset rmat12 --out /tmp/tune-$app --build-only --jobs 4 $GRID \
      > "$OUT/tune-build-$app.log" 2>&1 &
  done
  wait
} 
tail -3 "$OUT/build.log"
for round in 1 2; do
  for app in bfs sssp; do
    for v in flat flat-rdc T-inf TCAg-inf TCAg-noreset T TCA-grid TCA-tuned; do
      .build/bin/${app}_$v --variant $v --reps 30 --budget 1 --input data/rmat12.sym.gr | grep RESULT
    done
  done
done 2>&1 | tee "$OUT/overheads.log"
for app in bfs sssp; do
  python3 tune --app $app --dataset rmat12 --out /tmp/tune-$app --run-only --reps 10 --budget 0.5 \
    --timeout 30 $GRID > "$OUT/tune-$app.log" 2>&1
  cp /tmp/tune-$app/tune.csv "$OUT/tune_${app}_rmat12.csv"
  grep -E '^(best|guided|exhaustive)' "$OUT/tune-$app.log"
done

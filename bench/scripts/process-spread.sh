#!/bin/bash
# GPU machine script: how much one variant's median moves from process to
# process, and whether the record pool's size has a part in it. Each listed
# app's TCA-tuned output is built with the default pool (256 MiB) and with a
# 16 MiB one; both run PROCESSES times, alternating, on the small data set.
#   APPS="gc:bcsstk13 spmv:bcsstk13" PROCESSES=8 bench/scripts/process-spread.sh
# Output under $OUT: process-spread.log (RESULT lines) and build.log.
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.build/out}
mkdir -p "$OUT"
rows_file=$(mktemp)  # the variants to build, in place of variants.txt
export PATH=/usr/local/cuda/bin:$PATH
rows=
for entry in $APPS; do
  line=$(grep -E "^${entry%%:*} +TCA-tuned " variants.txt)
  rows+="$line"$'\n'"${line/TCA-tuned/TCA-tuned-pool16M} -DLAUNCHOPT_POOL_BYTES=16777216"$'\n'
done
printf '%s' "$rows" > "$rows_file"
python3 harness build --variants "$rows_file" --jobs "$(nproc)" > "$OUT/build.log" 2>&1 ||
  { tail "$OUT/build.log"; exit 1; }
for i in $(seq "${PROCESSES:-8}"); do
  for entry in $APPS; do
    app=${entry%%:*}
    file=$(python3 harness data "${entry#*:}")
    for v in TCA-tuned TCA-tuned-pool16M; do
      .build/bin/${app}_$v --variant "$v" --reps 20 --budget 1 --input "$file" | grep '^RESULT'
    done
  done
done | tee "$OUT/process-spread.log"

#!/bin/bash
# GPU machine script: does the pending-launch limit an app sets explain why a
# process runs its device launches 2-3x slower than the next one? GC's
# TCA-tuned output is built as written (the app asks for 2^18 + 1024 pending
# launches) and with the app's kMaxPending lowered so that it asks for
# 2^12 + 1024 (bcsstk13 has 2,003 vertices, so no launch is refused). Each runs
# in PROCESSES processes, alternating, on bcsstk13.
# Output under $OUT: pending-limit.log (RESULT lines) and build.log.
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.build/out}
mkdir -p "$OUT"
rows_file=$(mktemp)  # the variants to build, in place of variants.txt
export PATH=/usr/local/cuda/bin:$PATH
line=$(grep -E "^gc +TCA-tuned " variants.txt)
src=$(echo "$line" | awk '{print $3}')
sed 's/kMaxPending = 1 << 18;/kMaxPending = 1 << 12;/' "$src" > "${src%.cu}.limit4k.cu"
printf '%s\n%s\n' "$line" "$(echo "$line" | sed "s/TCA-tuned/TCA-tuned-limit4k/; s|$src|${src%.cu}.limit4k.cu|")" \
  > "$rows_file"
python3 harness build --variants "$rows_file" --jobs "$(nproc)" > "$OUT/build.log" 2>&1 ||
  { tail "$OUT/build.log"; exit 1; }
for i in $(seq "${PROCESSES:-8}"); do
  for v in TCA-tuned TCA-tuned-limit4k; do
    .build/bin/gc_$v --variant "$v" --reps 20 --budget 1 --input data/bcsstk13.mtx | grep '^RESULT'
  done
done | tee "$OUT/pending-limit.log"

#!/bin/bash
# GPU machine script: an app's TCA-tuned output (or the outputs of the
# variants named in COMPARE) against the same output at an earlier commit,
# side by side in one call, with the flat version as the reference. Each
# round runs flat, then each earlier output before the current one, on every
# listed data set; rounds repeat so that drift between processes shows.
# Nothing but the listed rows is built.
#   PREV=<commit> APPS="bfs:rmat12,kron20 sssp:rmat12" bench/scripts/side-by-side.sh prepare
#   APPS="bfs:rmat12,kron20 sssp:rmat12" ROUNDS=3 bench/scripts/side-by-side.sh run
# prepare (where the git history is) writes the earlier outputs next to the
# current ones as <output>.prev.cu; run (on the GPU machine) builds and times.
# EXTRA=<file> adds variants.txt lines of its own (e.g. tuned.txt of run_gpu_tune.sh) and
# VARIANTS the names to run, in order (default: flat, then NAME-prev NAME for each NAME in
# COMPARE); a NAME@DATA line runs as NAME on DATA only.
# BUILD_ONLY=1 builds and stops (nvcc needs no GPU: build here, then carry bench/.build to
# the GPU machine); SKIP_BUILD=1 runs what bench/.build holds. TIMEOUT (default 60) bounds
# each process: a hang is a FAILED line, not a lost call.
# Output under $OUT: side-by-side.log (RESULT lines) and build.log.
set -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.build/out}
mkdir -p "$OUT"
rows_file=$(mktemp)  # the variants to build, in place of variants.txt
export PATH=/usr/local/cuda/bin:$PATH
COMPARE=${COMPARE:-TCA-tuned}
source_of() { grep -E "^$1 +$2 " variants.txt | awk '{print $3}'; }
if [ "$1" = prepare ]; then
  : "${PREV:?PREV=<commit> names the earlier outputs}"
  for entry in $APPS; do
    for name in $COMPARE; do
      src=$(source_of "${entry%%:*}" "$name")
      git show "$PREV:bench/$src" > "${src%.cu}.prev.cu" && echo "wrote bench/${src%.cu}.prev.cu"
    done
  done
  exit
fi
rows=
for entry in $APPS; do
  app=${entry%%:*}
  rows+="$(grep -E "^$app +flat " variants.txt)"$'\n'
  for name in $COMPARE; do
    line=$(grep -E "^$app +$name " variants.txt)
    src=$(source_of "$app" "$name")
    rows+="$line"$'\n'
    [ -f "${src%.cu}.prev.cu" ] &&
      rows+="$(echo "$line" | sed "s/$name/$name-prev/; s|$src|${src%.cu}.prev.cu|")"$'\n'
  done
  [ -n "$EXTRA" ] && rows+="$(grep -E "^$app " "$EXTRA")"$'\n'
done
order=flat
for name in $COMPARE; do order+=" $name-prev $name"; done
printf '%s' "$rows" > "$rows_file"
if [ -z "$SKIP_BUILD" ]; then
  python3 harness build --variants "$rows_file" --jobs "$(nproc)" > "$OUT/build.log" 2>&1 ||
    { tail "$OUT/build.log"; exit 1; }
  tail -1 "$OUT/build.log"
fi
[ -n "$BUILD_ONLY" ] && exit 0
for round in $(seq "${ROUNDS:-3}"); do
  for entry in $APPS; do
    app=${entry%%:*}
    for data in $(echo "${entry#*:}" | tr , ' '); do
      file=$(python3 harness data "$data")
      for v in ${VARIANTS:-$order}; do
        exe=.build/bin/${app}_$v
        [ -x "$exe@$data" ] && exe=$exe@$data
        [ -x "$exe" ] || continue
        timeout "${TIMEOUT:-60}" $exe --variant "$v" --reps "${REPS:-20}" --budget "${BUDGET:-1}" \
          --input "$file" > "$OUT/last.txt" 2>&1
        rc=$?
        grep '^RESULT' "$OUT/last.txt" ||
          echo "RESULT,$app,$data,$v,FAILED,0,,,,exit $rc: $(tail -2 "$OUT/last.txt" | tr '\n' ' ')"
      done
    done
  done
done | tee "$OUT/side-by-side.log"

#!/usr/bin/env bash
# The realistic corpus (issue 15): every program transformed by every pass
# variant, built, run on the same seeded input as the original and compared.
#
#   test/corpus/run.sh transform [launchopt] [dir]  write the variants (needs launchopt)
#   test/corpus/run.sh check [launchopt] [dir]      transform, then compile (ctest corpus.compile;
#                                                   COMPILE_VARIANTS="A B" or CORPUS_COMPILE_ALL=1)
#   test/corpus/run.sh compile [dir]                check that every original and variant
#                                                   compiles (nvcc, no GPU; what ctest runs)
#   test/corpus/run.sh build [dir]                  build original and variants (needs nvcc)
#   test/corpus/run.sh run [dir]                    build, run and compare (needs a GPU)
#   test/corpus/run.sh summary [launchopt]          launchopt --list-launches --summary per
#                                                   program, their sum first
#   test/corpus/run.sh                              transform, then run
#
# A program is a folder of test/corpus with its .cu files and headers; it
# includes ../corpus.cuh. [dir] (default test/corpus/out) gets one copy of
# the corpus per variant, <dir>/<variant>/<program>/, the original under
# <dir>/original; launchopt rewrites each copy in place, so every variant
# builds like the original, headers and all, with a report per program
# (<program>.report.txt). A program of several files is given to launchopt
# whole; where launchopt refuses them together as a bad command line, each
# file is transformed alone, and the transform line says so.
#
# compile runs nvcc's front end and device compiler (-ptx) on every file and
# links the programs of several files (-rdc); a variant that does not
# compile fails unless known-failures.txt lists it (`<variant> <program>
# <why>`), and a listed one that compiles fails too, so that the list stays
# true.
#
# run prints one line per program and variant and closes with
# `N passed, N failed`; each run is stopped after RUN_TIMEOUT seconds
# (default 60) and a hang counts as failed. PROGRAMS="a b" limits any step
# to those programs. SEED fixes the input (default:
# a fresh seed per program, printed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
command -v "$nvcc" >/dev/null || nvcc=nvcc

# Paths given on the command line keep working after a cd.
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

# The corpus's programs, or those named in PROGRAMS (spaces between).
programs() {
  local d
  for d in "$here"/*/; do
    d=${d%/}
    [ -n "$(ls "$d"/*.cu 2>/dev/null)" ] && [ "$d" != "$here/out" ] || continue
    [ -z "${PROGRAMS:-}" ] || [[ " $PROGRAMS " == *" $(basename "$d") "* ]] || continue
    basename "$d"
  done
  return 0
}

# name:launchopt flags (commas for spaces)
variants=(T:--threshold C:--coarsen A-warp:--aggregate=warp A-block:--aggregate=block
          A-grid:--aggregate=grid TCA-block:--threshold,--coarsen,--aggregate=block
          A-threads:--aggregate=threads A-host:--aggregate=host R-auto:--remove-launches=auto
          S:--spawn S-TCA:--threshold,--spawn,--coarsen,--aggregate=block auto:--auto)
# name:variant whose sources it builds:nvcc flags (commas for spaces)
builds=(original:original: T:T: T-serial:T:-DLAUNCHOPT_THRESHOLD=1000000000 C:C: A-warp:A-warp:
        A-block:A-block: A-grid:A-grid: TCA-block:TCA-block: A-threads:A-threads: A-host:A-host:
        R-auto:R-auto: S:S: S-TCA:S-TCA: auto:auto:)

sources() { (cd "$1" && ls ./*.cu | sed 's|^\./||'); }

# Transforms one program ($2) by one variant ($1, name:flags) into $dir;
# prints its line. Run by transform through xargs, several at once.
transform_one() {
  local name=${1%%:*} flags=${1#*:} p=$2
  local work=$dir/$name/$p report=$dir/$name/$p.report.txt files note=""
  files=$(sources "$work")
  local rc=0
  (cd "$work" && "$launchopt" ${flags//,/ } --in-place $files --report="$report" \
     --quiet 2>"$report.err") || rc=$?
  if [ "$rc" -eq 2 ] && [ "$(echo $files | wc -w)" -gt 1 ]; then
    # A bad command line (exit 2) writes nothing: this launchopt does not
    # take the program's files together, so each is transformed alone.
    note=" (launchopt refused the files together: \"$(head -1 "$report.err")\"; each transformed alone)"
    : >"$report"
    local f
    for f in $files; do
      (cd "$work" && "$launchopt" ${flags//,/ } --in-place "$f" --report="$report.$f" \
         --quiet 2>"$report.err") || { note=" FAILED: $(head -1 "$report.err")"; break; }
      cat "$report.$f" >>"$report" && rm "$report.$f"
    done
  elif [ "$rc" -ne 0 ]; then
    note=" FAILED: $(head -1 "$report.err")"
  fi
  [[ "$note" == " FAILED"* ]] && touch "$work/TRANSFORM_FAILED"
  rm -f "$report.err"
  echo "transformed $p ($name): $(grep -c ': applied' "$report" || true) applied," \
       "$(grep ': not applied' "$report" | grep -vc 'host-side launch' || true) device-side" \
       "not applied$note"
}

transform() {
  local launchopt dir
  launchopt=$(absolute "${1:-$root/build/tools/launchopt/launchopt}") dir=$(absolute "${2:-$here/out}")
  [ -x "$launchopt" ] || { echo "launchopt not found: $launchopt" >&2; return 1; }
  rm -rf "$dir"
  local v p
  for v in original "${variants[@]}"; do
    mkdir -p "$dir/${v%%:*}"
    cp "$here/corpus.cuh" "$dir/${v%%:*}/"
    for p in $(programs); do cp -r "$here/$p" "$dir/${v%%:*}/$p"; done
  done
  # One launchopt per core: each (variant, program) has its own copy.
  export launchopt dir
  export -f transform_one sources
  for v in "${variants[@]}"; do
    for p in $(programs); do printf '%s %s\n' "$v" "$p"; done
  done | xargs -P "$(nproc)" -n 2 bash -c 'transform_one "$1" "$2"' _ | sort
}

compile() {
  local dir
  dir=$(absolute "${1:-$here/out}")
  command -v "$nvcc" >/dev/null || { echo "nvcc not found: compile check skipped"; return 77; }
  mkdir -p "$dir/bin"
  local v p jobs=()
  for v in original "${variants[@]}"; do
    [ -z "${COMPILE_VARIANTS:-}" ] || [ "${v%%:*}" = original ] ||
      [[ " $COMPILE_VARIANTS " == *" ${v%%:*} "* ]] || continue
    for p in $(programs); do jobs+=("${v%%:*} $p"); done
  done
  local results
  results=$(for j in "${jobs[@]}"; do echo "$j"; done |
    xargs -P "$(nproc)" -I{} -d '\n' bash -c '
      read -r variant program <<<"$1"
      work=$2/$variant/$program log=$2/bin/$program.$variant.compile.log
      if [ -e "$work/TRANSFORM_FAILED" ]; then echo "$variant $program not-transformed"; exit; fi
      cd "$work" && files=$(ls ./*.cu) && : >"$log"
      for f in $files; do
        "$3" -arch=sm_90 -rdc=true -std=c++17 -ptx -o /dev/null "$f" >>"$log" 2>&1 ||
          { echo "$variant $program fails"; exit; }
      done
      if [ "$(echo $files | wc -w)" -gt 1 ]; then
        "$3" -arch=sm_90 -rdc=true -std=c++17 -o "$2/bin/$program.$variant.linked" $files \
          -lcudadevrt >>"$log" 2>&1 || { echo "$variant $program fails"; exit; }
      fi
      echo "$variant $program compiles"' _ {} "$dir" "$nvcc" | sort)
  local failed=0 passed=0 variant program outcome known
  while read -r variant program outcome; do
    known=$(awk -v v="$variant" -v p="$program" '$1 == v && $2 == p' "$here/known-failures.txt")
    if [ "$outcome" = compiles ] && [ -z "$known" ]; then
      passed=$((passed + 1)); echo "compiles:         $program ($variant)"
    elif [ "$outcome" = compiles ]; then
      failed=$((failed + 1))
      echo "UNEXPECTED PASS:  $program ($variant) compiles: remove it from known-failures.txt"
    elif [ -n "$known" ]; then
      passed=$((passed + 1)); echo "known failure:    $program ($variant) $outcome: ${known#* * }"
    else
      failed=$((failed + 1))
      echo "FAILED:           $program ($variant) $outcome (log: $dir/bin/$program.$variant.compile.log)"
      [ -e "$dir/bin/$program.$variant.compile.log" ] && head -5 "$dir/bin/$program.$variant.compile.log"
    fi
  done <<<"$results"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# Builds every program of every variant into <dir>/bin/<program>.<build>;
# prints `BUILD FAILED: <program>.<build>` for each that does not build.
build() {
  local dir bin
  dir=$(absolute "${1:-$here/out}") bin=$(absolute "${1:-$here/out}")/bin
  mkdir -p "$bin"
  local b p jobs=()
  for b in "${builds[@]}"; do
    local name base defs
    IFS=: read -r name base defs <<<"$b"
    for p in $(programs); do
      local work=$dir/$base/$p
      [ -d "$work" ] && [ ! -e "$work/TRANSFORM_FAILED" ] || continue
      jobs+=("$p.$name|$work|${defs//,/ }")
    done
  done
  local j
  for j in "${jobs[@]}"; do echo "$j"; done |
    xargs -P "$(nproc)" -I{} -d '\n' bash -c '
      IFS="|" read -r exe work defs <<<"$1"
      cd "$work" &&
      "$2" -O3 -arch=sm_90 -rdc=true -std=c++17 $defs -o "$3/$exe" $(ls ./*.cu) -lcudadevrt \
        >"$3/$exe.build.log" 2>&1 || echo "BUILD FAILED: $exe (log: $3/$exe.build.log)"' _ {} "$nvcc" "$bin"
}

run() {
  local dir
  dir=$(absolute "${1:-$here/out}")
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU on this machine: corpus differential run skipped"
    return 0
  fi
  echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "nvcc: $("$nvcc" --version | tail -1)"
  build "$dir"
  local bin=$dir/bin passed=0 failed=0 p b
  "$nvcc" -O2 -o "$bin/compare_outputs" "$root/test/gpu/compare_outputs.cpp"
  for p in $(programs); do
    local seed=${SEED:-$(($(date +%s%N) % 1000000007))}
    echo "# $p: seed $seed"
    for b in "${builds[@]}"; do
      local name=${b%%:*} exe=$bin/$p.${b%%:*} verdict line rc
      if [ ! -x "$exe" ]; then
        local base=${b#*:}
        verdict="FAILED to build (log: $exe.build.log)"
        [ -e "$dir/${base%%:*}/$p/TRANSFORM_FAILED" ] && verdict="FAILED to transform"
      elif line=$(timeout "${RUN_TIMEOUT:-60}" "$exe" "$seed" "$exe.out" 2>&1) && rc=0 || rc=$?
           [ "$rc" -eq 124 ]; then
        verdict="FAILED: hung, stopped after ${RUN_TIMEOUT:-60} s"
      elif [ "$rc" -ne 0 ]; then
        verdict="FAILED to run (exit $rc): $(echo $line | cut -c1-200)"
      elif [ "$name" = original ]; then
        verdict="reference: $line"
      else
        verdict=$("$bin/compare_outputs" "$bin/$p.original.out" "$exe.out") || verdict="FAILED: $verdict"
      fi
      case "$verdict" in
        FAILED*) failed=$((failed + 1)) ;;
        *) passed=$((passed + 1)) ;;
      esac
      printf '%-18s %-10s %s\n' "$p" "$name" "$verdict"
    done
  done
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# Adds up summaries printed by `launchopt --list-launches --summary` (text):
# sites, per-pass counts and refusals by reason, in the order launchopt uses
# (most frequent first, then by text).
add_summaries() {
  awk '
    /^device-side launch sites: / { sites += $4; files += $6; hosts += substr($8, 2) }
    /^  --.*: [0-9]+ of [0-9]+ transformable$/ {
      pass = $1; sub(/:$/, "", pass)
      if (!(pass in transformable)) order[++passes] = pass
      transformable[pass] += $2
    }
    /^  any pass: / { any += $3 }
    /^not counted: / { notcounted = notcounted $0 "\n" }
    /^refusals of / { refused = $3; sub(/:$/, "", refused) }
    /^  [0-9]+  / { count = $1; reason = $0; sub(/^  [0-9]+  /, "", reason)
                    if (!((refused, reason) in refusals)) reasons[refused] = reasons[refused] reason "\n"
                    refusals[refused, reason] += count }
    END {
      printf "device-side launch sites: %d in %d file(s) (%d host-side not counted)\n", sites, files, hosts
      for (p = 1; p <= passes; p++)
        printf "  %s: %d of %d transformable\n", order[p], transformable[order[p]], sites
      printf "  any pass: %d of %d\n", any, sites
      printf "%s", notcounted
      for (p = 1; p <= passes; p++) {
        if (reasons[order[p]] == "") continue
        print "refusals of " order[p] ":"
        n = split(reasons[order[p]], list, "\n")
        sort = "LC_ALL=C sort -t \"\t\" -k1,1nr -k2"
        for (r = 1; r < n; r++) print refusals[order[p], list[r]] "\t" list[r] | sort
        close(sort)
      }
    }' | sed 's/^\([0-9][0-9]*\)\t/  \1  /'
}

# The corpus's programs are separate programs (each has its main, and names
# such as a kernel's repeat between them), so launchopt reads each alone, its
# files as one program; the corpus line is the sum of the programs' lines.
summary() {
  local launchopt p status=0 all=""
  launchopt=$(absolute "${1:-$root/build/tools/launchopt/launchopt}")
  cd "$here"
  for p in $(programs); do
    all+="== $p: $(sources "$p" | paste -sd' ')"$'\n'
    all+="$(cd "$p" && "$launchopt" --list-launches --summary $(sources .))"$'\n' || status=1
  done
  echo "== the corpus: $(programs | paste -sd' ') (the sum of the programs below)"
  grep -v '^== ' <<<"$all" | add_summaries
  printf '%s' "$all"
  return $status
}

case "${1:-all}" in
  transform) shift; transform "$@" ;;
  compile) shift; compile "$@" ;;
  check)
    shift
    command -v "$nvcc" >/dev/null || { echo "nvcc not found: corpus compile check skipped"; exit 77; }
    # Every variant is transformed; the variants compiled are those whose code
    # the others' is made of (T, C, A-block and S are parts of TCA-block and
    # S-TCA), unless CORPUS_COMPILE_ALL=1: two cores' CI time is bounded.
    [ "${CORPUS_COMPILE_ALL:-0}" = 1 ] ||
      export COMPILE_VARIANTS=${COMPILE_VARIANTS:-"TCA-block A-warp A-grid A-threads A-host R-auto S-TCA auto"}
    transform "$@" && compile "${2:-$here/out}" ;;
  build) shift; build "$@" ;;
  run) shift; run "$@" ;;
  summary) shift; summary "$@" ;;
  all) transform; run ;;
  *) echo "usage: $0 [transform [launchopt] [dir] | check [launchopt] [dir] | compile [dir] | build [dir] | run [dir] | summary [launchopt]]" >&2
     exit 2 ;;
esac

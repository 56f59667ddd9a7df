#!/usr/bin/env bash
# Differential test of the passes on random dynamic-parallelism programs
# (tools/launchopt-dpgen): every program is transformed by every pass variant,
# original and outputs are built and run, and their checksums compared.
#
#   test/random/run.sh generate [dir]             BATCHES files of PER_BATCH programs from SEED
#   test/random/run.sh transform [launchopt] [dir] every variant of every file (needs launchopt)
#   test/random/run.sh compile [dir]               nvcc every file, in parallel (no GPU needed)
#   test/random/run.sh pack [dir]                  dir.tar.gz: the sources the run needs, to carry
#   test/random/run.sh run [dir | dir.tar.gz]      compile, run, compare (needs a GPU); log in dir/run.log
#                                                  (and in $OUT when set, where crashes.txt names
#                                                  each crash or timeout as it happens)
#
# Many programs share one file and one process, since nvcc's time per file
# dominates: the binary runs programs FIRST..LAST and prints a checksum line each.
# A refusal of a pass is fine; a crash of launchopt, a compile error of an output,
# a crash or timeout of a run (RUN_TIMEOUT s per process) or a checksum other
# than the original's is a failure. A mismatch is re-run with the original built
# at -O0 and -O3: if those two differ, the toolchain or the program is to blame.
# The GPU machine may lack Clang: generate and transform here, carry dir (default
# test/random/out, ignored by git) and run there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SEED=${SEED:-1}
BATCHES=${BATCHES:-30}
PER_BATCH=${PER_BATCH:-50}
JOBS=${JOBS:-$(nproc)}
# name:launchopt flags (commas for spaces)
variants=(${VARIANTS:-T:--threshold C:--coarsen A-warp:--aggregate=warp A-block:--aggregate=block
          A-multiblock:--aggregate=multiblock:8 A-grid:--aggregate=grid
          TCA:--threshold,--coarsen,--aggregate=block A-threads:--aggregate=threads
          TCA-threads:--threshold,--coarsen,--aggregate=threads A-host:--aggregate=host
          TCA-host:--threshold,--coarsen,--aggregate=host R-T3:--remove-launches=T3
          R-T4:--remove-launches=T4 R-T1:--remove-launches=T1 R-T2:--remove-launches=T2
          R-auto:--remove-launches S:--spawn S-TCA:--threshold,--spawn,--coarsen,--aggregate=block
          auto:--auto})
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
nvcc_flags=(-arch=sm_90 -rdc=true -std=c++17 -w)

# The files of programs; RUN_BATCHES=N keeps the first N (a shorter GPU call).
batches() { ls "$1" | grep -E '^b[0-9]+\.cu$' | sed 's/\.cu$//' | sort | head -n "${RUN_BATCHES:-100000}"; }

generate() {
  local dir=${1:-$here/out} dpgen=${DPGEN:-$root/build/tools/launchopt-dpgen/launchopt-dpgen}
  mkdir -p "$dir"
  for ((b = 0; b < BATCHES; b++)); do
    "$dpgen" --seed=$((SEED + b * PER_BATCH)) --count="$PER_BATCH" -o "$(printf '%s/b%03d.cu' "$dir" "$b")"
  done
  echo "generated $((BATCHES * PER_BATCH)) programs (seeds $SEED..$((SEED + BATCHES * PER_BATCH - 1))) in $BATCHES files"
}

# One variant of one file; on a failure, each of the file's programs alone, to name the culprits.
transform_one() {
  local launchopt=$1 dir=$2 b=$3 v=$4 name=${4%%:*} flags=${4#*:} rc=0
  "$launchopt" ${flags//,/ } "$dir/$b.cu" -o "$dir/$b.$name.cu" --report="$dir/$b.$name.report.txt" \
    --quiet 2>"$dir/$b.$name.stderr" || rc=$?
  [ "$rc" -eq 0 ] && return 0
  local seeds=$(grep -o '^    {[0-9]*ull' "$dir/$b.cu" | grep -o '[0-9]*' | tr '\n' ' ')
  local dpgen=${DPGEN:-$root/build/tools/launchopt-dpgen/launchopt-dpgen} s
  for s in $seeds; do
    local single="$dir/single-$s.cu" src=0
    "$dpgen" --seed="$s" -o "$single"
    "$launchopt" ${flags//,/ } "$single" -o "$single.$name.cu" --quiet 2>"$single.$name.stderr" || src=$?
    if [ "$src" -ne 0 ]; then
      echo "TRANSFORM FAILED: seed $s variant $name (launchopt ${flags//,/ }, exit $src): $(grep -m1 -E 'error|Assertion|Stack dump|Segmentation' "$single.$name.stderr" || tail -1 "$single.$name.stderr")"
    else
      rm -f "$single" "$single.$name.cu" "$single.$name.stderr"
    fi
  done
  echo "TRANSFORM FAILED: $b variant $name (exit $rc)"
}
export -f transform_one

transform() {
  local launchopt=${1:-$root/build/tools/launchopt/launchopt} dir=${2:-$here/out}
  local failures=0
  for b in $(batches "$dir"); do
    for v in "${variants[@]}"; do echo "$b $v"; done
  done | DPGEN="${DPGEN:-$root/build/tools/launchopt-dpgen/launchopt-dpgen}" xargs -P "$JOBS" -L1 bash -c 'transform_one "$0" "$1" "$2" "$3"' "$launchopt" "$dir" \
    | tee "$dir/transform-failures.txt"
  failures=$(grep -c '^TRANSFORM FAILED: b' "$dir/transform-failures.txt" || true)
  local applied=$(cat "$dir"/*.report.txt 2>/dev/null | grep -c ': applied' || true)
  local refused=$(cat "$dir"/*.report.txt 2>/dev/null | grep -c 'not [a-z]*:' || true)
  echo "transformed $(batches "$dir" | wc -l) files x ${#variants[@]} variants: $applied sites applied, $refused refused, $failures failed run(s) of launchopt"
  [ "$failures" -eq 0 ]
}

# The builds: original and each variant's output, at -O3.
builds() {
  local dir=$1
  for b in $(batches "$dir"); do
    echo "$b.orig $dir/$b.cu -O3"
    for v in "${variants[@]}"; do
      local name=${v%%:*}
      if [ -f "$dir/$b.$name.cu" ]; then echo "$b.$name $dir/$b.$name.cu -O3"; fi
    done
  done
}

compile_one() { # name source optimization; NVCC, NVCC_FLAGS and BIN from the environment
  # A binary newer than its source is kept: a compile cut short by a time limit goes on
  # where it stopped in the next call.
  [ "$BIN/$1" -nt "$2" ] && return 0
  # Built under another name and renamed: a compile that is killed leaves no binary.
  # Each finished build's seconds go to build-times.txt, to size the next run's files.
  local start=$SECONDS
  if $NVCC $NVCC_FLAGS $3 -o "$BIN/$1.part" "$2" -lcudadevrt >"$BIN/$1.log" 2>&1; then
    mv "$BIN/$1.part" "$BIN/$1"
    echo "$1 $((SECONDS - start))" >>"$BIN/build-times.txt"
  else
    echo "COMPILE FAILED: $1 ($BIN/$1.log)"
  fi
}
export -f compile_one

compile_list() { # dir, then lines "name source optimization" on standard input
  mkdir -p "$1/bin"
  NVCC=$nvcc NVCC_FLAGS="${nvcc_flags[*]} ${COMPILE_FLAGS:-}" BIN="$1/bin" \
    xargs -P "$JOBS" -L1 bash -c 'compile_one "$0" "$1" "$2"'
}

compile() {
  local dir=${1:-$here/out} start=$(date +%s)
  builds "$dir" | compile_list "$dir" | tee "$dir/compile-failures.txt"
  local failures=$(grep -c 'COMPILE FAILED' "$dir/compile-failures.txt" || true)
  echo "compiled $(builds "$dir" | wc -l) files in $(($(date +%s) - start)) s with $JOBS jobs: $failures failed"
  [ -f "$dir/bin/build-times.txt" ] &&
    echo "slowest builds (s): $(sort -k2 -n -r "$dir/bin/build-times.txt" | head -5 | paste -sd' ')"
  [ "$failures" -eq 0 ]
}

# Appends each line to $1, and with the time it came to $1.times (which
# programs took long, for the next run's limits).
stamp_lines() {
  local line
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$1"
    printf '%s %s\n' "$EPOCHREALTIME" "$line" >>"$1.times"
  done
}
export -f stamp_lines

# Runs a binary over all its programs; a crash or timeout fails the program it
# stopped at, and the run goes on from the next one in a new process.
run_binary() { # binary output first last
  local bin=$1 out=$2 first=$3 last=$4 rc
  : >"$out"
  : >"$out.times"
  while [ "$first" -le "$last" ]; do
    rc=0
    echo "$EPOCHREALTIME start $first" >>"$out.times"
    # The status goes through a file: callers run with and without set -e and pipefail.
    { timeout "${RUN_TIMEOUT:-20}" "$bin" "$first" "$last" 2>/dev/null && echo 0 >"$out.rc" || echo $? >"$out.rc"; } |
      stamp_lines "$out"
    rc=$(cat "$out.rc")
    rm -f "$out.rc"
    local done_up_to=$(grep -o '^program [0-9]* seed [0-9]* checksum' "$out" | awk '{print $2}' | tail -1)
    # Lines of an earlier process count only up to where this one started:
    # one that timed out before printing failed at its first program.
    [ -n "$done_up_to" ] && [ "$done_up_to" -ge "$first" ] || done_up_to=$((first - 1))
    [ "$rc" -eq 0 ] && break
    local failed=$((done_up_to + 1))
    local why="exit $rc"
    [ "$rc" -eq 124 ] && why="timeout after ${RUN_TIMEOUT:-20} s"
    grep -q "^program $failed " "$out" || echo "program $failed seed ? crashed: $why" >>"$out"
    # At once, where the caller will see it even if its own time limit cuts the run.
    if [ -n "${CRASH_LOG:-}" ]; then echo "$(basename "$bin") program $failed: $why" >>"$CRASH_LOG"; fi
    first=$((failed + 1))
    [ "$rc" -eq 124 ] || [ "$rc" -ge 128 ] || [ "$rc" -eq 1 ] || break
  done
}
export -f run_binary

checksum_of() { # results-file program -> checksum or the failure text
  awk -v p="$2" '$1 == "program" && $2 == p { if ($5 == "checksum") print $6 (($8 + 0) > 0 ? " launch_errors" : ""); else { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print "FAILED: " $0 } }' "$1"
}

pack() {
  local dir=${1:-$here/out}
  tar -C "$(dirname "$dir")" -czf "$dir.tar.gz" $(cd "$(dirname "$dir")" && ls "$(basename "$dir")"/b[0-9]*.cu)
  echo "packed $(ls "$dir"/b[0-9]*.cu | wc -l) sources into $dir.tar.gz ($(du -h "$dir.tar.gz" | cut -f1))"
}

run() {
  local dir=${1:-$here/out}
  if [[ "$dir" == *.tar.gz ]]; then
    tar -C "$(dirname "$dir")" -xzf "$dir" --skip-old-files   # keeps the binaries of an earlier call current
    dir=${dir%.tar.gz}
  fi
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU on this machine: random differential test skipped"
    return 0
  fi
  local log="$dir/run.log" res="$dir/results"
  mkdir -p "$res"
  export CRASH_LOG=${CRASH_LOG:-${OUT:+$OUT/crashes.txt}}
  {
    echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
    echo "nvcc: $("$nvcc" --version | tail -1)"
    local start=$(date +%s)
    compile "$dir" || true
    echo "compile step: $(($(date +%s) - start)) s"
    start=$(date +%s)
    for name in $(builds "$dir" | awk '{print $1}'); do
      local count=$(grep -c '^    {[0-9]*ull' "$dir/${name%%.*}.cu")
      # Results of this binary that reach the last program are kept: a call cut
      # short by its time limit goes on with the binaries it did not finish.
      if [ -x "$dir/bin/$name" ] && ! { [ "$res/$name.txt" -nt "$dir/bin/$name" ] &&
        grep -q "^program $((count - 1)) " "$res/$name.txt"; }; then
        echo "$dir/bin/$name $res/$name.txt 0 $((count - 1))"
      fi
    done | xargs -P "${RUN_JOBS:-4}" -L1 bash -c 'RUN_TIMEOUT='"${RUN_TIMEOUT:-20}"' run_binary "$0" "$1" "$2" "$3"'
    echo "run step: $(($(date +%s) - start)) s"
    local executions=0 equal=0 inconclusive=0 failures=0
    local -a mismatches=()
    for b in $(batches "$dir"); do
      local count=$(grep -c '^    {[0-9]*ull' "$dir/$b.cu")
      for ((p = 0; p < count; p++)); do
        local seed=$(grep '^    {[0-9]*ull' "$dir/$b.cu" | sed -n "$((p + 1))p" | grep -o '[0-9]*' | head -1)
        local orig=$(checksum_of "$res/$b.orig.txt" "$p" 2>/dev/null)
        executions=$((executions + 1))
        for v in "${variants[@]}"; do
          local name=${v%%:*} got
          if [ ! -x "$dir/bin/$b.$name" ]; then
            got="FAILED to transform or build"
          else
            executions=$((executions + 1))
            got=$(checksum_of "$res/$b.$name.txt" "$p" 2>/dev/null)
            [ -n "$got" ] || got="FAILED: no output"
          fi
          if [ -z "$orig" ] || [[ "$orig" == FAILED* ]] || [[ "$orig" == *launch_errors ]]; then
            inconclusive=$((inconclusive + 1))
            echo "INCONCLUSIVE seed $seed $name: original ${orig:-gave no output}"
          elif [ "$got" = "$orig" ]; then
            equal=$((equal + 1))
          else
            failures=$((failures + 1))
            echo "FAILURE seed $seed $name: $got, original $orig"
            if [ -x "$dir/bin/$b.$name" ]; then mismatches+=("$b $p $seed $name"); fi
          fi
        done
      done
    done
    if [ "${#mismatches[@]}" -gt 0 ]; then
      echo "# mismatches again, with the original at -O0 and -O3"
      # At the levels named, whatever COMPILE_FLAGS the run was built with.
      for b in $(printf '%s\n' "${mismatches[@]}" | awk '{print $1}' | sort -u); do
        echo "$b.orig-O0 $dir/$b.cu -O0,-Xcicc,-O0,-Xptxas,-O0"
        echo "$b.orig-O3 $dir/$b.cu -O3,-Xcicc,-O3,-Xptxas,-O3"
      done | sed 's/,/ /g' | COMPILE_FLAGS= compile_list "$dir"
      for m in "${mismatches[@]}"; do
        read -r b p seed name <<<"$m"
        run_binary "$dir/bin/$b.orig-O0" "$res/$b.orig-O0.$p.txt" "$p" "$p"
        run_binary "$dir/bin/$b.orig-O3" "$res/$b.orig-O3.$p.txt" "$p" "$p"
        run_binary "$dir/bin/$b.$name" "$res/$b.$name.$p.again.txt" "$p" "$p"
        local o0=$(checksum_of "$res/$b.orig-O0.$p.txt" "$p") o3=$(checksum_of "$res/$b.orig-O3.$p.txt" "$p")
        local again=$(checksum_of "$res/$b.$name.$p.again.txt" "$p") verdict
        if [ "$o0" != "$o3" ]; then verdict="toolchain or program: the original gives $o0 at -O0, $o3 at -O3"
        elif [ "$again" = "$o3" ]; then verdict="not reproduced alone (variant now $again)"
        else verdict="launchopt: original $o3 at -O0 and -O3, variant $again"; fi
        echo "MISMATCH seed $seed $name: $verdict"
      done
    fi
    echo "programs: $(for b in $(batches "$dir"); do cat "$dir/$b.cu"; done | grep -c '^    {[0-9]*ull'), variants: ${#variants[@]} + original"
    echo "executions: $executions (program x build run, original included), equal: $equal, failures: $failures, inconclusive: $inconclusive"
  } 2>&1 | tee "$log"
  if [ -n "${OUT:-}" ]; then cp -r "$log" "$dir"/*-failures.txt "$res" "$OUT/" 2>/dev/null || true; fi
  ! grep -q '^FAILURE' "$log"
}

case "${1:-}" in
  generate) shift; generate "$@" ;;
  transform) shift; transform "$@" ;;
  compile) shift; compile "$@" ;;
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 generate [dir] | transform [launchopt] [dir] | compile [dir] | pack [dir] | run [dir | dir.tar.gz]" >&2; exit 2 ;;
esac

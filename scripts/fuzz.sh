#!/usr/bin/env bash
# Fuzzes launchopt's parse -> analysis -> every pass path (tools/launchopt-fuzz)
# with libFuzzer, AddressSanitizer and UBSan for the given time.
#   scripts/fuzz.sh [seconds]      default 600
# Builds into build-asan (BUILD_ASAN=<dir> to change) with clang++-19 (CLANG=...).
# The seeds are the golden inputs (test/lit/**/*.cu) and a few programs of
# launchopt-dpgen; mutations also insert the CUDA tokens of
# tools/launchopt-fuzz/cuda.dict. The corpus grows in fuzz-out/corpus (kept
# between runs), crashes (the inputs that caused them) go to fuzz-out/crashes,
# the log to fuzz-out/fuzz.log.
# Reproduce one crash: build-asan/tools/launchopt-fuzz/launchopt-fuzz <crash file>
# Exits 0 without a crash, 1 with one, 77 where clang 19's runtimes are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
out=${FUZZ_OUT:-fuzz-out}
source scripts/sanitizer-build.sh
sanitizer_build launchopt-fuzz launchopt-dpgen

mkdir -p "$out/corpus" "$out/crashes" "$out/seeds"
find test/lit -name '*.cu' -not -path '*/Inputs/*' -exec cp {} "$out/seeds/" \;
# Generated programs one by one (a file of several is too large to mutate well).
for seed in 1 2 3 4 5 6; do
  "$build/tools/launchopt-dpgen/launchopt-dpgen" --seed=$seed -o "$out/seeds/dpgen-$seed.cu"
done
echo "fuzz: $(ls "$out/seeds" | wc -l) seeds, $seconds s; log in $out/fuzz.log"
# Leaks: clang's ASTUnit keeps allocations to the end on purpose; the fuzzer
# looks for memory errors and undefined behaviour. stdout and stderr of the
# target (clang's diagnostics of broken inputs) are closed; reports still
# reach the log.
status=0
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-} \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1:${UBSAN_OPTIONS:-} \
  "$build/tools/launchopt-fuzz/launchopt-fuzz" "$out/corpus" "$out/seeds" \
    -max_total_time="$seconds" -timeout=120 -rss_limit_mb=6144 -max_len=65536 \
    -dict=tools/launchopt-fuzz/cuda.dict -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$out/crashes/" \
    > "$out/fuzz.log" 2>&1 || status=$?
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$out/fuzz.log" || true
crashes=$(ls "$out/crashes" | wc -l)
echo "fuzz: $crashes crash input(s) in $out/crashes (exit $status)"
[ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]

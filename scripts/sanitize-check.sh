#!/usr/bin/env bash
# Builds launchopt with AddressSanitizer and UBSan (clang 19) into build-asan
# and runs the golden lit tests (test/lit) with it: a memory error or undefined
# behaviour on any golden input fails its test.
#   scripts/sanitize-check.sh [ctest regex]    default 'lit/'
# BUILD_ASAN=<dir> and CLANG=<clang++> change the build; JOBS the parallelism.
# Exits 77 where clang 19's sanitizer runtimes are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-build.sh
sanitizer_build launchopt launchopt-tune
# Leaks are not looked for: clang's ASTUnit keeps allocations to the end on purpose.
cd "$build"
# The outputs' nvcc compiles are checked by the plain lit run, not here.
LAUNCHOPT_LIT_SKIP_NVCC=1 \
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-} \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1:${UBSAN_OPTIONS:-} \
  ctest -R "${1:-lit/}" -j "${JOBS:-$(nproc)}" --output-on-failure

# Sourced by scripts/fuzz.sh and scripts/sanitize-check.sh: configures and
# builds launchopt with clang 19, AddressSanitizer and UBSan in $build
# (default build-asan) for the targets given, or exits 77 (skipped) where
# clang 19's sanitizer or libFuzzer runtimes are missing.
#   sanitizer_build <target>...
clang=${CLANG:-clang++-19}
build=${BUILD_ASAN:-build-asan}
runtimes=/usr/lib/llvm-19/lib/clang/19/lib/linux

sanitizer_build() {
  if ! command -v "$clang" > /dev/null; then
    echo "$(basename "$0"): skipped: $clang not found (scripts/install-deps.sh installs clang-19)" >&2
    exit 77
  fi
  local lib
  for lib in asan ubsan_standalone fuzzer_no_main; do
    if ! ls "$runtimes"/libclang_rt.$lib-x86_64.a > /dev/null 2>&1; then
      echo "$(basename "$0"): skipped: clang 19's $lib runtime is missing from $runtimes" \
           "(Debian: apt-get install libclang-rt-19-dev)" >&2
      exit 77
    fi
  done
  local launcher=()
  command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # -O1 with line tables: readable reports, and half the compile time of -O2 -g.
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$clang" \
        "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only -DNDEBUG" "${launcher[@]}" \
        -DLAUNCHOPT_SANITIZE=ON -DLAUNCHOPT_FUZZ=ON > "$build.cmake.log" 2>&1 \
    || { cat "$build.cmake.log"; exit 1; }
  cmake --build "$build" -j "${JOBS:-$(nproc)}" --target "$@"
}

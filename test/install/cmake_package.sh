#!/usr/bin/env bash
# find_package(launchopt) from a user's project: the build is installed into
# a temporary prefix, test/install/project is configured against it (no path
# of this tree), built, and its transformed source checked: a build product,
# compiled with the DEFINES, made again when the source changes. On a
# machine with a GPU the program runs too.
#
#   cmake_package.sh BUILD_DIR SOURCE_DIR NVCC
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) nvcc=$3
if [ ! -x "$nvcc" ]; then
  echo "nvcc not found at '$nvcc': the CMake package test needs CUDA, skipped"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/launchopt-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"${CMAKE:-cmake}" --install "$build" --prefix "$work/prefix" > "$work/install.log"
cp -r "$src/test/install/project" "$work/project"
cd "$work"
"${CMAKE:-cmake}" -S project -B consumer -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > configure.log ||
  { cat configure.log; fail "configuring the project"; }
"${CMAKE:-cmake}" --build consumer -j 2 > build.log 2>&1 || { cat build.log; fail "building the project"; }

output=consumer/launchopt/children/children.cu
[ -f "$output" ] || fail "no transformed source at $output"
[ -f consumer/launchopt/children/children.report.txt ] || fail "no report beside $output"
grep -q 'LAUNCHOPT_THRESHOLD' "$output" || fail "$output is not thresholded"
grep -q -- '-DLAUNCHOPT_THRESHOLD=128' consumer/compile_commands.json ||
  fail "the transformed source is not compiled with its DEFINES"
echo "built with the transformed source $output"

touch -d '1 minute ago' "$output"
touch project/children.cu
"${CMAKE:-cmake}" --build consumer -j 2 > rebuild.log 2>&1 || { cat rebuild.log; fail "rebuilding"; }
[ "$output" -nt project/children.cu ] || fail "a changed source is not transformed again"
echo "a changed source is transformed again"

if nvidia-smi -L > /dev/null 2>&1; then
  [ "$(consumer/children)" = ok ] || fail "the program's output"
  echo "ran on the GPU: ok"
fi

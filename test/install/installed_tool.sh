#!/usr/bin/env bash
# The installed tool on its own. The build is installed into a temporary
# prefix, which is then moved, and the tool runs from a directory outside the
# source and build trees: every pass on examples/bfs_cdp.cu and fusion on
# fuse_small.cu, each output the same as the build tree's tool writes and
# compiled by nvcc. Then the tool must name the prefix's paths when a file of
# it is missing (an installed tool never falls back on the source tree), and
# LAUNCHOPT_RESOURCE_DIR must point it to another prefix.
#
#   installed_tool.sh BUILD_DIR SOURCE_DIR NVCC
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) nvcc=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/launchopt-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"${CMAKE:-cmake}" --install "$build" --prefix "$work/staged" > "$work/install.log"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
for f in bin/launchopt bin/launchopt-tune include/launchopt/aggregation.cuh \
         include/launchopt/allocation.cuh include/launchopt/renaming.cuh \
         share/launchopt/compat/texture_fetch_functions.h share/launchopt/gpus/h100.json \
         lib/cmake/launchopt/launchoptConfig.cmake lib/cmake/launchopt/launchoptConfigVersion.cmake \
         lib/cmake/launchopt/launchoptTransform.cmake; do
  [ -f "$prefix/$f" ] || fail "the installation lacks $f"
done
echo "installed into a prefix, moved to $prefix"

mkdir "$work/run"
cd "$work/run"
cp "$src/examples/bfs_cdp.cu" "$src/test/install/fuse_small.cu" .
unset LAUNCHOPT_RESOURCE_DIR
installed=$prefix/bin/launchopt
built=$build/tools/launchopt/launchopt

if [ -x "$nvcc" ]; then
  compile() { "$nvcc" -arch=sm_90 -rdc=true "$1" -o "${1%.cu}" -lcudadevrt || fail "nvcc rejects $1"; }
else
  echo "nvcc not found at '$nvcc': the outputs are not compiled"
  compile() { :; }
fi

# name:launchopt options (commas for spaces)
variants=(threshold:--threshold coarsen:--coarsen warp:--aggregate=warp block:--aggregate=block
          multiblock:--aggregate=multiblock:8 grid:--aggregate=grid
          tca:--threshold,--coarsen,--aggregate=grid
          include-runtime:--aggregate=block,--include-runtime)
for v in "${variants[@]}"; do
  name=${v%%:*} options=${v#*:}
  "$installed" ${options//,/ } bfs_cdp.cu -o "bfs.$name.cu" --quiet || fail "launchopt ${options//,/ }"
  "$built" ${options//,/ } bfs_cdp.cu -o "reference.$name.cu" --quiet
  cmp -s "bfs.$name.cu" "reference.$name.cu" ||
    fail "launchopt ${options//,/ }: the installed tool's output differs from the build tree's"
  if [ "$name" = include-runtime ]; then
    grep -q '^#include <launchopt/aggregation.cuh>' "bfs.$name.cu" || fail "--include-runtime"
    if [ -x "$nvcc" ]; then
      "$nvcc" -arch=sm_90 -rdc=true -I"$prefix/include" "bfs.$name.cu" -o "bfs.$name" -lcudadevrt ||
        fail "nvcc rejects bfs.$name.cu"
    fi
  else
    compile "bfs.$name.cu"
  fi
  echo "launchopt ${options//,/ }: ok"
done
"$installed" fuse fuse_small.cu -o fused.cu --quiet || fail "launchopt fuse"
"$built" fuse fuse_small.cu -o reference.fused.cu --quiet
cmp -s fused.cu reference.fused.cu || fail "launchopt fuse: the installed tool's output differs"
grep -q '__lo_fused_0' fused.cu || fail "launchopt fuse fused nothing"
compile fused.cu
echo "launchopt fuse: ok"

# Each resource missing from the installation: the error names the
# installation's path, and LAUNCHOPT_RESOURCE_DIR names a complete copy.
cp -r "$prefix" "$work/copy"
expect_error() { # expected-path command...
  local expected=$1; shift
  if "$@" > /dev/null 2> err.txt; then fail "$* succeeded without $expected"; fi
  grep -qF "$expected" err.txt || { cat err.txt >&2; fail "$* does not name $expected"; }
  LAUNCHOPT_RESOURCE_DIR=$work/copy "$@" > /dev/null 2>&1 ||
    fail "$* fails with LAUNCHOPT_RESOURCE_DIR=$work/copy"
}
rm "$prefix/share/launchopt/gpus/h100.json"
expect_error "$prefix/share/launchopt/gpus/h100.json" "$installed" fuse fuse_small.cu -o x.cu --quiet
rm "$prefix/include/launchopt/aggregation.cuh"
expect_error "$prefix/include/launchopt/aggregation.cuh" \
             "$installed" --aggregate=grid bfs_cdp.cu -o x.cu --quiet
rm -r "$prefix/share/launchopt/compat"
expect_error "$prefix/share/launchopt/compat" "$installed" --threshold bfs_cdp.cu -o x.cu --quiet
echo "missing resources: named under the prefix; LAUNCHOPT_RESOURCE_DIR: ok"

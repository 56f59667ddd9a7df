#!/usr/bin/env bash
# `cpack -G DEB`: the package holds the installed tree under /usr, the tool
# unpacked from it transforms a file, and its Depends names the Debian
# packages that own the Clang and LLVM libraries it links and Clang's CUDA
# wrapper headers it parses with.
#
#   deb_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
for tool in dpkg-deb dpkg-query; do
  command -v $tool > /dev/null || { echo "no $tool: the Debian package test is skipped"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/launchopt-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"${CPACK:-cpack}" -G DEB --config "$build/CPackConfig.cmake" -B "$work" > "$work/cpack.log" ||
  { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/launchopt_*.deb)
echo "made $(basename "$deb")"
dpkg-deb -c "$deb" > "$work/contents.txt"
for f in usr/bin/launchopt usr/bin/launchopt-tune usr/include/launchopt/aggregation.cuh \
         usr/share/launchopt/compat/texture_fetch_functions.h usr/share/launchopt/gpus/h100.json \
         usr/lib/cmake/launchopt/launchoptConfig.cmake; do
  grep -q " \./$f\$" "$work/contents.txt" || fail "the package lacks /$f"
done

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
owner() { dpkg-query -S "$(realpath "$1")" 2>/dev/null | head -1 | cut -d: -f1; }
launchopt=$build/tools/launchopt/launchopt
for lib in $(ldd "$launchopt" | awk '/lib(clang-cpp|LLVM)/ { print $3 }'); do
  package=$(owner "$lib")
  [ -n "$package" ] || { echo "$lib belongs to no Debian package: not checked"; continue; }
  [[ ", $depends," == *", $package "* || ", $depends," == *", $package,"* ]] ||
    fail "Depends lacks $package, which has $lib"
  echo "Depends has $package ($(basename "$lib"))"
done
wrapper=$(ls /usr/lib/llvm-19/lib/clang/*/include/__clang_cuda_runtime_wrapper.h 2>/dev/null | head -1)
if [ -n "$wrapper" ] && package=$(owner "$wrapper") && [ -n "$package" ]; then
  [[ ", $depends," == *", $package "* ]] || fail "Depends lacks $package, which has $wrapper"
  echo "Depends has $package (Clang's CUDA wrapper headers)"
fi

dpkg-deb -x "$deb" "$work/root"
cd "$work"
"$work/root/usr/bin/launchopt" --aggregate=block "$src/examples/bfs_cdp.cu" -o out.cu --quiet ||
  fail "the packaged tool"
grep -q 'launchopt runtime: launchopt/aggregation.cuh' out.cu || fail "the packaged tool's output"
echo "the packaged tool transforms examples/bfs_cdp.cu"

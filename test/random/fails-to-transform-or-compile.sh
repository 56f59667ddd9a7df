#!/usr/bin/env bash
# An interestingness test for `launchopt-dpgen --reduce --test=...`: exits 0 (the
# failure is still there) when launchopt with FLAGS fails on the candidate, or when
# its output does not compile with nvcc; with PATTERN, only when the message matches.
#   FLAGS=--aggregate=block PATTERN='is undefined' \
#     launchopt-dpgen --reduce --seed=7 --test=test/random/fails-to-transform-or-compile.sh -o r.cu
here=$(cd "$(dirname "$0")" && pwd)
launchopt=${LAUNCHOPT:-$here/../../build/tools/launchopt/launchopt}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
matches() { [ -z "${PATTERN:-}" ] || grep -q -- "$PATTERN" "$tmp/messages"; }
if ! "$launchopt" ${FLAGS:?set FLAGS to launchopt\'s pass flags} "$1" -o "$tmp/out.cu" --quiet 2>"$tmp/messages"; then
  matches && exit 0
  exit 1
fi
if ! "$nvcc" -arch=sm_90 -rdc=true -std=c++17 -w -c "$tmp/out.cu" -o "$tmp/out.o" >"$tmp/messages" 2>&1; then
  matches && exit 0
fi
exit 1

#!/usr/bin/env bash
# Installs the Debian packages launchopt needs, only those that are missing.
set -euo pipefail
packages=(cmake make python3 clang-19 libclang-rt-19-dev clang-format-19 libclang-19-dev llvm-19-dev llvm-19-tools libgtest-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "launchopt: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
if [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  echo "launchopt: warning: no CUDA toolkit at ${CUDA_HOME:-/usr/local/cuda}; nvcc compile checks will be skipped" >&2
fi

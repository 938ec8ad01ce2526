#!/usr/bin/env bash
# Installs everything teg needs to build and test on a fresh Debian 12 machine (run as root).
# Idempotent: packages already present are skipped quickly.
set -euo pipefail

APT_PACKAGES=(
  cmake ninja-build g++ clang ccache
  libcli11-dev nlohmann-json3-dev libfmt-dev libeigen3-dev libtbb-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-pip
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The CUDA toolkit (nvcc, ptxas, cuda_occupancy.h) is optional: teg runs without it, and the
# tests that need it say so and skip. It is not in Debian's or PyPI's registries for CUDA 13.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: note: no CUDA toolkit found (nvcc); compile-based features and oracle tests will be skipped"
fi

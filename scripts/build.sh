#!/usr/bin/env bash
# Configures and builds teg into build/<kind> (kind: release | sanitize). Extra args go to cmake.
set -euo pipefail
kind=${1:-release}; shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
case "$kind" in
  release)  flags=(-DCMAKE_BUILD_TYPE=Release -DTEG_BUILD_BENCH=ON) ;;
  sanitize) flags=(-DCMAKE_BUILD_TYPE=Debug -DTEG_SANITIZE=ON -DTEG_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown kind '$kind' (release | sanitize)" >&2; exit 2 ;;
esac
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$root/build/$kind" -G Ninja "${flags[@]}" "${launcher[@]}" "$@" >/dev/null
cmake --build "$root/build/$kind" -j "$(nproc)"

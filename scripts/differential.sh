#!/usr/bin/env bash
# scripts/differential.sh N [ARCH...] — runs N random kernels per architecture (default: every
# architecture CUDA 13 compiles, sm_75 ... sm_120) on the PTX and the SASS emulator and compares
# their buffers (tests/differential/README.md). Needs nvcc and nvdisasm (scripts/install-deps.sh)
# and a release build (scripts/build.sh release). Reproducers of any difference go to
# build/differential/<arch>/k_<seed>/ (.cu, inputs as .npy, a launch file for `teg run`).
# Environment: SEED (first seed, default 1), BATCH (kernels per nvcc run, default 50), ONE_PTX=1
# (one nvcc run per batch for the oldest architecture, its PTX assembled by ptxas for the others:
# about half the cost per kernel and architecture; reproducers in build/differential/one-ptx/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:?usage: scripts/differential.sh N [ARCH...]}
shift || true
archs=("$@")
[ ${#archs[@]} -eq 0 ] && archs=(sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120)
bin="$root/build/release/tests/differential/teg_differential"
[ -x "$bin" ] || { echo "differential.sh: $bin not built (scripts/build.sh release)" >&2; exit 2; }
[ -d "$root/build/tools" ] && export TEG_TOOLS_DIR=${TEG_TOOLS_DIR:-$root/build/tools}
status=0
if [ "${ONE_PTX:-0}" = 1 ]; then
  out="$root/build/differential/one-ptx"
  mkdir -p "$out"
  arch_args=()
  for arch in "${archs[@]}"; do arch_args+=(--arch "$arch"); done
  "$bin" --count "$count" --batch "${BATCH:-50}" --seed "${SEED:-1}" --one-ptx "${arch_args[@]}" --keep "$out" || status=$?
  exit $status
fi
for arch in "${archs[@]}"; do
  out="$root/build/differential/$arch"
  mkdir -p "$out"
  "$bin" --count "$count" --batch "${BATCH:-50}" --seed "${SEED:-1}" --arch "$arch" --keep "$out" || status=$?
done
exit $status

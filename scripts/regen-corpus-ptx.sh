#!/usr/bin/env bash
# Writes the PTX of every corpus kernel (examples/kernels/*.cu) for one architecture into a
# directory: regen-corpus-ptx.sh OUT_DIR [ARCH]   (ARCH defaults to sm_80)
# Each kernel gives OUT_DIR/<name>.ptx, compiled as teg compiles it (nvcc -ptx -lineinfo).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 OUT_DIR [ARCH]" >&2
  exit 2
fi
out=$1
arch=${2:-sm_80}
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ] && nvcc=$CUDA_HOME/bin/nvcc
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): install the CUDA toolkit" >&2
  exit 1
fi
mkdir -p "$out"
count=0
for cu in "$root"/examples/kernels/*.cu; do
  name=$(basename "$cu" .cu)
  "$nvcc" -ptx -lineinfo -arch="$arch" -o "$out/$name.ptx" "$cu"
  count=$((count + 1))
done
echo "wrote $count PTX files for $arch to $out ($("$nvcc" --version | tail -1))"

#!/usr/bin/env bash
# Regenerates the SASS test inputs in tests/unit/sass/inputs/ (committed, so that the parser
# tests and the fuzzer's seeds need neither nvcc nor nvdisasm):
#   matmul_shared.sm_XY.cubin  for each architecture CUDA 13 compiles (sm_75 ... sm_120), read
#                              by the tests that run nvdisasm (they skip without it)
#   <kernel>.sm_XY.sass        nvdisasm -hex -gi -c text of a few of them
#   dependent_chains.sm_XY.cubin  the dependent chains whose ptxas spacing sources fixed latencies
#                              (tests/unit/sass/ptxas_latency_test.cpp; sm_75 ... sm_110)
# Kernels are compiled as teg compiles them (-cubin -lineinfo), from a copy in a fixed
# directory so that the source paths inside do not name the machine they were made on.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
nvdisasm=${TEG_NVDISASM:-$(command -v nvdisasm || echo "$root/build/tools/cuda/nvidia/cu13/bin/nvdisasm")}
[ -n "$nvcc" ] || { echo "nvcc not found" >&2; exit 1; }
[ -x "$nvdisasm" ] || { echo "nvdisasm not found (bash scripts/install-deps.sh installs it)" >&2; exit 1; }
out="$root/tests/unit/sass/inputs"
work=/tmp/teg-sass-inputs
rm -rf "$work"
mkdir -p "$work" "$out"
cp "$root"/examples/kernels/{matmul_shared,reduce_warp_shuffle,softmax}.cu "$work"/
cd "$work"
for arch in 75 80 86 89 90 100 120; do
  "$nvcc" -cubin -lineinfo -arch=sm_$arch -o "$out/matmul_shared.sm_$arch.cubin" matmul_shared.cu
done
cp "$out/dependent_chains.cu" "$work"/
for arch in 75 80 86 87 89 90 100 103 110; do
  "$nvcc" -cubin -lineinfo -arch=sm_$arch -o "$out/dependent_chains.sm_$arch.cubin" dependent_chains.cu
done
sass() {  # kernel arch
  "$nvcc" -cubin -lineinfo -arch=sm_$2 -o "$work/$1.cubin" "$1.cu"
  "$nvdisasm" -hex -gi -c "$work/$1.cubin" > "$out/$1.sm_$2.sass"
}
sass matmul_shared 80            # the issue's example: 32 ld.shared.f32 in the PTX, LDS.128 in SASS
sass reduce_warp_shuffle 100     # inlined device functions (-gi chains), uniform registers, LDCU
sass softmax 120                 # a subroutine beside the kernel (CALL/RET), MUFU, SHFL
rm -rf "$work"
echo "wrote $(ls "$out" | wc -l) files to $out"

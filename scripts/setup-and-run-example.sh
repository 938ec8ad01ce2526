#!/usr/bin/env bash
# Fresh machine -> installed dependencies, a release build, and teg run on the lecture's example.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
teg="$root/build/release/src/cli/teg"
echo
# MCS 572 lecture 33's register cliff on a Tesla C2050. The lecture puts it at 21 -> 22 registers
# ignoring the allocation unit; with Fermi's per-warp units of 64 registers it falls at 20 -> 21.
echo '$ teg occupancy --gpu c2050 --threads 256 --regs 20 --smem 0'
"$teg" occupancy --gpu c2050 --threads 256 --regs 20 --smem 0
echo
echo '$ teg occupancy --gpu c2050 --threads 256 --regs 21 --smem 0   # one more register costs a block'
"$teg" occupancy --gpu c2050 --threads 256 --regs 21 --smem 0
echo
echo '$ teg predict --launch examples/kernels/matmul_abt_conflict.launch.json --gpu a100 --what-if no-bank-conflicts --no-timeline'
"$teg" predict --launch "$root/examples/kernels/matmul_abt_conflict.launch.json" --gpu a100 --what-if no-bank-conflicts --no-timeline

#!/usr/bin/env bash
# Fresh machine -> installed dependencies, a release build, and teg run on the lecture's example.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
teg="$root/build/release/src/cli/teg"
echo
echo '$ teg occupancy --gpu c2050 --threads 256 --regs 21 --smem 0   # MCS 572 lecture 33: the cliff'
"$teg" occupancy --gpu c2050 --threads 256 --regs 21 --smem 0
echo
echo '$ teg occupancy --gpu c2050 --threads 256 --regs 22 --smem 0'
"$teg" occupancy --gpu c2050 --threads 256 --regs 22 --smem 0
echo
echo '$ teg predict --launch examples/kernels/matmul_abt_conflict.launch.json --gpu a100 --what-if no-bank-conflicts --no-timeline'
"$teg" predict --launch "$root/examples/kernels/matmul_abt_conflict.launch.json" --gpu a100 --what-if no-bank-conflicts --no-timeline

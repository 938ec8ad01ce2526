#!/usr/bin/env bash
# Fetches the two public CUDA code bases the launch files in examples/public/ refer to, at the
# commits docs/public-kernels.md was measured on, into examples/public/src/ (not committed).
# Needs GitHub (CI has none: CI tests only the vendored excerpts under tests/data/public/).
#   scripts/fetch-public-kernels.sh            # clone from GitHub
#   TEG_PUBLIC_GIT_BASE=/path/to/mirrors scripts/fetch-public-kernels.sh   # <base>/<owner>+<name>/repo
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/examples/public/src"
mkdir -p "$dest"

# name  owner/repo  commit
repos=(
  "cuda-samples NVIDIA/cuda-samples c94ff366aed18c797b8a85dfaac7817b0228b420"
  "gpu-rodinia yuhc/gpu-rodinia 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4"
)

for line in "${repos[@]}"; do
  read -r name repo commit <<<"$line"
  if [[ -n "${TEG_PUBLIC_GIT_BASE:-}" ]]; then
    url="$TEG_PUBLIC_GIT_BASE/${repo/\//+}/repo"
  else
    url="https://github.com/$repo.git"
  fi
  if [[ ! -d "$dest/$name/.git" ]]; then
    git clone --quiet --no-checkout "$url" "$dest/$name"
  fi
  git -C "$dest/$name" fetch --quiet origin "$commit" 2>/dev/null || true
  # Only sources, headers and licences: the launch files need nothing else, and the code bases'
  # data files (documents, images, Rodinia's inputs) are large.
  git -C "$dest/$name" sparse-checkout set --no-cone \
    '*.cu' '*.cuh' '*.h' '*.hpp' '*.c' '*.cpp' '*.inc' 'LICENSE*' 'README*' 'Makefile*'
  git -C "$dest/$name" checkout --quiet --force "$commit"
  echo "$name at $(git -C "$dest/$name" rev-parse --short HEAD)"
done

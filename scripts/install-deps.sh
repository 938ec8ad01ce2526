#!/usr/bin/env bash
# Installs everything teg needs to build and test on a fresh Debian 12 machine (run as root).
# Idempotent: packages already present are skipped quickly.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

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

# nvdisasm and cuobjdump (teg's SASS front end reads what nvdisasm prints for the cubin) come with
# a full CUDA toolkit but not with every install; PyPI carries them for CUDA 13. They go into the
# project's own tools directory, build/tools/cuda (teg searches it after $PATH, $CUDA_HOME and
# /usr/local/cuda; TEG_TOOLS_DIR in CMakeLists.txt). Version 13.x reads the cubins of CUDA 13.
tools="$root/build/tools/cuda"
if [ ! -x "$tools/nvidia/cu13/bin/nvdisasm" ] || [ ! -x "$tools/nvidia/cu13/bin/cuobjdump" ]; then
  echo "install-deps: installing nvdisasm and cuobjdump from PyPI into build/tools/cuda"
  if ! python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --upgrade --target "$tools" \
      'nvidia-cuda-nvdisasm>=13,<14' 'nvidia-cuda-cuobjdump>=13,<14'; then
    echo "install-deps: note: could not install nvdisasm from PyPI; SASS features and their tests will be skipped"
  fi
fi

# Volta's SASS (sm_70, sm_72): CUDA 13 no longer compiles or disassembles it, so teg takes the
# kernel's PTX from nvcc 13 and gives it to the ptxas and nvdisasm of CUDA 11.8, which Debian 12
# ships in its non-free component (package nvidia-cuda-toolkit, 11.8.89~11.8.0-5~deb12u1 when this
# was written; Debian's stable release keeps CUDA 11.8 whatever its security updates). Only
# that one .deb is fetched and unpacked into build/tools/cuda11 (its ptxas, nvdisasm and
# cuobjdump need nothing but libc and libstdc++): the machine's apt sources are not changed.
legacy="$root/build/tools/cuda11"
if [ ! -x "$legacy/usr/bin/ptxas" ] || [ ! -x "$legacy/usr/bin/nvdisasm" ]; then
  echo "install-deps: fetching Debian's CUDA 11.8 ptxas and nvdisasm (Volta SASS) into build/tools/cuda11"
  apt_dir=$(mktemp -d)
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  echo "deb http://deb.debian.org/debian bookworm non-free" > "$apt_dir/sources.list"
  apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=/nonexistent"
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "APT::Sandbox::User=root")
  if apt-get "${apt_opts[@]}" update -qq >/dev/null 2>&1 &&
     (cd "$apt_dir" && apt-get "${apt_opts[@]}" download -qq nvidia-cuda-toolkit >/dev/null 2>&1); then
    rm -rf "$legacy.partial" && mkdir -p "$legacy.partial"
    dpkg-deb -x "$apt_dir"/nvidia-cuda-toolkit_*.deb "$legacy.partial"
    # Keep the three tools and their licence; the rest (nvcc without its front end, nsight
    # launchers) teg does not use.
    find "$legacy.partial/usr/bin" -type f ! -name ptxas ! -name nvdisasm ! -name cuobjdump -delete
    rm -rf "$legacy.partial/usr/lib" "$legacy.partial/usr/include" "$legacy.partial/etc"
    rm -rf "$legacy" && mv "$legacy.partial" "$legacy"
  else
    echo "install-deps: note: could not fetch Debian's nvidia-cuda-toolkit 11.8; Volta GPUs are timed on PTX"
  fi
  rm -rf "$apt_dir"
fi

#!/usr/bin/env bash
# Every test: dependencies, a release build + ctest, an ASan/UBSan build + ctest, fuzzers briefly.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)
# Each stage says when it starts (seconds since the script began): CI has a 45-minute budget.
stage() { echo "== [${SECONDS}s] $*"; }

stage "release build and tests"
"$root/scripts/build.sh" release -DTEG_BUILD_BENCH=OFF  # benchmarks are not run here: save their build
ctest --test-dir "$root/build/release" --output-on-failure -j "$jobs"

stage "AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
# The test programs that only hold nvcc- and validation-labelled tests are not built here either.
"$root/scripts/build.sh" sanitize -DTEG_BUILD_NVCC_TESTS=OFF
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build/sanitize" --output-on-failure -j "$jobs" -LE "slow|nvcc|validation"

if [ -x "$root/scripts/fuzz.sh" ]; then
  stage "fuzzing (bounded)"
  "$root/scripts/fuzz.sh" 30
fi
stage "all tests passed"

#!/usr/bin/env bash
# scripts/fuzz.sh SECONDS — builds the libFuzzer targets with clang in build/fuzz and runs each
# for SECONDS / number-of-targets seconds on a copy of its seed corpus (tests/fuzz/corpus/<area>/
# plus, for the PTX and SASS parsers, the unit-test inputs). Fails if a target crashes, leaks, hangs or
# trips a sanitizer; the reproducer is left in build/fuzz/artifacts/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build="$root/build/fuzz"
if ! command -v clang++ > /dev/null; then
  echo "fuzz.sh: clang++ not found (libFuzzer needs clang); install clang" >&2
  exit 1
fi
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)  # as build.sh does
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DTEG_BUILD_FUZZ=ON -DTEG_BUILD_TESTS=OFF -DTEG_BUILD_BENCH=OFF "${launcher[@]}" > /dev/null
targets=()
for src in "$root"/tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$src" .cpp)"); done
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
per=$(( seconds / ${#targets[@]} ))
[ "$per" -lt 1 ] && per=1
mkdir -p "$build/artifacts"
for t in "${targets[@]}"; do
  area=${t#fuzz_}
  area=${area%%_*}
  work="$build/corpus/$t"
  rm -rf "$work"
  mkdir -p "$work"
  [ -d "$root/tests/fuzz/corpus/$area" ] && cp "$root/tests/fuzz/corpus/$area"/* "$work"/
  [ -d "$root/tests/unit/$area/inputs" ] && cp "$root/tests/unit/$area/inputs"/*.{ptx,sass} "$work"/ 2> /dev/null || true
  dict=()
  [ -f "$root/tests/fuzz/$area.dict" ] && dict=(-dict="$root/tests/fuzz/$area.dict")
  echo "== $t: ${per}s on $(ls "$work" | wc -l) seeds"
  # The fuzzer's own exit status decides (a pipeline's status would be grep's).
  status=0
  "$build/tests/fuzz/$t" "$work" "${dict[@]}" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" > "$build/$t.log" 2>&1 || status=$?
  grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==|SUMMARY|ERROR|round trip|printed module)" "$build/$t.log" || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: $t failed (exit $status); reproducer in $build/artifacts/" >&2
    exit 1
  fi
done

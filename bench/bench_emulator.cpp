// Emulated thread-instructions per second (issue 4 "Done when"): the tiled matrix multiply and the
// warp-shuffle / shared-memory reductions of examples/kernels, on 1 and 2 worker threads (blocks
// in parallel). The PTX is nvcc -arch=sm_80 -ptx -lineinfo output shipped in bench/data/ so the
// benchmark needs no CUDA toolkit. Counter "thread_instr/s": active lanes summed over executed
// warp instructions, per wall-clock second. The *_Sass cases run the same launches on the SASS
// emulator (Emulator::selectSass) from nvdisasm -hex -gi -c of nvcc -cubin -arch=sm_80 -lineinfo,
// also in bench/data/ (issue 26: >= 200 M thread-instructions/s on one core for the matmul).
#include <benchmark/benchmark.h>

#include <ctime>
#include <map>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/sass/parser.hpp"
#include "teg/support/error.hpp"

namespace {

using teg::emu::Dim3;
using teg::emu::Emulator;

teg::ptx::Module load(const std::string& stem) {
  return teg::ptx::parseFile(std::string(TEG_SOURCE_DIR) + "/bench/data/" + stem + ".sm_80.ptx");
}

const teg::sass::Module& loadSass(const std::string& stem) {
  static std::map<std::string, teg::sass::Module> cache;
  auto it = cache.find(stem);
  if (it == cache.end())
    it = cache.emplace(stem, teg::sass::parseDisassemblyFile(std::string(TEG_SOURCE_DIR) + "/bench/data/" + stem +
                                                              ".sm_80.sass")).first;
  return it->second;
}

template <class T>
std::span<const std::byte> bytes(const std::vector<T>& v) {
  return std::as_bytes(std::span<const T>(v));
}

template <class T>
void scalar(Emulator& e, const char* name, T v) {
  e.addScalar(name, std::as_bytes(std::span(&v, 1)));
}

double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Counts events: the cost of producing the trace, with a listener that does almost nothing.
class CountingListener final : public teg::trace::TraceListener {
 public:
  void instruction(const teg::trace::WarpInstruction& r) override { lanes += r.activeMask != 0; }
  std::uint64_t lanes = 0;
};

void runAndCount(benchmark::State& state, Emulator& e, teg::trace::TraceListener* listener = nullptr) {
  teg::emu::RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.listener = listener;
  std::uint64_t lanes = 0, warps = 0;
  double cpuSeconds = 0;
  for (auto _ : state) {
    const double c0 = processCpuSeconds();
    teg::emu::RunSummary s;
    try {
      s = e.run(options);
    } catch (const teg::Error& error) {
      state.SkipWithError(error.what());  // e.g. an opcode the SASS emulator does not run yet
      return;
    }
    cpuSeconds += processCpuSeconds() - c0;
    lanes += s.threadInstructions;
    warps += s.warpInstructions;
  }
  state.counters["thread_instr/s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
  // Per CPU-second of all worker threads: the per-core rate even when the machine is shared.
  state.counters["thread_instr/cpu_s"] = static_cast<double>(lanes) / cpuSeconds;
  state.counters["warp_instr/s"] = benchmark::Counter(static_cast<double>(warps), benchmark::Counter::kIsRate);
}

// C = A B, 256 x 256 x 256, 16 x 16 tiles: grid 16 x 16 of 256-thread blocks.
void matmulShared(benchmark::State& state, bool sass) {
  static const teg::ptx::Module module = load("matmul_shared");
  const int n = 256;
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 17) * 0.25f;
    b[i] = static_cast<float>(i % 13) * 0.5f;
  }
  Emulator e(module, "matmulShared", Dim3{16, 16, 1}, Dim3{16, 16, 1});
  if (sass) e.selectSass(loadSass("matmul_shared"), 80);
  e.addBuffer("A", bytes(a));
  e.addBuffer("B", bytes(b));
  e.addBuffer("C", bytes(std::vector<float>(n * n)));
  scalar(e, "M", n);
  scalar(e, "N", n);
  scalar(e, "K", n);
  CountingListener listener;
  runAndCount(state, e, state.range(1) ? &listener : nullptr);
}
void BM_MatmulShared(benchmark::State& state) { matmulShared(state, false); }
void BM_MatmulShared_Sass(benchmark::State& state) { matmulShared(state, true); }
// Args: worker threads, with a trace listener (1) or without (0).
BENCHMARK(BM_MatmulShared)->Args({1, 0})->Args({2, 0})->Args({1, 1})->Args({2, 1})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulShared_Sass)->Args({1, 0})->Args({2, 0})->Args({1, 1})->Args({2, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

// Per-block sums of 1 Mi ints, 256 threads per block.
void reduction(benchmark::State& state, const char* stem, const char* kernel, bool sass = false) {
  const teg::ptx::Module module = load(stem);
  const int n = 1 << 20, block = 256;
  std::vector<std::int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = i % 201 - 100;
  Emulator e(module, kernel, Dim3{n / block, 1, 1}, Dim3{block, 1, 1});
  if (sass) e.selectSass(loadSass(stem), 80);
  e.addBuffer("in", bytes(in));
  e.addBuffer("out", bytes(std::vector<std::int32_t>(n / block)));
  scalar(e, "n", n);
  runAndCount(state, e);
}
void BM_ReduceWarpShuffle(benchmark::State& state) { reduction(state, "reduce_warp_shuffle", "reduceWarpShuffle"); }
void BM_ReduceInterleaved(benchmark::State& state) { reduction(state, "reduce_interleaved", "reduceInterleaved"); }
void BM_ReduceWarpShuffle_Sass(benchmark::State& state) { reduction(state, "reduce_warp_shuffle", "reduceWarpShuffle", true); }
void BM_ReduceInterleaved_Sass(benchmark::State& state) { reduction(state, "reduce_interleaved", "reduceInterleaved", true); }
BENCHMARK(BM_ReduceWarpShuffle)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReduceWarpShuffle_Sass)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReduceInterleaved_Sass)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReduceInterleaved)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

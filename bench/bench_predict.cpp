// End to end `teg predict` as a library call (compile once, emulate the sampled blocks of the
// busiest SM, run the TEG engine): a 4096^3 SGEMM on an A100 with the default sampling, the
// speed case of issue #5 (aim: under 5 s). Needs nvcc; skipped without it. nvcc's result is
// cached per process, so the iterations after the first measure emulation plus the model.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include "teg/analysis/predict.hpp"
#include "teg/device/database.hpp"
#include "teg/emu/launch.hpp"

namespace {

void BM_PredictSgemm4096OnA100(benchmark::State& state) {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0) {
    state.SkipWithError("nvcc not found");
    return;
  }
  const auto devices = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  teg::analysis::PredictRequest request;
  request.launch = teg::emu::readLaunchFile(std::string(TEG_SOURCE_DIR) + "/bench/sgemm_4096.launch.json");
  request.device = &devices.find("a100");
  double cycles = 0;
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    const auto p = teg::analysis::predict(request);
    cycles = p.result.cycles;
    instructions += p.result.warpInstructions;
  }
  state.counters["predicted_ms"] = cycles / 1410e3;
  state.counters["warp_instr/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PredictSgemm4096OnA100)->Unit(benchmark::kSecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();

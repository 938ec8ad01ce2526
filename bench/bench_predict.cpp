// End to end `teg predict` as a library call (compile once, emulate the sampled blocks of the
// busiest SM, run the TEG engine): a 4096^3 SGEMM on an A100 with the default sampling, the
// speed case of issues #5 and #26 (aim: under 5 s). Needs nvcc; skipped without it. nvcc's
// result is cached per process, so the iterations after the first measure emulation plus the
// model. Arg: loop-iteration sampling's q (PredictRequest::loopSampleIterations; 0 = every
// iteration simulated). Counter "cpu_s": process CPU seconds per prediction (the machine may be
// shared; wall time then says little).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <ctime>

#include "teg/analysis/predict.hpp"
#include "teg/device/database.hpp"
#include "teg/emu/launch.hpp"

namespace {

double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void BM_PredictSgemm4096OnA100(benchmark::State& state) {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0) {
    state.SkipWithError("nvcc not found");
    return;
  }
  const auto devices = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  teg::analysis::PredictRequest request;
  request.launch = teg::emu::readLaunchFile(std::string(TEG_SOURCE_DIR) + "/bench/sgemm_4096.launch.json");
  request.device = &devices.find("a100");
  request.loopSampleIterations = static_cast<int>(state.range(0));
  double cycles = 0, cpuSeconds = 0;
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    const double c0 = processCpuSeconds();
    const auto p = teg::analysis::predict(request);
    cpuSeconds += processCpuSeconds() - c0;
    cycles = p.result.cycles;
    instructions += p.result.warpInstructions;
  }
  state.counters["predicted_cycles"] = cycles;
  state.counters["cpu_s"] = cpuSeconds / static_cast<double>(state.iterations());
  state.counters["predicted_ms"] = cycles / 1410e3;
  state.counters["warp_instr/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PredictSgemm4096OnA100)->Arg(4)->Arg(0)->Unit(benchmark::kSecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();

// Occupancy throughput: teg's computeOccupancy against NVIDIA's cudaOccMaxActiveBlocksPerMultiprocessor
// (cuda_occupancy.h, when the CUDA toolkit is installed) on the same configurations, and the
// end-to-end JSON-lines batch for 1,000,000 lines (teg::occupancy::runBatch, file in, file out).
//
//   teg_bench_occupancy --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#if __has_include("/usr/local/cuda/include/cuda_occupancy.h")
#include <climits>
#include <cstring>
#include "/usr/local/cuda/include/cuda_occupancy.h"
#define TEG_BENCH_HAVE_CUDA_OCC 1
#endif

#include "teg/device/database.hpp"
#include "teg/occupancy/batch.hpp"
#include "teg/occupancy/occupancy.hpp"

namespace {

using teg::device::Device;
using teg::occupancy::Launch;

const teg::device::DeviceDatabase& database() {
  static const auto db = teg::device::DeviceDatabase::loadDefault();
  return db;
}

constexpr const char* kGpus[] = {"tesla-k20c", "gtx1080", "tesla-t4", "a100", "h100-sxm5-80gb", "rtx4090"};

// One prepared calculator per GPU, as the batch keeps them (the oracle likewise gets its
// cudaOccDeviceProp prepared outside the timed loop).
const std::vector<teg::occupancy::OccupancyCalculator>& calculators() {
  static const auto all = [] {
    std::vector<teg::occupancy::OccupancyCalculator> v;
    for (const char* name : kGpus) v.emplace_back(database().find(name));
    return v;
  }();
  return all;
}

struct Config {
  const Device* device;
  const teg::occupancy::OccupancyCalculator* calculator;
  Launch launch;
};

// Deterministic mixed configurations: every launch parameter drawn from its whole valid range.
const std::vector<Config>& configs() {
  static const std::vector<Config> all = [] {
    std::vector<Config> v;
    std::uint64_t state = 0x9E3779B97F4A7C15ULL;
    auto next = [&state](std::uint64_t n) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<long long>((state >> 33) % n);
    };
    for (int i = 0; i < 4096; ++i) {
      const Device& d = database().find(kGpus[i % std::size(kGpus)]);
      Config c{&d, &calculators()[i % std::size(kGpus)], {}};
      c.launch.threadsPerBlock = 1 + next(d.limits.maxThreadsPerBlock);
      c.launch.registersPerThread = next(d.limits.maxRegistersPerThread + 1);
      c.launch.staticSharedBytes = next(16384);
      c.launch.dynamicSharedBytes = next(32768);
      v.push_back(c);
    }
    return v;
  }();
  return all;
}

void BM_TegOccupancy(benchmark::State& state) {
  const auto& cs = configs();
  std::size_t i = 0;
  long long blocks = 0;
  for (auto _ : state) {
    const Config& c = cs[i];
    i = (i + 1) & (cs.size() - 1);
    const auto r = (*c.calculator)(c.launch);
    blocks += r.blocksPerSm;
    benchmark::DoNotOptimize(blocks);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TegOccupancy);

#ifdef TEG_BENCH_HAVE_CUDA_OCC
struct OracleConfig {
  cudaOccDeviceProp props;
  cudaOccFuncAttributes attributes;
  int blockSize;
  size_t dynamicSmem;
};

void BM_CudaOccMaxActiveBlocks(benchmark::State& state) {
  std::vector<OracleConfig> ocs;
  for (const Config& c : configs()) {
    const Device& d = *c.device;
    OracleConfig o{};
    o.props.computeMajor = d.cc.major;
    o.props.computeMinor = d.cc.minor;
    o.props.maxThreadsPerBlock = d.limits.maxThreadsPerBlock;
    o.props.maxThreadsPerMultiprocessor = d.limits.maxThreadsPerSm;
    o.props.regsPerBlock = d.limits.maxRegistersPerBlock;
    o.props.regsPerMultiprocessor = d.limits.registersPerSm;
    o.props.warpSize = d.limits.warpSize;
    o.props.sharedMemPerBlock = d.limits.sharedMemoryPerBlock;
    o.props.sharedMemPerMultiprocessor = d.limits.sharedMemoryPerSm;
    o.props.numSms = std::max(1, d.smCount);
    o.props.sharedMemPerBlockOptin = d.limits.sharedMemoryPerBlockOptin;
    o.props.reservedSharedMemPerBlock = d.limits.reservedSharedMemoryPerBlock;
    o.attributes.maxThreadsPerBlock = d.limits.maxThreadsPerBlock;
    o.attributes.numRegs = static_cast<int>(c.launch.registersPerThread);
    o.attributes.sharedSizeBytes = c.launch.staticSharedBytes;
    o.attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    o.attributes.maxDynamicSharedSizeBytes =
        std::max<long long>(0, std::max(d.limits.sharedMemoryPerBlockOptin, d.limits.sharedMemoryPerBlock) -
                                   c.launch.staticSharedBytes);
    o.attributes.numBlockBarriers = 1;
    o.blockSize = static_cast<int>(c.launch.threadsPerBlock);
    o.dynamicSmem = c.launch.dynamicSharedBytes;
    ocs.push_back(o);
  }
  const cudaOccDeviceState deviceState;
  std::size_t i = 0;
  long long blocks = 0;
  for (auto _ : state) {
    const OracleConfig& o = ocs[i];
    i = (i + 1) & (ocs.size() - 1);
    cudaOccResult r{};  // zero if the oracle rejects the configuration and leaves it unset
    cudaOccMaxActiveBlocksPerMultiprocessor(&r, &o.props, &o.attributes, &deviceState, o.blockSize, o.dynamicSmem);
    blocks += r.activeBlocksPerMultiprocessor;
    benchmark::DoNotOptimize(blocks);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CudaOccMaxActiveBlocks);
#endif

// 1,000,000 JSON lines through the library batch: read from a file, written to a file.
void BM_BatchMillionLines(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto in = dir / "teg-bench-occupancy-in.jsonl";
  const auto out = dir / "teg-bench-occupancy-out.jsonl";
  constexpr long long kLines = 1000000;
  {
    std::ofstream f(in, std::ios::binary);
    std::string buf;
    const auto& cs = configs();
    for (long long i = 0; i < kLines; ++i) {
      const Config& c = cs[static_cast<std::size_t>(i) & (cs.size() - 1)];
      buf += "{\"gpu\":\"";
      buf += kGpus[i % std::size(kGpus)];
      buf += "\",\"threads\":" + std::to_string(c.launch.threadsPerBlock) +
             ",\"regs\":" + std::to_string(c.launch.registersPerThread) +
             ",\"smem\":" + std::to_string(c.launch.staticSharedBytes) +
             ",\"dyn_smem\":" + std::to_string(c.launch.dynamicSharedBytes) + "}\n";
      if (buf.size() > (1 << 20)) { f << buf; buf.clear(); }
    }
    f << buf;
  }
  const teg::occupancy::DeviceResolver resolve = [](const std::string& name) -> const Device& {
    return database().find(name);
  };
  long long lines = 0;
  for (auto _ : state) {
    std::ifstream fin(in, std::ios::binary);
    std::ofstream fout(out, std::ios::binary);
    lines += teg::occupancy::runBatch(fin, fout, resolve).lines;
  }
  state.SetItemsProcessed(lines);
  state.counters["lines"] = static_cast<double>(kLines);
  std::filesystem::remove(in);
  std::filesystem::remove(out);
}
BENCHMARK(BM_BatchMillionLines)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();

// Chien's cost model of Volkov's SGEMM (seed 002 sect. 3.1).
#include "teg/models/volkov_sgemm.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "model_parameters.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::models {

namespace {

double round2(double v) { return std::round(v * 100) / 100; }

}  // namespace

VolkovSgemmCost volkovSgemmCost(const VolkovSgemmParameters& p) {
  for (const auto& [name, v] : {std::pair{"g_L", p.globalLatency}, {"MOV cycles per warp", p.movCyclesPerWarp},
                                {"MAD [smem] cycles per warp", p.madSmemCyclesPerWarp}, {"warp size", p.warpSize},
                                {"N_SM", static_cast<double>(p.smCount)}, {"clock", p.clockGhz},
                                {"N_T", p.activeThreads}, {"b_M", p.blockM}, {"b_N", p.blockN}})
    if (!(v > 0) || !std::isfinite(v)) throw Error(fmt::format("volkov sgemm model: {} must be > 0", name));
  VolkovSgemmCost c;
  const double mov = p.movCyclesPerWarp / p.warpSize;
  c.aLoad = p.globalLatency / p.activeThreads + mov;      // load A into a register
  c.bLoad = p.globalLatency / p.activeThreads + 2 * mov;  // load B, store it to shared memory
  c.mad = p.madSmemCyclesPerWarp / p.warpSize;            // MAD dest, [smem], src2, src3
  c.cyclesPerMad = c.aLoad / p.blockN + c.bLoad / p.blockM + c.mad;
  const double rate = 2 * p.smCount * p.clockGhz;        // 2 flops per MAD, N_SM SMs, GHz → Gflop/s
  c.gflops = rate / c.cyclesPerMad;
  c.gflopsAsPrinted = rate / (round2(c.aLoad) / p.blockN + round2(c.bLoad / p.blockM) + c.mad);
  return c;
}

std::string volkovSgemmDataFile() { return dataDirectory() + "/models/volkov_sgemm.json"; }

VolkovSgemmParameters volkovSgemmExample1(const std::string& file) {
  const nlohmann::json data = readJsonFile(file);
  const auto value = [&](const char* key) { return detail::modelParameter(data, file, key); };
  VolkovSgemmParameters p;
  p.globalLatency = value("global_latency");
  p.movCyclesPerWarp = value("mov_cycles_per_warp");
  p.madSmemCyclesPerWarp = value("mad_smem_cycles_per_warp");
  p.warpSize = value("warp_size");
  p.smCount = static_cast<int>(value("sm_count"));
  p.clockGhz = value("clock_ghz");
  p.activeThreads = value("active_threads");
  p.blockM = value("block_m");
  p.blockN = value("block_n");
  return p;
}

}  // namespace teg::models

// Table 4.2's parameters for one GPU: hardware figures from the device database, the seed's
// implementation choices and measured throughputs from data/models/sgemm_bound.json.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "teg/models/device_figures.hpp"
#include "teg/models/sgemm_bound.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::models {

namespace {

using nlohmann::json;

// A {"value", "source"} entry of the data file; throws naming the file and the path.
const json& entry(const json& parent, const std::string& key, const std::string& file, const std::string& where) {
  if (!parent.is_object() || !parent.contains(key))
    throw Error(fmt::format("{}: {}/{}: missing", file, where, key));
  const json& e = parent.at(key);
  if (!e.is_object() || !e.contains("value") || !e.at("value").is_number() || !e.contains("source") ||
      !e.at("source").is_string())
    throw Error(fmt::format("{}: {}/{}: expected {{\"value\": <number>, \"source\": <text>}}", file, where, key));
  return e;
}

std::string sourceText(const json& data, const json& e) {
  const std::string key = e.at("source").get<std::string>();
  const json& sources = data.value("sources", json::object());
  std::string text = sources.contains(key) ? sources.at(key).get<std::string>() : key;
  if (e.contains("note") && e.at("note").is_string()) text += " — " + e.at("note").get<std::string>();
  return text;
}

template <typename T>
T require(T value, const device::Device& gpu, const char* key) {
  if (value <= 0) throw Error(fmt::format("'{}' has no {} (the SGEMM bound needs it)", gpu.id, key));
  return value;
}

}  // namespace

std::string sgemmBoundDataFile() { return dataDirectory() + "/models/sgemm_bound.json"; }

SgemmBoundParameters sgemmBoundParametersFor(const device::Device& gpu, int ldsWidthBits, const std::string& dataFile) {
  const json data = readJsonFile(dataFile);
  SgemmBoundParameters p;
  p.ldsWidthBits = ldsWidthBits;
  auto& o = p.origins;
  const std::string dev = fmt::format("data/devices ({})", gpu.id);

  p.maxRegistersPerThread = require(gpu.limits.maxRegistersPerThread, gpu, "max_registers_per_thread");
  o.emplace_back("R_Max", fmt::format("{}: max_registers_per_thread", dev));
  p.registersPerSm = require(gpu.limits.registersPerSm, gpu, "registers_per_sm");
  o.emplace_back("R_SM", fmt::format("{}: registers_per_sm", dev));
  p.sharedBytesPerSm = require(gpu.limits.sharedMemoryPerSm, gpu, "shared_memory_per_sm");
  o.emplace_back("Sh_SM", fmt::format("{}: shared_memory_per_sm (largest carve-out)", dev));
  p.maxThreadsPerSm = gpu.limits.maxThreadsPerSm;
  const DevicePeak peak = peakOf(gpu, Precision::Fp32);
  p.peakGflops = peak.gflops;
  p.bandwidthGBs = peak.bandwidthGBs;
  o.emplace_back("P_theoretical", fmt::format("{}: sm_count x throughput.fp32_fma x 2 x {:g} MHz", dev, peak.clockMhz));
  o.emplace_back("#GlobalMem_bandwidth", fmt::format("{}: memory.dram_bandwidth_gbs", dev));
  p.spThroughput = require(gpu.throughputOf(device::InstructionClass::Fp32Fma), gpu, "throughput.fp32_fma");
  o.emplace_back("#SP_TP", fmt::format("{}: throughput.fp32_fma", dev));

  const json& impl = data.value("implementation", json::object());
  const std::string file = dataFile;
  const json& tb = entry(impl, "threads_per_block", file, "implementation");
  const json& ri = entry(impl, "index_registers", file, "implementation");
  const json& ls = entry(impl, "stride_step", file, "implementation");
  p.threadsPerBlock = tb.at("value").get<int>();
  p.indexRegisters = ri.at("value").get<int>();
  p.strideStep = ls.at("value").get<int>();
  o.emplace_back("T_B", sourceText(data, tb));
  o.emplace_back("R_index", sourceText(data, ri));
  o.emplace_back("L step", sourceText(data, ls));

  // Derived issue and LDS rates (used unless the seed measured this GPU).
  const int schedulers = require(gpu.issue.schedulersPerSm, gpu, "warp_schedulers_per_sm");
  const double interval = require(gpu.timing.issueInterval, gpu, "timing.issue_interval");
  const int warp = require(gpu.limits.warpSize, gpu, "warp_size");
  p.issueThroughput = schedulers * warp / interval;
  std::string issueOrigin = fmt::format(
      "derived: warp_schedulers_per_sm x warp_size / timing.issue_interval = {} x {} / {:g} ({}); a second dispatch "
      "unit is not counted (GK104 measured at most ~132 of 256, seed 000 Table 4.1)",
      schedulers, warp, interval, dev);
  const double wavefront = require(gpu.timing.sharedWavefrontCycles, gpu, "timing.shared_wavefront_cycles");
  p.ldsBytesPerClock = require(gpu.limits.sharedMemoryBanks, gpu, "shared_memory_banks") *
                       require(gpu.limits.sharedMemoryBankWidth, gpu, "shared_memory_bank_width") / wavefront;
  std::string ldsOrigin = fmt::format(
      "derived: shared_memory_banks x shared_memory_bank_width / timing.shared_wavefront_cycles ({})", dev);

  const json& measured = data.value("measured", json::object());
  if (measured.contains(gpu.id)) {
    const json& m = measured.at(gpu.id);
    const std::string where = "measured/" + gpu.id;
    const json& issue = entry(m, "issue_throughput", file, where);
    const json& lds = entry(m, "lds_bytes_per_clock", file, where);
    const json& blocking = entry(m, "register_blocking", file, where);
    p.issueThroughput = issue.at("value").get<double>();
    issueOrigin = "measured: " + sourceText(data, issue);
    p.ldsBytesPerClock = lds.at("value").get<double>();
    ldsOrigin = "measured: " + sourceText(data, lds);
    p.measuredAtBlocking = blocking.at("value").get<int>();
    const json& mixes = m.value("mix_throughput", json::object());
    const std::string width = std::to_string(ldsWidthBits);
    if (mixes.contains(width)) {
      const json& mix = entry(mixes, width, file, where + "/mix_throughput");
      p.measuredMixThroughput = mix.at("value").get<double>();
      o.emplace_back("F_T", "measured: " + sourceText(data, mix));
    }
  }
  o.emplace_back("#Issue_TP", issueOrigin);
  o.emplace_back("#LDS_TP", ldsOrigin);
  return p;
}

}  // namespace teg::models

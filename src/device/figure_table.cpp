#include "figure_table.hpp"

#include "teg/device/figures.hpp"

#include <fmt/format.h>

#include <regex>

namespace teg::device::detail {

namespace {

using nlohmann::json;

// Field accessors: one tiny function per kind of destination, chosen by the table below.
template <auto Member>
void setInt(Device& d, const std::string&, const json& v) {
  d.*Member = v.get<int>();
}
// A figure only its provenance entry carries (Device::figures); the kind check still applies.
void keepInProvenanceOnly(Device&, const std::string&, const json&) {}
template <auto Section, auto Member>
void setSectionInt(Device& d, const std::string&, const json& v) {
  (d.*Section).*Member = v.get<int>();
}
template <auto Section, auto Member>
void setSectionLong(Device& d, const std::string&, const json& v) {
  (d.*Section).*Member = v.get<long long>();
}
template <auto Section, auto Member>
void setSectionDouble(Device& d, const std::string&, const json& v) {
  (d.*Section).*Member = v.get<double>();
}
template <auto Section, auto Member>
void setSectionText(Device& d, const std::string&, const json& v) {
  (d.*Section).*Member = v.get<std::string>();
}

void setArchitecture(Device& d, const std::string&, const json& v) {
  d.architecture = v.get<std::string>();
}
void setChip(Device& d, const std::string&, const json& v) { d.chip = v.get<std::string>(); }
void setComputeCapability(Device& d, const std::string&, const json& v) {
  const auto text = v.get<std::string>();
  const auto dot = text.find('.');
  d.cc.major = std::stoi(text.substr(0, dot));
  d.cc.minor = std::stoi(text.substr(dot + 1));
}
void setBlockDim(Device& d, const std::string&, const json& v) {
  for (int i = 0; i < 3; ++i) d.limits.maxBlockDim[i] = v[i].get<int>();
}
void setGridDim(Device& d, const std::string&, const json& v) {
  for (int i = 0; i < 3; ++i) d.limits.maxGridDim[i] = v[i].get<long long>();
}
void setCarveouts(Device& d, const std::string&, const json& v) {
  d.limits.sharedMemoryCarveouts = v.get<std::vector<int>>();
}
void setGranularity(Device& d, const std::string&, const json& v) {
  d.limits.registerAllocationGranularity =
      v.get<std::string>() == "block" ? RegisterGranularity::Block : RegisterGranularity::Warp;
}
void setThroughput(Device& d, const std::string& key, const json& v) {
  const auto cls = instructionClassFromName(key.substr(std::string("throughput.").size()));
  d.throughput[static_cast<int>(*cls)] = v.get<double>();
}
void setTimingLatency(Device& d, const std::string& key, const json& v) {
  const auto cls = instructionClassFromName(key.substr(std::string("timing.latency.").size()));
  d.timing.latency[static_cast<int>(*cls)] = v.get<double>();
}
void setTimingSameWarp(Device& d, const std::string& key, const json& v) {
  const auto cls = instructionClassFromName(key.substr(std::string("timing.same_warp.").size()));
  d.timing.sameWarp[static_cast<int>(*cls)] = v.get<double>();
}
template <auto Member>
void setTimingDouble(Device& d, const std::string&, const json& v) {
  d.timing.*Member = v.get<double>();
}
void setTimingPolicy(Device& d, const std::string&, const json& v) { d.timing.schedulerPolicy = v.get<std::string>(); }
void setTimingL1CachesGlobal(Device& d, const std::string&, const json& v) {
  d.timing.l1CachesGlobalLoads = v.get<int>() != 0 ? 1 : 0;
}

void setTimingUnifiedAlu(Device& d, const std::string&, const json& v) { d.timing.unifiedAlu = v.get<int>() != 0 ? 1 : 0; }

void setMeasured(Device& d, const std::string& key, const json& v) {
  MeasuredFigure m;
  m.value = v.at("value").get<double>();
  m.unit = v.at("unit").get<std::string>();
  m.method = v.at("method").get<std::string>();
  m.source = v.at("source").get<std::string>();
  d.measured[key.substr(std::string(kMeasuredPrefix).size())] = m;
}

std::vector<FigureSpec> buildSpecs() {
  using K = FigureKind;
  using G = FigureGroup;
  using R = Required;
  std::vector<FigureSpec> s = {
      {"compute_capability", K::ComputeCapability, G::Identity, R::Always, setComputeCapability},
      {"architecture", K::Text, G::Identity, R::Always, setArchitecture},
      {"sm_count", K::PositiveInt, G::Identity, R::ProductOnly, setInt<&Device::smCount>},
      {"chip", K::Text, G::Identity, R::No, setChip},

      {"warp_size", K::PositiveInt, G::Limits, R::Always, setSectionInt<&Device::limits, &Limits::warpSize>},
      {"max_threads_per_block", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::maxThreadsPerBlock>},
      {"max_block_dim", K::IntTriple, G::Limits, R::Always, setBlockDim},
      {"max_grid_dim", K::IntTriple, G::Limits, R::Always, setGridDim},
      {"max_threads_per_sm", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::maxThreadsPerSm>},
      {"max_warps_per_sm", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::maxWarpsPerSm>},
      {"max_blocks_per_sm", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::maxBlocksPerSm>},
      {"registers_per_sm", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::registersPerSm>},
      {"max_registers_per_block", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::maxRegistersPerBlock>},
      {"max_registers_per_thread", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::maxRegistersPerThread>},
      {"register_allocation_unit", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::registerAllocationUnit>},
      {"register_allocation_granularity", K::Granularity, G::Limits, R::Always, setGranularity},
      {"warp_allocation_granularity", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::warpAllocationGranularity>},
      {"shared_memory_per_sm", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::sharedMemoryPerSm>},
      {"shared_memory_carveouts", K::AscendingInts, G::Limits, R::Always, setCarveouts},
      {"shared_memory_per_block", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::sharedMemoryPerBlock>},
      {"shared_memory_per_block_optin", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::sharedMemoryPerBlockOptin>},
      {"reserved_shared_memory_per_block", K::NonNegativeInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::reservedSharedMemoryPerBlock>},
      {"shared_memory_allocation_unit", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::sharedMemoryAllocationUnit>},
      {"barriers_per_sm", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::barriersPerSm>},
      {"shared_memory_banks", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::sharedMemoryBanks>},
      {"shared_memory_bank_width", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::sharedMemoryBankWidth>},
      {"constant_memory", K::PositiveInt, G::Limits, R::Always,
       setSectionInt<&Device::limits, &Limits::constantMemory>},

      {"sub_partitions", K::PositiveInt, G::Issue, R::Always,
       setSectionInt<&Device::issue, &Issue::subPartitions>},
      {"warp_schedulers_per_sm", K::PositiveInt, G::Issue, R::Always,
       setSectionInt<&Device::issue, &Issue::schedulersPerSm>},
      {"dispatch_units_per_scheduler", K::PositiveInt, G::Issue, R::Always,
       setSectionInt<&Device::issue, &Issue::dispatchUnitsPerScheduler>},

      {"clocks.core_mhz", K::PositiveNumber, G::Clocks, R::ProductOnly,
       setSectionDouble<&Device::clocks, &Clocks::coreMhz>},
      {"clocks.base_mhz", K::PositiveNumber, G::Clocks, R::No,
       setSectionDouble<&Device::clocks, &Clocks::baseMhz>},
      {"clocks.shader_mhz", K::PositiveNumber, G::Clocks, R::No,
       setSectionDouble<&Device::clocks, &Clocks::shaderMhz>},
      {"clocks.memory_mhz", K::PositiveNumber, G::Clocks, R::No,
       setSectionDouble<&Device::clocks, &Clocks::memoryMhz>},

      {"memory.dram_type", K::Text, G::Memory, R::No, setSectionText<&Device::memory, &Memory::dramType>},
      {"memory.dram_gib", K::PositiveNumber, G::Memory, R::No,
       setSectionDouble<&Device::memory, &Memory::dramGiB>},
      {"memory.dram_bandwidth_gbs", K::PositiveNumber, G::Memory, R::ProductOnly,
       setSectionDouble<&Device::memory, &Memory::dramBandwidthGBs>},
      {"memory.dram_sustained_gbs", K::PositiveNumber, G::Memory, R::No,
       setSectionDouble<&Device::memory, &Memory::dramSustainedGBs>},
      {"memory.bus_width_bits", K::PositiveInt, G::Memory, R::No,
       setSectionInt<&Device::memory, &Memory::busWidthBits>},
      {"memory.l2_bytes", K::NonNegativeInt, G::Memory, R::ProductOnly,
       setSectionLong<&Device::memory, &Memory::l2Bytes>},
      {"memory.l1_bytes_per_sm", K::NonNegativeInt, G::Memory, R::Always,
       setSectionLong<&Device::memory, &Memory::l1BytesPerSm>},
      {"memory.l1_line_bytes", K::PositiveInt, G::Memory, R::Always,
       setSectionInt<&Device::memory, &Memory::l1LineBytes>},
      // Read from Device::figures by the timing model (src/timing/config.cpp): a field of its own
      // in device.hpp would rebuild every user of the header for one figure only it reads.
      {"memory.l1_sets", K::PositiveInt, G::Memory, R::No, keepInProvenanceOnly},
      {"memory.l2_line_bytes", K::PositiveInt, G::Memory, R::Always,
       setSectionInt<&Device::memory, &Memory::l2LineBytes>},
      {"memory.sector_bytes", K::PositiveInt, G::Memory, R::Always,
       setSectionInt<&Device::memory, &Memory::sectorBytes>},
      {"memory.dram_partitions", K::PositiveInt, G::Memory, R::No,
       setSectionInt<&Device::memory, &Memory::dramPartitions>},
      {"memory.dram_partition_bytes", K::PositiveInt, G::Memory, R::No,
       setSectionInt<&Device::memory, &Memory::dramPartitionBytes>},
      {"memory.l2_partitions", K::PositiveInt, G::Memory, R::No,
       setSectionInt<&Device::memory, &Memory::l2Partitions>},
      {"memory.l2_ecc_word_bytes", K::PositiveInt, G::Memory, R::No,
       setSectionInt<&Device::memory, &Memory::l2EccWordBytes>},
  };
  for (int i = 0; i < static_cast<int>(InstructionClass::Count_); ++i) {
    const auto cls = static_cast<InstructionClass>(i);
    // fp32 exists on every generation; the other classes may be absent (0).
    s.push_back({fmt::format("throughput.{}", instructionClassName(cls)), K::NonNegativeNumber,
                 G::Throughput, cls == InstructionClass::Fp32Fma ? R::Always : R::No,
                 setThroughput});
  }
  // Timing-model parameters (Lai ch. 3); optional for the loader, checked by the timing model.
  using Timing = Device::Timing;
  s.push_back({"timing.issue_interval", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::issueInterval>});
  s.push_back({"timing.scheduler_policy", K::Text, G::Timing, R::No, setTimingPolicy});
  s.push_back({"timing.shared_latency", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::sharedLatency>});
  s.push_back({"timing.l1_latency", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::l1Latency>});
  s.push_back({"timing.l2_latency", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::l2Latency>});
  s.push_back({"timing.dram_latency", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::dramLatency>});
  s.push_back({"timing.shared_wavefront_cycles", K::PositiveNumber, G::Timing, R::No,
               setTimingDouble<&Timing::sharedWavefrontCycles>});
  s.push_back({"timing.shared_replay_latency", K::PositiveNumber, G::Timing, R::No,
               setTimingDouble<&Timing::sharedReplayLatency>});
  s.push_back({"timing.shared_operand_latency", K::PositiveNumber, G::Timing, R::No,
               setTimingDouble<&Timing::sharedOperandLatency>});
  s.push_back({"timing.barrier_latency", K::NonNegativeNumber, G::Timing, R::No, setTimingDouble<&Timing::barrierLatency>});
  s.push_back({"timing.block_launch_cycles", K::NonNegativeNumber, G::Timing, R::No,
               setTimingDouble<&Timing::blockLaunchCycles>});
  s.push_back({"timing.launch_stream_us", K::NonNegativeNumber, G::Timing, R::No, setTimingDouble<&Timing::launchStreamUs>});
  s.push_back({"timing.launch_graph_us", K::NonNegativeNumber, G::Timing, R::No, setTimingDouble<&Timing::launchGraphUs>});
  s.push_back({"timing.launch_sync_us", K::NonNegativeNumber, G::Timing, R::No, setTimingDouble<&Timing::launchSyncUs>});
  s.push_back({"timing.l2_atomic_cycles", K::NonNegativeNumber, G::Timing, R::No, setTimingDouble<&Timing::l2AtomicCycles>});
  s.push_back({"timing.shared_atomic_cycles", K::PositiveNumber, G::Timing, R::No,
               setTimingDouble<&Timing::sharedAtomicCycles>});
  s.push_back({"timing.register_banks", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::registerBanks>});
  s.push_back({"timing.register_bank_reads", K::PositiveNumber, G::Timing, R::No,
               setTimingDouble<&Timing::registerBankReads>});
  s.push_back({"timing.l2_bytes_per_clk", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::l2BytesPerClock>});
  s.push_back({"timing.l2_write_bytes_per_clk", K::PositiveNumber, G::Timing, R::No,
               setTimingDouble<&Timing::l2WriteBytesPerClock>});
  s.push_back({"timing.l1_bytes_per_clk", K::PositiveNumber, G::Timing, R::No, setTimingDouble<&Timing::l1BytesPerClock>});
  s.push_back({"timing.l1_tag_lookups_per_cycle", K::PositiveInt, G::Timing, R::No, keepInProvenanceOnly});
  s.push_back({"timing.l1_caches_global", K::NonNegativeInt, G::Timing, R::No, setTimingL1CachesGlobal});
  s.push_back({"timing.unified_alu", K::NonNegativeInt, G::Timing, R::No, setTimingUnifiedAlu});
  for (int i = 0; i < static_cast<int>(InstructionClass::Count_); ++i) {
    const auto name = instructionClassName(static_cast<InstructionClass>(i));
    s.push_back({fmt::format("timing.latency.{}", name), K::PositiveNumber, G::Timing, R::No, setTimingLatency});
    s.push_back({fmt::format("timing.same_warp.{}", name), K::PositiveNumber, G::Timing, R::No, setTimingSameWarp});
  }
  return s;
}

bool isInteger(const json& v) { return v.is_number_integer() || v.is_number_unsigned(); }

}  // namespace

const char* figureGroupName(FigureGroup group) {
  switch (group) {
    case FigureGroup::Identity: return "identity";
    case FigureGroup::Limits: return "limits";
    case FigureGroup::Issue: return "issue";
    case FigureGroup::Clocks: return "clocks";
    case FigureGroup::Memory: return "memory";
    case FigureGroup::Throughput: return "throughput";
    case FigureGroup::Timing: return "timing";
    case FigureGroup::Measured: return "measured";
  }
  return "?";
}

const std::vector<FigureSpec>& figureSpecs() {
  static const std::vector<FigureSpec> specs = buildSpecs();
  return specs;
}

const FigureSpec* findFigureSpec(const std::string& key) {
  for (const auto& spec : figureSpecs())
    if (spec.key == key) return &spec;
  const std::string prefix = kMeasuredPrefix;
  if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0) {
    static const FigureSpec measured{kMeasuredPrefix, FigureKind::Measured, FigureGroup::Measured,
                                     Required::No, setMeasured};
    return &measured;
  }
  return nullptr;
}

std::size_t figureOrder(const std::string& key) {
  const auto& specs = figureSpecs();
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].key == key) return i;
  return specs.size();
}

std::string checkFigureValue(FigureKind kind, const json& v) {
  switch (kind) {
    case FigureKind::PositiveInt:
      if (!isInteger(v) || v.get<long long>() < 1 || v.get<long long>() > 0x7fffffffLL)
        return "expected a positive integer";
      return "";
    case FigureKind::NonNegativeInt:
      if (!isInteger(v) || v.get<long long>() < 0) return "expected a non-negative integer";
      return "";
    case FigureKind::PositiveNumber:
      if (!v.is_number() || !(v.get<double>() > 0)) return "expected a positive number";
      return "";
    case FigureKind::NonNegativeNumber:
      if (!v.is_number() || !(v.get<double>() >= 0)) return "expected a non-negative number";
      return "";
    case FigureKind::Text:
      if (!v.is_string() || v.get<std::string>().empty()) return "expected a non-empty string";
      return "";
    case FigureKind::ComputeCapability: {
      static const std::regex pattern(R"(\d{1,2}\.\d)");
      if (!v.is_string() || !std::regex_match(v.get<std::string>(), pattern))
        return "expected a compute capability string like \"8.6\"";
      return "";
    }
    case FigureKind::IntTriple:
      if (!v.is_array() || v.size() != 3) return "expected an array of 3 positive integers";
      for (const auto& e : v)
        if (!isInteger(e) || e.get<long long>() < 1 || e.get<long long>() > 0x7fffffffLL)
          return "expected an array of 3 positive integers";
      return "";
    case FigureKind::AscendingInts: {
      if (!v.is_array() || v.empty()) return "expected a non-empty array of integers (bytes)";
      long long previous = -1;
      for (const auto& e : v) {
        if (!isInteger(e) || e.get<long long>() < 0 || e.get<long long>() > 0x7fffffffLL)
          return "expected a non-empty array of non-negative integers (bytes)";
        if (e.get<long long>() <= previous) return "expected strictly ascending values";
        previous = e.get<long long>();
      }
      return "";
    }
    case FigureKind::Granularity:
      if (!v.is_string() || (v != "warp" && v != "block")) return "expected \"warp\" or \"block\"";
      return "";
    case FigureKind::Measured:
      if (!v.is_object()) return "expected an object with value, unit, method and source";
      if (!v.contains("value") || !v["value"].is_number() || !(v["value"].get<double>() > 0))
        return "value: expected a positive number";
      for (const char* field : {"unit", "method", "source"})
        if (!v.contains(field) || !v[field].is_string() || v[field].get<std::string>().empty())
          return fmt::format("{}: expected a non-empty string", field);
      return "";
  }
  return "unknown kind";
}

std::string figureValueText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i) out += ", ";
      out += figureValueText(value[i]);
    }
    return out + "]";
  }
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  return value.dump();
}

}  // namespace teg::device::detail

namespace teg::device {

std::string figureGroupOf(const std::string& key) {
  const auto* spec = detail::findFigureSpec(key);
  return spec ? detail::figureGroupName(spec->group) : "";
}

const std::vector<std::string>& figureGroups() {
  static const std::vector<std::string> groups = {"identity", "limits",     "issue",  "clocks",
                                                  "memory",   "throughput", "timing", "measured"};
  return groups;
}

}  // namespace teg::device

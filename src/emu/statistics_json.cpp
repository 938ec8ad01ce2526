// JSON form of the execution statistics (teg run --json).
#include "teg/emu/statistics.hpp"

namespace teg::emu {

namespace {

nlohmann::json globalJson(const GlobalCounters& g, const MemoryGeometry& geometry) {
  nlohmann::json j = {{"requests", g.requests},
                      {"thread_accesses", g.threadAccesses},
                      {"bytes_requested", g.bytesRequested},
                      {"sectors", g.sectors},
                      {"lines", g.lines},
                      {"bytes_moved", g.bytesMoved(geometry.sectorBytes)},
                      {"efficiency", g.efficiency(geometry.sectorBytes)}};
  if (geometry.coalescing != trace::Coalescing::Sectors) {
    j["transactions"] = g.transactions;
    j["transaction_bytes"] = g.transactionBytes;
  }
  return j;
}

nlohmann::json sharedJson(const SharedCounters& s) {
  return {{"requests", s.requests},
          {"thread_accesses", s.threadAccesses},
          {"bytes_requested", s.bytesRequested},
          {"wavefronts", s.wavefronts},
          {"ideal_wavefronts", s.idealWavefronts},
          {"conflict_wavefronts", s.conflictWavefronts()}};
}

nlohmann::json simpleJson(const SimpleMemoryCounters& m) {
  return {{"requests", m.requests},
          {"thread_accesses", m.threadAccesses},
          {"bytes_requested", m.bytesRequested},
          {"distinct_addresses", m.distinctAddresses}};
}

}  // namespace

nlohmann::json geometryToJson(const MemoryGeometry& g) {
  return {{"shared_banks", g.sharedBanks},
          {"shared_bank_width_bytes", g.sharedBankWidth},
          {"shared_half_warp_requests", g.halfWarpShared},
          {"sector_bytes", g.sectorBytes},
          {"line_bytes", g.lineBytes},
          {"coalescing", g.coalescing == trace::Coalescing::Cc10Segments   ? "cc 1.0/1.1 segments"
                         : g.coalescing == trace::Coalescing::Cc13Segments ? "cc 1.2/1.3 segments"
                                                                           : "sectors"}};
}

nlohmann::json countersToJson(const ExecutionCounters& c, const MemoryGeometry& geometry) {
  nlohmann::json kinds = nlohmann::json::object();
  for (int i = 0; i < kInstrKinds; ++i)
    if (const auto n = c.byKind[static_cast<std::size_t>(i)]; n != 0)
      kinds[trace::instrKindName(static_cast<trace::InstrKind>(i))] = n;
  nlohmann::json classes = nlohmann::json::object();
  for (int i = 0; i < kInstructionClasses; ++i)
    if (const auto n = c.aluByClass[static_cast<std::size_t>(i)]; n != 0)
      classes[device::instructionClassName(static_cast<device::InstructionClass>(i))] = n;
  return {{"warp_instructions", c.warpInstructions},
          {"active_lanes", c.activeLanes},
          {"thread_instructions", c.threadInstructions},
          {"idle_lanes", c.idleLanes},
          {"predicated_off_lanes", c.predicatedOffLanes},
          {"simd_efficiency", c.simdEfficiency()},
          {"non_predicated_efficiency", c.nonPredicatedEfficiency()},
          {"by_kind", kinds},
          {"alu_by_class", classes},
          {"branches", c.branches},
          {"divergent_branches", c.divergentBranches},
          {"global", {{"loads", globalJson(c.globalLoads, geometry)},
                      {"stores", globalJson(c.globalStores, geometry)},
                      {"atomics", globalJson(c.globalAtomics, geometry)}}},
          {"shared", {{"loads", sharedJson(c.sharedLoads)},
                      {"stores", sharedJson(c.sharedStores)},
                      {"atomics", sharedJson(c.sharedAtomics)}}},
          {"local", simpleJson(c.local)},
          {"constant", simpleJson(c.constant)},
          {"param", simpleJson(c.param)}};
}

}  // namespace teg::emu

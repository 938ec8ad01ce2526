#include "kernel_info_json.hpp"

#include <fmt/format.h>

#include "teg/support/error.hpp"

namespace teg::trace {

using nlohmann::json;

namespace {

json dimToJson(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

Dim3 dimFromJson(const json& j) { return Dim3{j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>()}; }

}  // namespace

json kernelInfoToJson(const KernelInfo& kernel) {
  json instructions = json::array();
  for (const auto& s : kernel.instructions) {
    instructions.push_back({{"kind", static_cast<int>(s.kind)},
                            {"unit", static_cast<int>(s.unit)},
                            {"space", static_cast<int>(s.space)},
                            {"bytes", s.accessBytes},
                            {"defs", s.defs},
                            {"uses", s.uses},
                            {"file", s.sourceFile},
                            {"line", s.sourceLine},
                            {"text", s.text}});
    if (s.readsClock) instructions.back()["clock"] = true;
    if (s.cache != CachePolicy::Default) instructions.back()["cache"] = static_cast<int>(s.cache);
    if (s.fusedInto >= 0) instructions.back()["fused_into"] = s.fusedInto;
    if (kernel.isa == Isa::Sass) {
      const ControlWord& c = s.control;
      instructions.back()["control"] = {c.stall, c.yield, c.writeBarrier, c.readBarrier, c.waitMask, c.reuse};
      instructions.back()["slots"] = s.sourceSlots;
      // cp.async groups (optional, so traces written before they existed still read).
      if (c.commitGroup) instructions.back()["commit_group"] = true;
      if (c.groupWaitBarrier >= 0) instructions.back()["group_wait"] = {c.groupWaitBarrier, c.groupWaitKeep};
    }
  }
  json out = {{"name", kernel.name},
          {"grid", dimToJson(kernel.grid)},
          {"block", dimToJson(kernel.block)},
          {"registers", kernel.registersPerThread},
          {"shared", kernel.sharedBytesPerBlock},
          {"warp_size", kernel.warpSize},
          {"source_files", kernel.sourceFiles},
          {"instructions", instructions}};
  if (kernel.isa == Isa::Sass) out["isa"] = isaName(kernel.isa);  // absent: PTX (files before SASS)
  return out;
}

KernelInfo kernelInfoFromJson(const json& j, const std::string& where) {
  try {
    KernelInfo k;
    k.name = j.at("name").get<std::string>();
    k.grid = dimFromJson(j.at("grid"));
    k.block = dimFromJson(j.at("block"));
    k.registersPerThread = j.at("registers").get<std::uint32_t>();
    k.sharedBytesPerBlock = j.at("shared").get<std::uint32_t>();
    k.warpSize = j.at("warp_size").get<std::uint32_t>();
    k.sourceFiles = j.at("source_files").get<std::vector<std::string>>();
    const std::string isa = j.value("isa", std::string("ptx"));
    if (isa != "ptx" && isa != "sass") throw Error(fmt::format("{}: unknown isa '{}' (ptx or sass)", where, isa));
    k.isa = isa == "sass" ? Isa::Sass : Isa::Ptx;
    const auto& list = j.at("instructions");
    k.instructions.reserve(list.size());
    for (std::size_t pc = 0; pc < list.size(); ++pc) {
      const auto& i = list[pc];
      StaticInstruction s;
      s.pc = static_cast<std::uint32_t>(pc);
      s.kind = static_cast<InstrKind>(i.at("kind").get<int>());
      s.unit = static_cast<device::InstructionClass>(i.at("unit").get<int>());
      s.space = static_cast<MemorySpace>(i.at("space").get<int>());
      s.accessBytes = i.at("bytes").get<std::uint8_t>();
      s.defs = i.at("defs").get<std::vector<std::uint32_t>>();
      s.uses = i.at("uses").get<std::vector<std::uint32_t>>();
      s.sourceFile = i.at("file").get<std::int32_t>();
      s.sourceLine = i.at("line").get<std::int32_t>();
      s.text = i.at("text").get<std::string>();
      s.readsClock = i.value("clock", false);
      const int cache = i.value("cache", 0);
      s.cache = static_cast<CachePolicy>(cache);
      s.fusedInto = i.value("fused_into", -1);
      if (k.isa == Isa::Sass) {
        const auto& c = i.at("control");
        s.control.stall = c.at(0).get<std::uint8_t>();
        s.control.yield = c.at(1).get<bool>();
        s.control.writeBarrier = c.at(2).get<std::int8_t>();
        s.control.readBarrier = c.at(3).get<std::int8_t>();
        s.control.waitMask = c.at(4).get<std::uint8_t>();
        s.control.reuse = c.at(5).get<std::uint8_t>();
        s.sourceSlots = i.at("slots").get<OperandSlots>();
        s.control.commitGroup = i.value("commit_group", false);
        if (const auto g = i.find("group_wait"); g != i.end()) {
          s.control.groupWaitBarrier = g->at(0).get<std::int8_t>();
          s.control.groupWaitKeep = g->at(1).get<std::uint8_t>();
          if (s.control.groupWaitBarrier < 0 || s.control.groupWaitBarrier > 5)
            throw Error(fmt::format("{}: instruction {} waits for cp.async groups on barrier {} (0..5)", where, pc,
                                    s.control.groupWaitBarrier));
        }
        // Six scoreboard barriers (Jia 2018): indices 0..5, masks of 6 bits; reuse: 4 slots.
        if (s.control.stall > 15 || s.control.writeBarrier < -1 || s.control.writeBarrier > 5 ||
            s.control.readBarrier < -1 || s.control.readBarrier > 5 || s.control.waitMask > 0x3F || s.control.reuse > 0xF)
          throw Error(fmt::format("{}: instruction {} has an out-of-range control word", where, pc));
      }
      if (static_cast<int>(s.kind) > static_cast<int>(InstrKind::Unmodelled) ||
          static_cast<int>(s.unit) >= static_cast<int>(device::InstructionClass::Count_) ||
          static_cast<int>(s.space) > static_cast<int>(MemorySpace::Texture) || cache < 0 ||
          cache > static_cast<int>(CachePolicy::BypassL1))
        throw Error(fmt::format("{}: instruction {} has an out-of-range kind, unit, space or cache operator", where, pc));
      // A fused multiply names a later add of the same kernel (checked once all are read).
      if (s.fusedInto != -1 && (s.fusedInto <= static_cast<std::int32_t>(pc) ||
                                static_cast<std::size_t>(s.fusedInto) >= list.size()))
        throw Error(fmt::format("{}: instruction {} is fused into instruction {}, which is not a later instruction "
                                "of the kernel", where, pc, s.fusedInto));
      k.instructions.push_back(std::move(s));
    }
    return k;
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: malformed kernel header: {}", where, e.what()));
  }
}

}  // namespace teg::trace

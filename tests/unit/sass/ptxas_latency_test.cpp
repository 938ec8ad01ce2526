// The fixed latencies the device database takes from ptxas's schedule ("ptxas-stall",
// data/devices/README.md): on Volta and later the hardware does not interlock a fixed-latency
// result (Jia et al. 2018, arXiv:1804.06826, control information), so ptxas must space a producer
// and its first consumer by at least the instruction's latency, summing the stall counts of the
// control words in between, and in a dependent chain it spaces them by exactly that. The committed
// cubins of tests/unit/sass/inputs/dependent_chains.cu (scripts/regen-sass-inputs.sh) are read
// with nvdisasm (the tests skip without it); the figures are read from the JSON files directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

#include "teg/sass/parser.hpp"
#include "test_inputs.hpp"

namespace {

using namespace teg::sass;

bool writes(const Instruction& i, int reg) {
  return !i.operands.empty() && i.operands[0].kind == OperandKind::Register && i.operands[0].index == reg;
}

bool reads(const Instruction& i, int reg) {
  for (std::size_t k = 1; k < i.operands.size(); ++k)
    if (i.operands[k].kind == OperandKind::Register && i.operands[k].index == reg) return true;
  return false;
}

// The fewest cycles ptxas leaves between an `opcode` instruction and the next `opcode`
// instruction that reads its result, over the kernel's straight-line code; -1 when there is
// none or the producer is scoreboarded (a write barrier: variable latency, no number).
int tightestSpacing(const Function& f, const std::string& opcode) {
  int best = std::numeric_limits<int>::max();
  const auto& code = f.instructions;
  for (std::size_t p = 0; p < code.size(); ++p) {
    if (code[p].opcode != opcode || code[p].operands.empty()) continue;
    if (code[p].control.writeBarrier >= 0) return -1;
    const int reg = code[p].operands[0].index;
    int cycles = 0;
    for (std::size_t c = p; c + 1 < code.size(); ++c) {
      cycles += code[c].control.stall;
      const Instruction& next = code[c + 1];
      if (next.opcode == "BRA" || next.opcode == "EXIT") break;  // the chain's end: no consumer here
      if (next.opcode == opcode && reads(next, reg)) {
        best = std::min(best, cycles);
        break;
      }
      if (writes(next, reg)) break;
    }
  }
  return best == std::numeric_limits<int>::max() ? -1 : best;
}

// For each (producer on the MMA pipe?, consumer on the MMA pipe?) pair of a chain of `opcode`
// (HFMA2 runs on the FMA pipe, HFMA2.MMA on the tensor pipe), the fewest cycles ptxas leaves.
std::map<std::pair<bool, bool>, int> pipeSpacings(const Function& f, const std::string& opcode) {
  std::map<std::pair<bool, bool>, int> best;
  const auto& code = f.instructions;
  for (std::size_t p = 0; p < code.size(); ++p) {
    if (code[p].opcode != opcode || code[p].operands.empty() || code[p].control.writeBarrier >= 0) continue;
    const int reg = code[p].operands[0].index;
    int cycles = 0;
    for (std::size_t c = p; c + 1 < code.size(); ++c) {
      cycles += code[c].control.stall;
      const Instruction& next = code[c + 1];
      if (next.opcode == "BRA" || next.opcode == "EXIT") break;
      if (next.opcode == opcode && reads(next, reg)) {
        const std::pair<bool, bool> key{code[p].hasModifier("MMA"), next.hasModifier("MMA")};
        const auto it = best.find(key);
        best[key] = it == best.end() ? cycles : std::min(it->second, cycles);
        break;
      }
      if (writes(next, reg)) break;
    }
  }
  return best;
}

nlohmann::json figure(const std::string& arch, const std::string& key) {
  std::ifstream in(std::string(TEG_SOURCE_DIR) + "/data/devices/generic/" + arch + ".json");
  const nlohmann::json file = nlohmann::json::parse(in);
  return file["figures"].contains(key) ? file["figures"][key] : nlohmann::json();
}

// Each cubin is disassembled once for all the tests.
const Module& chains(const std::string& arch) {
  static std::map<std::string, Module> modules;
  auto it = modules.find(arch);
  if (it == modules.end()) {
    const std::string name = "dependent_chains." + arch + ".cubin";
    it = modules.emplace(arch, parseDisassembly(teg::toolchain::disassembleCubin(test::readInput(name)), name)).first;
  }
  return it->second;
}

const char* const kChainArchitectures[] = {"sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110"};

TEST(PtxasLatency, DependentFfmaSpacingIsTheFp32LatencyOfEveryGeneration) {
  // The method against independent figures: the fp32 FMA latency of each generation (measured:
  // Jia 2019 on the T4, Abdelkhalik 2022 on the A100, Jarmusch 2025 on the H100 PCIe; NVIDIA's
  // SM80/SM100 scheduling tables elsewhere) is the spacing ptxas gives dependent FFMAs: 4.
  REQUIRE_NVDISASM();
  for (const char* arch : kChainArchitectures) {
    SCOPED_TRACE(arch);
    const Module& m = chains(arch);
    const Function* f = m.findFunction("ffma_chain");
    ASSERT_NE(f, nullptr);
    const nlohmann::json fig = figure(arch, "timing.latency.fp32_fma");
    ASSERT_FALSE(fig.is_null());
    EXPECT_EQ(tightestSpacing(*f, "FFMA"), fig["value"].get<int>());
  }
}

TEST(PtxasLatency, SadLatencyIsPtxasSpacingOfDependentVabsdiff) {
  // sad.u32 is one VABSDIFF, a fixed-latency instruction (no write barrier), on sm_75 to sm_110;
  // the figure of each generation from Ampere on is sourced from this spacing (4 cycles), and
  // Turing's (measured on the TITAN RTX by NMSU: 4) agrees with it.
  REQUIRE_NVDISASM();
  for (const char* arch : kChainArchitectures) {
    SCOPED_TRACE(arch);
    const Module& m = chains(arch);
    const Function* f = m.findFunction("sad_chain");
    ASSERT_NE(f, nullptr);
    const int spacing = tightestSpacing(*f, "VABSDIFF");
    ASSERT_GT(spacing, 0) << "no dependent VABSDIFF pair, or ptxas scoreboards it";
    const nlohmann::json fig = figure(arch, "timing.latency.sad");
    ASSERT_FALSE(fig.is_null()) << "no timing.latency.sad";
    EXPECT_EQ(fig["value"].get<int>(), spacing);
    if (std::string(arch) != "sm_75") {
      EXPECT_EQ(fig["basis"], "documented");
      EXPECT_EQ(fig["source"], "ptxas-stall");
    }
  }
}

TEST(PtxasLatency, HopperSchedulesFp16ChainsAsAmpereDoes) {
  // The rule behind sm_90's fp16_fma figure (derived): ptxas alternates a dependent HFMA2 chain
  // between the FMA pipe and the tensor pipe (HFMA2.MMA) on sm_80 and on sm_90, with the same
  // spacings (FMA -> MMA 6 cycles, MMA -> FMA 10), so GH100's fp16 pipes have GA100's latencies
  // and sm_90 takes the FP16 latency of NVIDIA's SM80 table (5).
  REQUIRE_NVDISASM();
  const auto ampere = pipeSpacings(*chains("sm_80").findFunction("hfma2_chain"), "HFMA2");
  const auto hopper = pipeSpacings(*chains("sm_90").findFunction("hfma2_chain"), "HFMA2");
  ASSERT_EQ(ampere.size(), 2u);  // FMA -> MMA and MMA -> FMA
  EXPECT_EQ(ampere, hopper);
  EXPECT_EQ(ampere.at({false, true}), 6);
  EXPECT_EQ(ampere.at({true, false}), 10);
  const nlohmann::json sm80 = figure("sm_80", "timing.latency.fp16_fma");
  const nlohmann::json sm90 = figure("sm_90", "timing.latency.fp16_fma");
  ASSERT_FALSE(sm90.is_null());
  EXPECT_EQ(sm90["value"], sm80["value"]);
  EXPECT_EQ(sm90["basis"], "derived");
}

TEST(PtxasLatency, ScoreboardedProducerHasNoSpacing) {
  // The reader refuses what it cannot read: a write barrier means a variable latency.
  Function f;
  Instruction popc;
  popc.opcode = "POPC";
  popc.operands.resize(2);
  popc.operands[0].kind = OperandKind::Register;
  popc.operands[0].index = 2;
  popc.control.writeBarrier = 0;
  popc.control.stall = 1;
  Instruction next = popc;  // POPC R3, R2
  next.operands[0].index = 3;
  next.operands[1].kind = OperandKind::Register;
  next.operands[1].index = 2;
  next.control.writeBarrier = -1;
  f.instructions = {popc, next};
  EXPECT_EQ(tightestSpacing(f, "POPC"), -1);
  f.instructions[0].control.writeBarrier = -1;
  f.instructions[0].control.stall = 6;
  EXPECT_EQ(tightestSpacing(f, "POPC"), 6);
}

}  // namespace

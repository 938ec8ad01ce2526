#include "teg/sass/register_banks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "teg/support/data_dir.hpp"

namespace teg::sass {

std::optional<RegisterBankLayout> registerBankLayout(const std::string& arch, std::string* whyNot) {
  const std::string path = dataDirectory() + "/sass/register_banks.json";
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot read the register-bank layouts", path));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
    if (j.contains("layouts") && j["layouts"].contains(arch)) {
      const auto& l = j["layouts"][arch];
      RegisterBankLayout out;
      out.arch = arch;
      out.banks = l.at("banks").get<int>();
      out.readsPerBank = l.at("reads_per_bank").get<int>();
      out.penaltyCycles = l.at("penalty_cycles").get<double>();
      const std::string key = l.at("source").get<std::string>();
      out.source = j.at("sources").at(key).at("cite").get<std::string>();
      if (out.banks < 1 || out.readsPerBank < 1 || out.penaltyCycles < 0)
        throw Error(fmt::format("{}: {}: banks and reads_per_bank must be >= 1, penalty_cycles >= 0", path, arch));
      return out;
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: {}", path, e.what()));
  }
  if (whyNot) {
    const auto& archs = j.value("unpublished", nlohmann::json::object()).value("archs", nlohmann::json::array());
    const bool listed = std::find(archs.begin(), archs.end(), arch) != archs.end();
    *whyNot = listed ? fmt::format("no published register-bank layout for {} ({})", arch, path)
                     : fmt::format("{} is not in {}", arch, path);
  }
  return std::nullopt;
}

namespace {

// General registers an operand reads: the register itself (RZ reads nothing).
int readRegister(const Operand& op) {
  if (op.kind == OperandKind::Register && op.index >= 0 && op.index != kZeroRegister) return op.index;
  return -1;
}

// The ALU form: the first operand is a general register (the destination) and the opcode is not
// a store or other instruction whose first operand is read. Wide forms (IMAD.WIDE, DFMA, .64)
// read register pairs, whose bank use Jia does not give: left out.
bool aluForm(const Instruction& ins) {
  if (ins.operands.empty() || ins.operands.front().kind != OperandKind::Register) return false;
  if (accessBytes(ins)) return false;  // memory: loads write operand 0 but read an address
  if (ins.hasModifier("WIDE") || ins.hasModifier("64") || ins.opcode.front() == 'D') return false;
  return true;
}

}  // namespace

int bankConflictCycles(const Function& function, std::size_t index, const RegisterBankLayout& layout) {
  const Instruction& ins = function.instructions.at(index);
  if (!aluForm(ins)) return 0;
  const Instruction* previous = index > 0 ? &function.instructions[index - 1] : nullptr;
  // The previous instruction in address order is the one the warp issued before when there is no
  // label between them (a label may be reached by a jump; then nothing is assumed cached).
  if (previous)
    for (const auto& [name, at] : function.labels)
      if (at == index) previous = nullptr;
  std::set<int> reads;
  for (std::size_t slot = 1; slot < ins.operands.size(); ++slot) {
    const int r = readRegister(ins.operands[slot]);
    if (r < 0) continue;
    const bool cached = previous && slot < previous->operands.size() && previous->operands[slot].reuse &&
                        readRegister(previous->operands[slot]) == r;
    if (!cached) reads.insert(r);
  }
  std::map<int, int> perBank;
  for (const int r : reads) ++perBank[r % layout.banks];
  int cycles = 1;
  for (const auto& [bank, n] : perBank) cycles = std::max(cycles, (n + layout.readsPerBank - 1) / layout.readsPerBank);
  return cycles - 1;
}

}  // namespace teg::sass

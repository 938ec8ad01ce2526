// Volta's SASS through CUDA 11.8's ptxas and nvdisasm. CUDA 13 neither compiles for sm_70/sm_72
// nor disassembles their cubins ("CUDA architecture SM70 is deprecated"), but the PTX nvcc 13
// writes for the oldest target it has (compute_75) is, for the kernels teg runs, PTX that
// CUDA 11.8's ptxas also assembles for sm_70: only its header names a newer ISA version and
// target. scripts/install-deps.sh unpacks those two tools from Debian 12's non-free
// nvidia-cuda-toolkit 11.8 into build/tools/cuda11.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <tuple>
#include <vector>

#include "process.hpp"
#include "temp_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::toolchain {

namespace fs = std::filesystem;

namespace {

// The newest PTX ISA CUDA 11.8's ptxas reads (PTX ISA 7.8, CUDA 11.8 release notes).
constexpr int kVoltaPtxasMajor = 7;
constexpr int kVoltaPtxasMinor = 8;

}  // namespace

int cubinSmVersion(std::string_view cubin) {
  // ELF header: e_ident[EI_OSABI] at 7, e_ident[EI_ABIVERSION] at 8, e_flags at 0x30 (ELF64).
  if (cubin.size() < 0x34 || cubin.substr(0, 4) != "\x7f" "ELF" || cubin[4] != 2) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(cubin[i])); };
  const unsigned flags = byte(0x30) | byte(0x31) << 8 | byte(0x32) << 16 | byte(0x33) << 24;
  // CUDA's ELF ABI version 8 (CUDA 12.8+ cubins) keeps the SM in bits 8-15; the older ABI (7)
  // in bits 0-7 (ptxas 11.8 for sm_70: e_flags 0x460546, SM 0x46 = 70).
  return static_cast<int>(byte(8) >= 8 ? (flags >> 8) & 0xff : flags & 0xff);
}

std::string ptxForVolta(const std::string& ptx, const std::string& arch) {
  // The module's first `.version` and `.target` directives (nvcc writes them at the top, each on
  // its own line); a plain scan, not std::regex, whose backtracking over a megabyte-sized module
  // could exhaust the stack.
  const auto directive = [&](std::string_view name) -> std::pair<std::size_t, std::size_t> {
    for (std::size_t at = 0; at < ptx.size();) {
      const std::size_t end = std::min(ptx.find('\n', at), ptx.size());
      std::string_view line(ptx.data() + at, end - at);
      const std::size_t first = line.find_first_not_of(" \t");
      if (first != std::string_view::npos && line.substr(first).starts_with(name) &&
          line.size() > first + name.size() && (line[first + name.size()] == ' ' || line[first + name.size()] == '\t'))
        return {at + first, end};
      at = end + 1;
    }
    throw Error(fmt::format("the PTX has no {} directive", name));
  };
  const auto [versionAt, versionEnd] = directive(".version");
  const auto [targetAt, targetEnd] = directive(".target");
  const std::string versionText = ptx.substr(versionAt + 8, versionEnd - versionAt - 8);
  int major = 0, minor = 0;
  if (std::sscanf(versionText.c_str(), " %d.%d", &major, &minor) != 2)
    throw Error(fmt::format("the PTX's .version '{}' is not MAJOR.MINOR", versionText));
  const bool lower = major > kVoltaPtxasMajor || (major == kVoltaPtxasMajor && minor > kVoltaPtxasMinor);
  // The target line may name more than the architecture (".target sm_75, texmode_independent"):
  // only its first word changes.
  std::string targetLine = ptx.substr(targetAt, targetEnd - targetAt);
  const std::size_t word = targetLine.find_first_not_of(" \t", 7);
  const std::size_t wordEnd = std::min(targetLine.find_first_of(" \t,", word == std::string::npos ? 7 : word), targetLine.size());
  if (word == std::string::npos) throw Error("the PTX's .target names no architecture");
  targetLine.replace(word, wordEnd - word, arch);
  std::string out;
  out.reserve(ptx.size() + 16);
  // The two directives in file order, each replaced by its new text.
  const std::string versionLine = lower ? fmt::format(".version {}.{}", kVoltaPtxasMajor, kVoltaPtxasMinor)
                                        : ptx.substr(versionAt, versionEnd - versionAt);
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> edits = {{versionAt, versionEnd, versionLine},
                                                                          {targetAt, targetEnd, targetLine}};
  std::sort(edits.begin(), edits.end());
  std::size_t at = 0;
  for (const auto& [from, to, text] : edits) {
    out.append(ptx, at, from - at);
    out += text;
    at = to;
  }
  out.append(ptx, at, std::string::npos);
  return out;
}

CompileResult assembleForVolta(const std::string& ptx, const std::string& arch, std::chrono::milliseconds timeout) {
  if (arch != "sm_70" && arch != "sm_72") throw Error("assembleForVolta: " + arch + " is not a Volta architecture");
  const auto ptxas = findVoltaTool("ptxas");
  if (!ptxas)
    throw Error("CUDA 11.8's ptxas not found (scripts/install-deps.sh unpacks it into build/tools/cuda11; or set "
                "TEG_CUDA11_BIN)");
  TempDir scratch;
  const fs::path in = scratch.path() / "module.ptx";
  const fs::path out = scratch.path() / "module.cubin";
  {
    std::ofstream f(in, std::ios::binary);
    f << ptxForVolta(ptx, arch);
    if (!f) throw Error("cannot write " + in.string());
  }
  CompileResult result;
  result.ptx = ptx;
  result.command = {*ptxas, "-arch=" + arch, "-lineinfo", "-v", "-o", out.string(), in.string()};
  const ProcessResult run = runProcess(result.command, scratch.path(), timeout);
  if (run.timedOut) throw Error(*ptxas + " did not finish within " + std::to_string(timeout.count() / 1000) + " s");
  result.log = run.out + run.err;
  if (run.exitCode != 0)
    throw Error("CUDA 11.8's ptxas could not assemble the PTX for " + arch + " (exit " + std::to_string(run.exitCode) +
                "):\n" + result.log);
  result.cubin = readInputFile(out.string());
  result.kernels = parsePtxasVerbose(result.log);
  for (auto& k : result.kernels)
    if (k.arch.empty()) k.arch = arch;
  return result;
}

}  // namespace teg::toolchain

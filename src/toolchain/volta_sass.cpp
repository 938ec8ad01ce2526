// Volta's SASS through CUDA 11.8's ptxas and nvdisasm. CUDA 13 neither compiles for sm_70/sm_72
// nor disassembles their cubins ("CUDA architecture SM70 is deprecated"), but the PTX nvcc 13
// writes for the oldest target it has (compute_75) is, for the kernels teg runs, PTX that
// CUDA 11.8's ptxas also assembles for sm_70: only its header names a newer ISA version and
// target. scripts/install-deps.sh unpacks those two tools from Debian 12's non-free
// nvidia-cuda-toolkit 11.8 into build/tools/cuda11.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "process.hpp"
#include "temp_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

#ifndef TEG_TOOLS_DIR
#define TEG_TOOLS_DIR ""
#endif

namespace teg::toolchain {

namespace fs = std::filesystem;

namespace {

// The newest PTX ISA CUDA 11.8's ptxas reads (PTX ISA 7.8, CUDA 11.8 release notes).
constexpr int kVoltaPtxasMajor = 7;
constexpr int kVoltaPtxasMinor = 8;

bool isExecutableFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> findVoltaTool(const std::string& tool) {
  std::vector<fs::path> dirs;
  if (const char* d = std::getenv("TEG_CUDA11_BIN"); d != nullptr && *d != '\0') dirs.emplace_back(d);
  if (const char* d = std::getenv("TEG_TOOLS_DIR"); d != nullptr && *d != '\0') dirs.push_back(fs::path(d) / "cuda11/usr/bin");
  if (const std::string built = TEG_TOOLS_DIR; !built.empty()) dirs.push_back(fs::path(built) / "cuda11/usr/bin");
  for (const auto& dir : dirs)
    if (isExecutableFile(dir / tool)) return (dir / tool).string();
  return std::nullopt;
}

bool haveVoltaToolchain() { return findVoltaTool("ptxas") && findVoltaTool("nvdisasm"); }

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
  static const std::regex version(R"(^\s*\.version\s+(\d+)\.(\d+))", std::regex::multiline);
  static const std::regex target(R"(^(\s*\.target\s+)sm_\d+[a-z]?)", std::regex::multiline);
  std::smatch m;
  if (!std::regex_search(ptx, m, version)) throw Error("the PTX has no .version directive");
  const int major = std::stoi(m[1].str()), minor = std::stoi(m[2].str());
  std::string out = ptx;
  if (major > kVoltaPtxasMajor || (major == kVoltaPtxasMajor && minor > kVoltaPtxasMinor))
    out = std::regex_replace(out, version, ".version " + std::to_string(kVoltaPtxasMajor) + "." +
                                               std::to_string(kVoltaPtxasMinor),
                             std::regex_constants::format_first_only);
  if (!std::regex_search(out, target)) throw Error("the PTX has no .target directive");
  return std::regex_replace(out, target, "$1" + arch, std::regex_constants::format_first_only);
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

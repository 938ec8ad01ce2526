// Reads the `ptxas info` lines that `nvcc -Xptxas -v` prints. The format (CUDA 11-13):
//
//   ptxas info    : 0 bytes gmem, 256 bytes cmem[3]              <- module: __device__, __constant__
//   ptxas info    : Compiling entry function '_Z2k1PKfPfi' for 'sm_80'
//   ptxas info    : Function properties for _Z2k1PKfPfi
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 372 bytes cmem[0]
//   ptxas info    : Function properties for _Z6helperfPf     <- a device function (no "Used" line
//       136 bytes stack frame, ...                               unless compiled separately, -rdc)
//
// With a stack frame, CUDA 13 adds "N bytes cumulative stack size" to the "Used" line. Older toolkits
// also print "N bytes lmem" and "A+B bytes smem" on the "Used" line; both are read.
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <utility>

#include "teg/support/kernel_name.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::toolchain {

namespace {

const std::regex& compilingRe() {
  static const std::regex re(R"(Compiling (entry )?function '([^']+)' for '([^']+)')");
  return re;
}
const std::regex& propertiesRe() {
  static const std::regex re(R"(Function properties for (\S+))");
  return re;
}
// "<number>[+<number>] bytes <what>" or "used <number> barriers" or "Used <number> registers".
const std::regex& amountRe() {
  static const std::regex re(
      R"((\d+)(?:\+(\d+))? bytes (gmem|smem|lmem|stack frame|cumulative stack size|spill stores|spill loads|cmem\[(\d+)\]))");
  return re;
}
const std::regex& registersRe() {
  static const std::regex re(R"(Used (\d+) registers)");
  return re;
}
const std::regex& barriersRe() {
  static const std::regex re(R"(used (\d+) barriers)");
  return re;
}

int toInt(const std::string& s) { return static_cast<int>(std::strtol(s.c_str(), nullptr, 10)); }

class LogParser {
 public:
  // Functions named before the first "Compiling ... for 'sm_XY'" line (device functions under
  // -rdc come first) belong to the architecture named next.
  std::vector<KernelResources> take() {
    std::string next;
    for (auto it = functions_.rbegin(); it != functions_.rend(); ++it) {
      if (it->arch.empty()) it->arch = next;
      else next = it->arch;
    }
    return std::move(functions_);
  }

  void line(const std::string& text) {
    std::smatch m;
    if (std::regex_search(text, m, compilingRe())) {
      arch_ = m[3];
      current_ = find(m[2], /*isEntry=*/m[1].matched);
      return;
    }
    if (std::regex_search(text, m, propertiesRe())) {
      current_ = find(m[1], /*isEntry=*/false);
      return;
    }
    const bool isUsage = std::regex_search(text, m, registersRe());
    if (isUsage && current_) {
      KernelResources& f = functions_[*current_];
      f.hasUsageLine = true;
      f.registers = toInt(m[1]);
      if (std::regex_search(text, m, barriersRe())) f.barriers = toInt(m[1]);
    }
    const bool isModule = text.find("bytes gmem") != std::string::npos;
    if (isModule) moduleConstant_ = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), amountRe()), end; it != end; ++it)
      amount(*it, isModule);
  }

 private:
  // The entry for `mangled` on the current architecture, created on first mention.
  std::size_t find(const std::string& mangled, bool isEntry) {
    const auto key = std::make_pair(mangled, arch_);
    if (auto it = index_.find(key); it != index_.end()) {
      if (isEntry) functions_[it->second].isEntry = true;
      return it->second;
    }
    KernelResources f;
    f.mangledName = mangled;
    f.name = demangle(mangled);
    f.arch = arch_;
    f.isEntry = isEntry;
    f.constantBytes = moduleConstant_;
    f.globalBytes = moduleGlobal_;
    functions_.push_back(f);
    index_.emplace(key, functions_.size() - 1);
    return functions_.size() - 1;
  }

  void amount(const std::smatch& m, bool isModule) {
    const int bytes = toInt(m[1]) + (m[2].matched ? toInt(m[2]) : 0);
    const std::string what = m[3];
    if (isModule) {  // module-wide figures, inherited by the functions named after them
      if (what == "gmem") moduleGlobal_ = bytes;
      if (m[4].matched && toInt(m[4]) != 0) moduleConstant_ += bytes;
      return;
    }
    if (!current_) return;
    KernelResources& f = functions_[*current_];
    if (what == "smem") f.staticSharedBytes = bytes;
    else if (what == "lmem") f.localBytes = bytes;
    else if (what == "stack frame") f.stackFrameBytes = bytes;
    else if (what == "cumulative stack size") f.cumulativeStackBytes = bytes;
    else if (what == "spill stores") f.spillStoreBytes = bytes;
    else if (what == "spill loads") f.spillLoadBytes = bytes;
    else if (m[4].matched) {
      if (toInt(m[4]) == 0) f.parameterBytes = bytes;
      else f.constantBytes += bytes;  // a per-function constant bank (older toolkits)
    }
  }

  std::vector<KernelResources> functions_;
  std::map<std::pair<std::string, std::string>, std::size_t> index_;
  std::optional<std::size_t> current_;
  std::string arch_;
  int moduleConstant_ = 0;
  int moduleGlobal_ = 0;
};

}  // namespace

std::string demangle(const std::string& mangled) { return teg::demangle(mangled); }

std::vector<KernelResources> parsePtxasVerbose(const std::string& log) {
  LogParser parser;
  std::istringstream in(log);
  for (std::string text; std::getline(in, text);) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    parser.line(text);
  }
  return parser.take();
}

}  // namespace teg::toolchain

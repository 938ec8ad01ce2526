// Finding a kernel by the name a user writes ("saxpy") in a module whose entries are mangled
// ("_Z5saxpyifPKfPf"): a minimal Itanium demangler for the function-name part only.
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "teg/emu/emulator.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

namespace {

// Reads <length><identifier> at pos; returns false when there is none.
bool readSourceName(std::string_view s, std::size_t& pos, std::string& out) {
  std::size_t len = 0, p = pos;
  if (p >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p]))) return false;
  while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) len = len * 10 + static_cast<std::size_t>(s[p++] - '0');
  if (p + len > s.size()) return false;
  out = std::string(s.substr(p, len));
  pos = p + len;
  return true;
}

}  // namespace

std::string demangledBaseName(std::string_view symbol) {
  if (symbol.size() < 3 || symbol.substr(0, 2) != "_Z") return std::string(symbol);
  std::size_t pos = 2;
  if (symbol[pos] == 'L') ++pos;  // internal linkage
  std::string name;
  if (symbol[pos] == 'N') {
    ++pos;
    while (pos < symbol.size() && (symbol[pos] == 'K' || symbol[pos] == 'V' || symbol[pos] == 'r')) ++pos;
    std::string part;
    while (pos < symbol.size() && symbol[pos] != 'E') {
      if (!readSourceName(symbol, pos, part)) break;
      name += name.empty() ? part : "::" + part;
      if (pos < symbol.size() && symbol[pos] == 'I') break;  // template arguments follow
    }
  } else if (!readSourceName(symbol, pos, name)) {
    return std::string(symbol);
  }
  return name.empty() ? std::string(symbol) : name;
}

const ptx::Function& findKernel(const ptx::Module& module, std::string_view name) {
  const ptx::Function* exact = nullptr;
  std::vector<const ptx::Function*> matches;
  std::string entries;
  for (const ptx::Function& f : module.functions) {
    if (!f.isEntry) continue;
    const std::string base = demangledBaseName(f.name);
    entries += fmt::format("{}{}{}", entries.empty() ? "" : ", ", base,
                           base == f.name ? "" : fmt::format(" ({})", f.name));
    if (f.name == name) exact = &f;
    const auto colon = base.rfind("::");
    if (base == name || (colon != std::string::npos && base.substr(colon + 2) == name)) matches.push_back(&f);
  }
  if (exact) return *exact;
  if (matches.size() == 1) return *matches.front();
  const std::string where = module.fileName.empty() ? "the module" : module.fileName;
  if (matches.size() > 1) {
    std::string names;
    for (const auto* f : matches) names += fmt::format("{}{}", names.empty() ? "" : ", ", f->name);
    throw Error(fmt::format("kernel name '{}' is ambiguous in {}: {}; give the mangled name", name, where, names));
  }
  if (entries.empty()) throw Error(fmt::format("{} has no kernel (.entry); looked for '{}'", where, name));
  throw Error(fmt::format("no kernel '{}' in {}; its kernels are: {}", name, where, entries));
}

}  // namespace teg::emu

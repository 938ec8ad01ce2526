#include "symbol_init.hpp"

#include <cstring>

#include <fmt/format.h>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/isa.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

namespace {

// Module variables a symbol initialiser can name: `.const` and `.global` ones. A name matches
// the PTX name or the source name it demangles to ("coeffs", "ns::coeffs", or "coeffs" for
// "_ZN2ns6coeffsE" when that is unique; `static` ones are "_ZL6coeffs").
std::vector<std::size_t> candidates(const ptx::Module& module, const std::string& name, std::string& known) {
  std::vector<std::size_t> exact, byBase;
  for (std::size_t i = 0; i < module.globals.size(); ++i) {
    const ptx::Variable& v = module.globals[i];
    if (v.space != ptx::StateSpace::Const && v.space != ptx::StateSpace::Global) continue;
    const std::string base = demangledBaseName(v.name);
    known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", base, v.space == ptx::StateSpace::Const ? "__constant__" : "__device__");
    if (v.name == name) exact.push_back(i);
    const auto colon = base.rfind("::");
    if (base == name || (colon != std::string::npos && base.substr(colon + 2) == name)) byBase.push_back(i);
  }
  return exact.empty() ? byBase : exact;
}

// Whether elements of `type` may fill a variable declared with PTX type `declared`: any type
// fills a byte array (nvcc declares `float c[5]` as `.b8 c[20]`); otherwise the sizes must match
// and a float declaration wants a float, an integer one an integer (.bN takes either).
bool fitsDeclaration(ptx::Type declared, ScalarType type) {
  const int bits = ptx::typeBits(declared);
  if (bits == 8 && !ptx::isFloatType(declared)) return true;
  if (bits != scalarTypeSize(type) * 8) return false;
  if (ptx::isFloatType(declared)) return isFloatingPoint(type);
  const std::string_view spelling = ptx::typeName(declared);
  if (spelling.size() > 1 && spelling[1] == 'b') return true;
  return !isFloatingPoint(type);
}

}  // namespace

namespace {

// The index in Module::globals of the variable `name` names; throws when there is none or several.
std::size_t findSymbol(const ptx::Module& module, const std::string& name, const std::string& where) {
  std::string known;
  const std::vector<std::size_t> found = candidates(module, name, known);
  if (found.empty())
    throw Error(fmt::format("{}: the module has no __constant__ or __device__ variable '{}' ({})", where, name,
                            known.empty() ? "it has none" : "it has: " + known));
  if (found.size() > 1)
    throw Error(fmt::format("{}: '{}' names {} variables; give the PTX name", where, name, found.size()));
  return found.front();
}

// Copies the variable's new contents (exactly its size) into the constant bank or its allocation.
void writeSymbol(const ptx::Module& module, ModuleLayout& layout, GlobalMemory& global, std::size_t index,
                 std::span<const std::byte> bytes, const std::string& where) {
  const ptx::Variable& v = module.globals[index];
  if (v.space == ptx::StateSpace::Const) {
    const std::uint64_t offset = layout.globalAddress[index];
    if (offset + bytes.size() > layout.constBank.size())
      throw Error(fmt::format("{}: internal error: '{}' lies outside the constant bank", where, v.name));
    std::memcpy(layout.constBank.data() + offset, bytes.data(), bytes.size());
    return;
  }
  Allocation* a = global.byName(v.name);
  if (!a || a->size < bytes.size()) throw Error(fmt::format("{}: internal error: '{}' has no allocation", where, v.name));
  std::memcpy(a->data.data(), bytes.data(), bytes.size());
}

}  // namespace

void fillSymbol(const ptx::Module& module, ModuleLayout& layout, GlobalMemory& global, const std::string& name,
                ScalarType type, const BufferInit& init, const std::string& where) {
  const std::size_t index = findSymbol(module, name, where);
  const ptx::Variable& v = module.globals[index];
  const std::uint64_t size = v.sizeBytes();
  const auto elementBytes = static_cast<std::uint64_t>(scalarTypeSize(type));
  if (!fitsDeclaration(v.type, type))
    throw Error(fmt::format("{}: '{}' is declared {}{}, which {} elements cannot fill", where, v.name,
                            ptx::typeName(v.type), v.dims.empty() ? "" : " array", scalarTypeName(type)));
  if (size == 0 || size % elementBytes != 0)
    throw Error(fmt::format("{}: '{}' has {} bytes, not a whole number of {} elements", where, v.name, size,
                            scalarTypeName(type)));
  const std::uint64_t count = size / elementBytes;
  const std::string what = fmt::format("{} ('{}', {} bytes = {} × {})", where, v.name, size, count, scalarTypeName(type));
  writeSymbol(module, layout, global, index, materializeBuffer(type, count, init, what), where);
}

std::span<const std::byte> symbolBytes(const ptx::Module& module, const ModuleLayout& layout, const GlobalMemory& global,
                                       const std::string& name, const std::string& where) {
  const std::size_t index = findSymbol(module, name, where);
  const ptx::Variable& v = module.globals[index];
  if (v.space == ptx::StateSpace::Const)
    return std::span<const std::byte>(layout.constBank).subspan(layout.globalAddress[index], v.sizeBytes());
  const Allocation* a = global.byName(v.name);
  if (!a) throw Error(fmt::format("{}: internal error: '{}' has no allocation", where, v.name));
  return a->data;
}

void fillSymbolBytes(const ptx::Module& module, ModuleLayout& layout, GlobalMemory& global, const std::string& name,
                     std::span<const std::byte> bytes, const std::string& describe, const std::string& where) {
  const std::size_t index = findSymbol(module, name, where);
  const ptx::Variable& v = module.globals[index];
  if (bytes.size() != v.sizeBytes())
    throw Error(fmt::format("{}: {} bytes ({}) for '{}', which has {} bytes", where, bytes.size(), describe, v.name,
                            v.sizeBytes()));
  writeSymbol(module, layout, global, index, bytes, where);
}

}  // namespace teg::emu

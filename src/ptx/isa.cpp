// Lookup tables generated from the *.def tables: spelling <-> enum, timing class, destination rule.
#include "teg/ptx/isa.hpp"

#include <fmt/format.h>

#include "name_hash.hpp"

#include <array>
#include <string>
#include <unordered_map>

namespace teg::ptx {
namespace {

struct TypeRow {
  std::string_view name;
  int bits;
};
constexpr TypeRow kTypes[] = {
#define TEG_PTX_TYPE(e, s, b) {s, b},
#include "teg/ptx/types.def"
#undef TEG_PTX_TYPE
};

struct QualifierRow {
  std::string_view name;
  QualifierCategory category;
};
constexpr QualifierRow kQualifiers[] = {
#define TEG_PTX_TYPE(e, s, b) {s, QualifierCategory::Type},
#include "teg/ptx/types.def"
#undef TEG_PTX_TYPE
#define TEG_PTX_QUALIFIER(e, s, c) {s, QualifierCategory::c},
#include "teg/ptx/qualifiers.def"
#undef TEG_PTX_QUALIFIER
};
static_assert(std::size(kQualifiers) == static_cast<std::size_t>(Qualifier::Count));

struct SregRow {
  std::string_view name;
  bool vector;
};
constexpr SregRow kSregs[] = {
#define TEG_PTX_SREG(e, s, v) {s, v},
#include "teg/ptx/special_registers.def"
#undef TEG_PTX_SREG
};

constexpr OpcodeInfo kOpcodes[] = {
#define TEG_PTX_OPCODE(e, m, rule, cls, dest, modelled) \
  {m, ClassRule::rule, InstrClass::cls, DestRule::dest, modelled},
#include "teg/ptx/opcodes.def"
#undef TEG_PTX_OPCODE
    {"<unknown>", ClassRule::Fixed, InstrClass::Unknown, DestRule::IfRegister, false},
};
static_assert(std::size(kOpcodes) == static_cast<std::size_t>(Opcode::Count));

constexpr std::string_view kClassNames[] = {
    "int",           "int.mul",      "fp16",          "fp32",         "fp64",
    "sfu",           "convert",      "move",          "load.global",  "store.global",
    "load.shared",   "store.shared", "load.local",    "store.local",  "load.const",
    "load.param",    "store.param",  "load.generic",  "store.generic", "atomic.global",
    "atomic.shared", "atomic.generic", "texture",     "warp",         "barrier",
    "fence",         "branch",       "call",          "return",       "tensor",
    "async.copy",    "misc",         "unknown",
};
static_assert(std::size(kClassNames) == static_cast<std::size_t>(InstrClass::Count));

template <typename Enum, typename Rows, typename NameOf>
std::unordered_map<std::string_view, Enum, detail::NameHash> makeIndex(const Rows& rows, NameOf nameOf) {
  std::unordered_map<std::string_view, Enum, detail::NameHash> index;
  index.reserve(std::size(rows) * 2);
  for (std::size_t i = 0; i < std::size(rows); ++i) index.emplace(nameOf(rows[i]), static_cast<Enum>(i));
  return index;
}

}  // namespace

std::string_view typeName(Type t) {
  return t == Type::None ? std::string_view{} : kTypes[static_cast<int>(t)].name;
}
int typeBits(Type t) { return t == Type::None ? 0 : kTypes[static_cast<int>(t)].bits; }

std::optional<Type> lookupType(std::string_view spelling) {
  static const auto index = makeIndex<Type>(kTypes, [](const TypeRow& r) { return r.name; });
  auto it = index.find(spelling);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

bool isFloatType(Type t) {
  switch (t) {
    case Type::F16: case Type::F16x2: case Type::Bf16: case Type::Bf16x2: case Type::Tf32:
    case Type::F32: case Type::F64: case Type::E4m3: case Type::E5m2: case Type::E4m3x2:
    case Type::E5m2x2:
      return true;
    default:
      return false;
  }
}

bool isSignedType(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

std::string_view qualifierName(Qualifier q) {
  const auto i = static_cast<std::uint16_t>(q);
  return i < kFirstInternedQualifier ? kQualifiers[i].name : std::string_view{};
}

QualifierCategory qualifierCategory(Qualifier q) {
  const auto i = static_cast<std::uint16_t>(q);
  return i < kFirstInternedQualifier ? kQualifiers[i].category : QualifierCategory::Unknown;
}

std::optional<Qualifier> lookupQualifier(std::string_view spelling) {
  static const auto index =
      makeIndex<Qualifier>(kQualifiers, [](const QualifierRow& r) { return r.name; });
  auto it = index.find(spelling);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

std::string_view specialRegisterName(SpecialRegister r) { return kSregs[static_cast<int>(r)].name; }
bool specialRegisterIsVector(SpecialRegister r) { return kSregs[static_cast<int>(r)].vector; }

std::optional<SpecialRegister> lookupSpecialRegister(std::string_view spelling) {
  static const auto index =
      makeIndex<SpecialRegister>(kSregs, [](const SregRow& r) { return r.name; });
  auto it = index.find(spelling);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

std::string_view instrClassName(InstrClass c) { return kClassNames[static_cast<int>(c)]; }

const OpcodeInfo& opcodeInfo(Opcode op) { return kOpcodes[static_cast<int>(op)]; }

std::optional<Opcode> lookupOpcode(std::string_view mnemonic) {
  static const auto index = [] {
    std::unordered_map<std::string_view, Opcode, detail::NameHash> m;
    for (int i = 0; i < static_cast<int>(Opcode::Unknown); ++i)
      m.emplace(kOpcodes[i].mnemonic, static_cast<Opcode>(i));
    return m;
  }();
  auto it = index.find(mnemonic);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

std::string_view stateSpaceName(StateSpace s) {
  switch (s) {
    case StateSpace::Generic: return "";
    case StateSpace::Reg: return ".reg";
    case StateSpace::Global: return ".global";
    case StateSpace::Shared: return ".shared";
    case StateSpace::SharedCluster: return ".shared::cluster";
    case StateSpace::Local: return ".local";
    case StateSpace::Const: return ".const";
    case StateSpace::Param: return ".param";
    case StateSpace::Tex: return ".tex";
  }
  return "";
}

namespace {
struct VersionRange {
  unsigned major, lastMinor;
};
constexpr VersionRange kVersions[] = {
#define TEG_PTX_VERSIONS(major, lastMinor) {major, lastMinor},
#include "teg/ptx/versions.def"
#undef TEG_PTX_VERSIONS
};
}  // namespace

bool isSupportedPtxVersion(unsigned major, unsigned minor) {
  for (const auto& v : kVersions)
    if (v.major == major) return minor <= v.lastMinor;
  return false;
}

std::string supportedPtxVersions() {
  std::string out;
  for (const auto& v : kVersions) {
    if (!out.empty()) out += ", ";
    out += v.lastMinor == 0 ? fmt::format("{}.0", v.major) : fmt::format("{}.0-{}.{}", v.major, v.major, v.lastMinor);
  }
  return out;
}

}  // namespace teg::ptx

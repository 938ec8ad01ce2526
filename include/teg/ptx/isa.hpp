// The PTX vocabulary as data: types, qualifiers, special registers and opcodes, each generated
// from one table (*.def beside this header) so that enum <-> spelling <-> timing class cannot
// drift apart. Nothing here knows about a particular module; see ir.hpp for that.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace teg::ptx {

enum class Type : std::uint8_t {
#define TEG_PTX_TYPE(e, s, b) e,
#include "teg/ptx/types.def"
#undef TEG_PTX_TYPE
  None,  // no type qualifier
};
inline constexpr int kTypeCount = static_cast<int>(Type::None);

std::string_view typeName(Type t);  // ".f32"; "" for None
int typeBits(Type t);               // 32 for .f32; 0 for None
std::optional<Type> lookupType(std::string_view spelling);
bool isFloatType(Type t);   // f16 f16x2 bf16 bf16x2 tf32 f32 f64 e4m3 ...
bool isSignedType(Type t);  // s8..s64

enum class QualifierCategory : std::uint8_t {
  Type, Space, Vector, Rounding, Compare, Operation, Scope, Order, Cache, Geometry, Other, Unknown
};

// Qualifier ids: the types first (id == Type value), then qualifiers.def, then (from
// kFirstInternedQualifier on) spellings interned by one module (Module::internedNames).
enum class Qualifier : std::uint16_t {
#define TEG_PTX_TYPE(e, s, b) Type##e,
#include "teg/ptx/types.def"
#undef TEG_PTX_TYPE
#define TEG_PTX_QUALIFIER(e, s, c) e,
#include "teg/ptx/qualifiers.def"
#undef TEG_PTX_QUALIFIER
  Count
};
inline constexpr std::uint16_t kFirstInternedQualifier = static_cast<std::uint16_t>(Qualifier::Count);

std::string_view qualifierName(Qualifier q);  // ".global"; "" for interned ids
QualifierCategory qualifierCategory(Qualifier q);
std::optional<Qualifier> lookupQualifier(std::string_view spelling);
inline Qualifier qualifierOf(Type t) { return static_cast<Qualifier>(static_cast<std::uint16_t>(t)); }

enum class SpecialRegister : std::uint16_t {
#define TEG_PTX_SREG(e, s, v) e,
#include "teg/ptx/special_registers.def"
#undef TEG_PTX_SREG
  Count
};
std::string_view specialRegisterName(SpecialRegister r);  // "%tid"
bool specialRegisterIsVector(SpecialRegister r);          // needs .x/.y/.z
std::optional<SpecialRegister> lookupSpecialRegister(std::string_view spelling);
// %reserved_smem_offset_begin, _end, _cap, _0, _1: the block's reserved shared memory (sm_80+).
inline bool isReservedSharedRegister(SpecialRegister r) {
  return r >= SpecialRegister::ReservedSmemOffsetBegin && r <= SpecialRegister::ReservedSmemOffset1;
}

// Timing classes: what a timing engine needs to pick a functional unit / memory path.
enum class InstrClass : std::uint8_t {
  IntAlu, IntMul, Fp16, Fp32, Fp64, Sfu, Conversion, Move,
  LoadGlobal, StoreGlobal, LoadShared, StoreShared, LoadLocal, StoreLocal, LoadConst, LoadParam,
  StoreParam, LoadGeneric, StoreGeneric, AtomicGlobal, AtomicShared, AtomicGeneric,
  Texture, Warp, Barrier, Fence, Branch, Call, Return, Tensor, AsyncCopy, Misc, Unknown,
  Count
};
std::string_view instrClassName(InstrClass c);  // "fp32", "load.global", ...

enum class ClassRule : std::uint8_t { ByType, ByTypeMul, ByTypeSfu, Load, Store, Atomic, Fixed };
enum class DestRule : std::uint8_t { Yes, No, BarRed, IfRegister };

enum class Opcode : std::uint16_t {
#define TEG_PTX_OPCODE(e, m, rule, cls, dest, modelled) e,
#include "teg/ptx/opcodes.def"
#undef TEG_PTX_OPCODE
  Unknown,  // a mnemonic not in the table, kept because it has an instruction's shape
  Count
};

struct OpcodeInfo {
  std::string_view mnemonic;
  ClassRule rule;
  InstrClass fixedClass;
  DestRule dest;
  bool modelled;
};
const OpcodeInfo& opcodeInfo(Opcode op);
std::optional<Opcode> lookupOpcode(std::string_view mnemonic);

// State spaces (PTX ISA §5.1) as the IR stores them; Generic = no space qualifier.
enum class StateSpace : std::uint8_t { Generic, Reg, Global, Shared, SharedCluster, Local, Const, Param, Tex };
std::string_view stateSpaceName(StateSpace s);  // ".global"; "" for Generic

// PTX ISA versions (versions.def): whether `.version major.minor` is one teg accepts, and the
// accepted set as text for messages ("1.0-1.5, 2.0-2.3, ..., 9.0").
bool isSupportedPtxVersion(unsigned major, unsigned minor);
std::string supportedPtxVersions();

}  // namespace teg::ptx

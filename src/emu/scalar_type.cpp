#include "teg/emu/scalar_type.hpp"

#include <bit>
#include <cstring>

namespace teg::emu {

namespace {
struct TypeInfo {
  ScalarType type;
  const char* name;
  int size;
  bool floating;
  bool isSigned;
  const char* numpy;
};
constexpr TypeInfo kTypes[] = {
    {ScalarType::I8, "i8", 1, false, true, "|i1"},     {ScalarType::U8, "u8", 1, false, false, "|u1"},
    {ScalarType::I16, "i16", 2, false, true, "<i2"},   {ScalarType::U16, "u16", 2, false, false, "<u2"},
    {ScalarType::I32, "i32", 4, false, true, "<i4"},   {ScalarType::U32, "u32", 4, false, false, "<u4"},
    {ScalarType::I64, "i64", 8, false, true, "<i8"},   {ScalarType::U64, "u64", 8, false, false, "<u8"},
    {ScalarType::F16, "f16", 2, true, true, "<f2"},    {ScalarType::F32, "f32", 4, true, true, "<f4"},
    {ScalarType::F64, "f64", 8, true, true, "<f8"},     {ScalarType::Bool, "bool", 1, false, false, "|b1"},
};
const TypeInfo& info(ScalarType t) { return kTypes[static_cast<int>(t)]; }
}  // namespace

const char* scalarTypeName(ScalarType t) { return info(t).name; }
int scalarTypeSize(ScalarType t) { return info(t).size; }
bool isFloatingPoint(ScalarType t) { return info(t).floating; }
bool isSigned(ScalarType t) { return info(t).isSigned; }
const char* numpyDescr(ScalarType t) { return info(t).numpy; }

std::optional<ScalarType> scalarTypeFromName(const std::string& name) {
  for (const auto& t : kTypes)
    if (name == t.name) return t.type;
  return std::nullopt;
}

std::uint16_t floatToHalf(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t absf = f & 0x7FFFFFFFu;
  if (absf >= 0x7F800000u) {  // Inf or NaN (keep NaN quiet and non-zero)
    return static_cast<std::uint16_t>(sign | 0x7C00u | (absf > 0x7F800000u ? 0x200u | ((absf >> 13) & 0x3FFu) : 0u));
  }
  if (absf >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds to Inf
  if (absf < 0x38800000u) {  // result is subnormal or zero: value / 2^-24 rounded to nearest even
    if (absf < 0x33000000u) return static_cast<std::uint16_t>(sign);  // below half the smallest subnormal
    const std::uint32_t mantissa = (absf & 0x7FFFFFu) | 0x800000u;
    const int shift = 126 - static_cast<int>(absf >> 23);  // 14..24
    const std::uint32_t halfMant = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1);
    const std::uint32_t halfway = 1u << (shift - 1);
    const std::uint32_t rounded = halfMant + ((rest > halfway || (rest == halfway && (halfMant & 1u))) ? 1u : 0u);
    return static_cast<std::uint16_t>(sign | rounded);
  }
  // Normal: rebias exponent 127 -> 15 and round the 13 dropped mantissa bits to nearest even.
  const std::uint32_t rebiased = absf - (112u << 23);
  const std::uint32_t halfBits = rebiased >> 13;
  const std::uint32_t rest = rebiased & 0x1FFFu;
  const std::uint32_t rounded = halfBits + ((rest > 0x1000u || (rest == 0x1000u && (halfBits & 1u))) ? 1u : 0u);
  return static_cast<std::uint16_t>(sign | rounded);
}

float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  std::uint32_t mantissa = h & 0x3FFu;
  std::uint32_t bits = 0;
  if (exponent == 0x1Fu) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {  // subnormal: normalise
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    bits = sign | ((112u - static_cast<std::uint32_t>(e)) << 23) | ((mantissa & 0x3FFu) << 13);
  } else {
    bits = sign;
  }
  return std::bit_cast<float>(bits);
}

}  // namespace teg::emu

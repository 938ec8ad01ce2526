// The element types a launch description can name for scalars and buffers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace teg::emu {

// Bool is C++'s bool as CUDA stores it: one byte holding 0 or 1 (a `bool` parameter is `.param .u8`).
enum class ScalarType { I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64, Bool };

const char* scalarTypeName(ScalarType t);                         // "f32"
std::optional<ScalarType> scalarTypeFromName(const std::string&);  // "f32" -> F32
int scalarTypeSize(ScalarType t);                                  // bytes
bool isFloatingPoint(ScalarType t);
bool isSigned(ScalarType t);
// NumPy's dtype string for the type, little-endian ("<f4", "|u1").
const char* numpyDescr(ScalarType t);

// IEEE 754 binary16 <-> binary32, round to nearest even (used to fill and read f16 buffers).
std::uint16_t floatToHalf(float value);
float halfToFloat(std::uint16_t bits);

}  // namespace teg::emu

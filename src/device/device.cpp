#include "teg/device/device.hpp"

#include <fmt/format.h>

namespace teg::device {

std::string ComputeCapability::str() const { return fmt::format("{}.{}", major, minor); }
std::string ComputeCapability::smName() const { return fmt::format("sm_{}{}", major, minor); }

namespace {
constexpr const char* kClassNames[] = {
    "fp16_fma",    "fp32_fma",    "fp64_fma",   "special",   "int_add",            "int_mul",
    "int_mul24",   "int_shift",   "int_compare", "int_logic", "int_clz",            "int_popc",
    "warp_shuffle", "warp_reduce", "sad",        "simd_video", "convert_narrow_int", "convert_64",
    "convert_other", "dp4a",      "load_store", "branch",
};
static_assert(std::size(kClassNames) == static_cast<std::size_t>(InstructionClass::Count_));
}  // namespace

const char* instructionClassName(InstructionClass c) { return kClassNames[static_cast<int>(c)]; }

std::optional<InstructionClass> instructionClassFromName(const std::string& name) {
  for (int i = 0; i < static_cast<int>(InstructionClass::Count_); ++i)
    if (name == kClassNames[i]) return static_cast<InstructionClass>(i);
  return std::nullopt;
}

}  // namespace teg::device

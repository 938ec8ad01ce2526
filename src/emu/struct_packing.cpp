#include "struct_packing.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace teg::emu {

namespace {

std::uint64_t roundUp(std::uint64_t value, std::uint64_t align) { return (value + align - 1) / align * align; }

}  // namespace

PackedStruct packStruct(const StructArg& s, const std::string& name,
                        const std::function<std::uint64_t(const std::string&, const LaunchArg&)>& valueOf) {
  PackedStruct out;
  for (const LaunchArg& field : s.fields) {
    const std::string path = name + "." + field.name;
    std::vector<std::byte> bytes;
    std::uint32_t align = 1;
    std::string what;
    if (const auto* scalar = std::get_if<ScalarArg>(&field.value)) {
      bytes = scalarBytes(*scalar);
      align = static_cast<std::uint32_t>(bytes.size());
      what = scalarTypeName(scalar->type);
    } else if (const auto* nested = std::get_if<StructArg>(&field.value)) {
      PackedStruct inner = packStruct(*nested, path, valueOf);
      bytes = std::move(inner.bytes);
      align = inner.align;
      what = fmt::format("struct of {} bytes", bytes.size());
    } else {
      const std::uint64_t value = valueOf(path, field);
      bytes.resize(8);
      std::memcpy(bytes.data(), &value, 8);
      align = 8;
      what = field.isBuffer() ? "pointer" : "texture object";
    }
    const std::uint64_t at = roundUp(out.bytes.size(), align);
    out.layout += fmt::format("{}{}: {} at {}", out.layout.empty() ? "" : ", ",
                              field.name.empty() ? "(unnamed)" : field.name, what, at);
    out.bytes.resize(at);
    out.bytes.insert(out.bytes.end(), bytes.begin(), bytes.end());
    out.align = std::max(out.align, align);
  }
  out.bytes.resize(roundUp(out.bytes.size(), out.align));
  return out;
}

}  // namespace teg::emu

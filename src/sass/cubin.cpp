#include "teg/sass/cubin.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "teg/support/error.hpp"

namespace teg::sass {

namespace {

template <class T>
T read(std::string_view bytes, std::uint64_t at, const char* what) {
  if (at > bytes.size() || sizeof(T) > bytes.size() - at)
    throw Error(fmt::format("cubin: {} at byte {} is past the end of the file ({} bytes)", what, at, bytes.size()));
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

}  // namespace

std::vector<std::byte> cubinSection(std::string_view cubin, std::string_view name) {
  // ELF64 header (System V ABI): e_ident[16], e_type..e_shstrndx.
  if (cubin.size() < 64 || cubin.substr(0, 4) != "\x7f" "ELF" || cubin[4] != 2 || cubin[5] != 1)
    throw Error("cubin: not a little-endian ELF64 file");
  const auto shoff = read<std::uint64_t>(cubin, 0x28, "section header offset");
  const auto shentsize = read<std::uint16_t>(cubin, 0x3a, "section header size");
  const auto shnum = read<std::uint16_t>(cubin, 0x3c, "section count");
  const auto shstrndx = read<std::uint16_t>(cubin, 0x3e, "section name table index");
  if (shentsize < 64 || shstrndx >= shnum) throw Error("cubin: malformed section header table");
  auto header = [&](std::uint64_t i) { return shoff + i * shentsize; };
  const auto strOffset = read<std::uint64_t>(cubin, header(shstrndx) + 0x18, "section name table");
  const auto strSize = read<std::uint64_t>(cubin, header(shstrndx) + 0x20, "section name table size");
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const auto nameAt = read<std::uint32_t>(cubin, header(i), "section name");
    if (nameAt >= strSize || strOffset > cubin.size() || strSize > cubin.size() - strOffset) continue;
    const std::string_view table = cubin.substr(strOffset, strSize);
    const std::string_view sectionName = table.substr(nameAt, table.find('\0', nameAt) - nameAt);
    if (sectionName != name) continue;
    const auto type = read<std::uint32_t>(cubin, header(i) + 4, "section type");
    const auto offset = read<std::uint64_t>(cubin, header(i) + 0x18, "section offset");
    const auto size = read<std::uint64_t>(cubin, header(i) + 0x20, "section size");
    std::vector<std::byte> out(size);
    if (type == 8) return out;  // SHT_NOBITS: zeros
    if (offset > cubin.size() || size > cubin.size() - offset)
      throw Error(fmt::format("cubin: section {} lies past the end of the file", name));
    std::memcpy(out.data(), cubin.data() + offset, size);
    return out;
  }
  return {};
}

}  // namespace teg::sass

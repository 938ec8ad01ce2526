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

struct SectionHeader {
  std::string_view name;
  std::uint32_t type = 0;
  std::uint64_t offset = 0, size = 0;
  std::uint32_t link = 0;
  std::uint64_t entrySize = 0;
};

// Every section header of the ELF64 file, names resolved.
std::vector<SectionHeader> sectionHeaders(std::string_view cubin) {
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
  std::vector<SectionHeader> out;
  for (std::uint64_t i = 0; i < shnum; ++i) {
    SectionHeader h;
    const auto nameAt = read<std::uint32_t>(cubin, header(i), "section name");
    if (nameAt < strSize && strOffset <= cubin.size() && strSize <= cubin.size() - strOffset) {
      const std::string_view table = cubin.substr(strOffset, strSize);
      h.name = table.substr(nameAt, table.find('\0', nameAt) - nameAt);
    }
    h.type = read<std::uint32_t>(cubin, header(i) + 4, "section type");
    h.offset = read<std::uint64_t>(cubin, header(i) + 0x18, "section offset");
    h.size = read<std::uint64_t>(cubin, header(i) + 0x20, "section size");
    h.link = read<std::uint32_t>(cubin, header(i) + 0x28, "section link");
    h.entrySize = read<std::uint64_t>(cubin, header(i) + 0x38, "section entry size");
    out.push_back(h);
  }
  return out;
}

std::string_view contents(std::string_view cubin, const SectionHeader& h) {
  if (h.offset > cubin.size() || h.size > cubin.size() - h.offset)
    throw Error(fmt::format("cubin: section {} lies past the end of the file", h.name));
  return cubin.substr(h.offset, h.size);
}

}  // namespace

std::vector<std::byte> cubinSection(std::string_view cubin, std::string_view name) {
  for (const SectionHeader& h : sectionHeaders(cubin)) {
    if (h.name != name) continue;
    std::vector<std::byte> out(h.size);
    if (h.type == 8) return out;  // SHT_NOBITS: zeros
    const std::string_view bytes = contents(cubin, h);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
  return {};
}

std::vector<CubinRelocation> cubinRelocations(std::string_view cubin, std::string_view name) {
  const std::vector<SectionHeader> sections = sectionHeaders(cubin);
  std::vector<CubinRelocation> out;
  for (const SectionHeader& h : sections) {
    const bool rela = h.type == 4;  // SHT_RELA; SHT_REL is 9
    if ((h.type != 9 && !rela) || h.name != fmt::format("{}{}", rela ? ".rela" : ".rel", name)) continue;
    if (h.link >= sections.size()) throw Error(fmt::format("cubin: {} names no symbol table", h.name));
    const SectionHeader& symtab = sections[h.link];
    if (symtab.link >= sections.size()) throw Error("cubin: the symbol table names no string table");
    const std::string_view symbols = contents(cubin, symtab);
    const std::string_view strings = contents(cubin, sections[symtab.link]);
    const std::string_view relocs = contents(cubin, h);
    const std::uint64_t entry = rela ? 24 : 16;
    for (std::uint64_t at = 0; at + entry <= relocs.size(); at += entry) {
      CubinRelocation r;
      r.offset = read<std::uint64_t>(relocs, at, "relocation offset");
      const auto info = read<std::uint64_t>(relocs, at + 8, "relocation info");
      r.type = static_cast<std::uint32_t>(info);
      if (rela) {
        r.addend = read<std::int64_t>(relocs, at + 16, "relocation addend");
        r.explicitAddend = true;
      }
      const std::uint64_t symbol = info >> 32;
      const auto nameAt = read<std::uint32_t>(symbols, symbol * 24, "symbol name");
      if (nameAt >= strings.size()) throw Error("cubin: a symbol name lies past its string table");
      r.symbol = std::string(strings.substr(nameAt, strings.find('\0', nameAt) - nameAt));
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace teg::sass

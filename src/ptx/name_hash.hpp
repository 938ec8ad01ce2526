// A small inline FNV-1a hash for the parser's name tables: names are short (registers, labels,
// mnemonics), and std::hash<string_view> calls an out-of-line MurmurHash. Internal to ptx.
#pragma once

#include <cstdint>
#include <string_view>

namespace teg::ptx::detail {

struct NameHash {
  std::size_t operator()(std::string_view s) const noexcept {
    std::uint64_t h = 14695981039346656037ull;
    for (char c : s) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ull;
    }
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

}  // namespace teg::ptx::detail

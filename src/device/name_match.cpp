#include "name_match.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace teg::device::detail {

std::string normalizeName(const std::string& name) {
  std::string out;
  for (unsigned char c : name)
    if (std::isalnum(c) || c == '.') out += static_cast<char>(std::tolower(c));
  // Brand words that people leave out: "NVIDIA GeForce RTX 4090" is asked for as "rtx 4090".
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (const std::string prefix : {"nvidia", "geforce", "tesla"}) {
      if (out.size() > prefix.size() && out.compare(0, prefix.size(), prefix) == 0) {
        out.erase(0, prefix.size());
        stripped = true;
      }
    }
  }
  return out;
}

int editDistance(const std::string& a, const std::string& b) {
  std::vector<int> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace teg::device::detail

#include "teg/support/error.hpp"

#include <fmt/format.h>

namespace teg {

std::string SourceLocation::str() const {
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

Error::Error(const std::string& message) : std::runtime_error(message), message_(message) {}

Error::Error(SourceLocation where, const std::string& message)
    : std::runtime_error(fmt::format("{}: {}", where.str(), message)),
      location_(std::move(where)),
      message_(message) {}

SourceLocation locateOffset(const std::string& file, const std::string& text, std::size_t offset) {
  SourceLocation loc{file, 1, 1};
  const std::size_t end = std::min(offset, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

}  // namespace teg

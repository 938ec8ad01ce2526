// Errors that reach the user. teg reports bad input as one line: where (file:line:col when the
// input is a file) and what rule was broken. Library code throws teg::Error; the CLI catches it,
// prints `what()` and exits non-zero. Nothing else should escape to the user.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace teg {

// A position in a text input; line and column are 1-based, 0 means "unknown".
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  // "file:line:col", "file:line", or "file", depending on what is known.
  [[nodiscard]] std::string str() const;
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message);
  Error(SourceLocation where, const std::string& message);

  [[nodiscard]] const std::optional<SourceLocation>& location() const { return location_; }
  // The message without the location prefix.
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  std::optional<SourceLocation> location_;
  std::string message_;
};

// Line and column (1-based) of a byte offset inside `text`.
SourceLocation locateOffset(const std::string& file, const std::string& text, std::size_t offset);

}  // namespace teg

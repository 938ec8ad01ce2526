// PTX tokens (PTX ISA §4): identifiers (including %reg and $label), dotted names (.global,
// .L1::evict_last, .v4), numbers (decimal/hex/octal/binary integers with an optional U suffix,
// 0f/0d hexadecimal floats, decimal floats), strings and punctuation. Comments (// and /* */)
// are skipped. Header-only so the hot loop inlines; internal to the ptx module.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace teg::ptx::detail {

enum class Tok : std::uint8_t { End, Ident, Dot, Int, F32Hex, F64Hex, DecFloat, String, Punct };

struct Token {
  Tok kind = Tok::End;
  char punct = 0;
  std::string_view text;
  std::uint32_t offset = 0;
};

// Thrown by the lexer; the parser turns it into a teg::Error with file:line:col.
struct LexError {
  std::uint32_t offset;
  std::string message;
};

// Character classes as one table lookup (the lexer's hot loop).
enum : std::uint8_t { kIdentStart = 1, kIdentChar = 2, kDigit = 4, kHex = 8 };
struct CharClasses {
  std::uint8_t bits[256] = {};
  constexpr CharClasses() {
    for (int c = 0; c < 256; ++c) {
      const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      const bool digit = c >= '0' && c <= '9';
      if (alpha || c == '_' || c == '$' || c == '%') bits[c] |= kIdentStart;
      if (alpha || digit || c == '_' || c == '$') bits[c] |= kIdentChar;
      if (digit) bits[c] |= kDigit;
      if (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) bits[c] |= kHex;
    }
  }
};
inline constexpr CharClasses kCharClasses{};
inline bool hasClass(char c, std::uint8_t cls) { return (kCharClasses.bits[static_cast<unsigned char>(c)] & cls) != 0; }
inline bool isIdentStart(char c) { return hasClass(c, kIdentStart); }
inline bool isIdentChar(char c) { return hasClass(c, kIdentChar); }
inline bool isDigit(char c) { return hasClass(c, kDigit); }
inline bool isHexDigit(char c) { return hasClass(c, kHex); }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  const Token& peek() {
    if (!hasPeek_) {
      peeked_ = scan();
      hasPeek_ = true;
    }
    return peeked_;
  }
  Token next() {
    if (hasPeek_) {
      hasPeek_ = false;
      return peeked_;
    }
    return scan();
  }
  // Offset just past the last consumed token (only meaningful when nothing is peeked).
  [[nodiscard]] std::size_t position() const { return hasPeek_ ? peeked_.offset : pos_; }
  [[nodiscard]] std::string_view text() const { return text_; }
  // Skips to the end of the current line (for @@DWARF lines); drops a peeked token.
  std::string_view restOfLine(std::size_t from) {
    hasPeek_ = false;
    std::size_t end = text_.find('\n', from);
    if (end == std::string_view::npos) end = text_.size();
    pos_ = end;
    return text_.substr(from, end - from);
  }
  // Jumps to `offset` (after scanning a raw block); drops a peeked token.
  void seek(std::size_t offset) {
    hasPeek_ = false;
    pos_ = offset;
  }

 private:
  void skipSpaceAndComments() {
    const std::size_t n = text_.size();
    while (pos_ < n) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
        std::size_t end = text_.find('\n', pos_);
        pos_ = end == std::string_view::npos ? n : end;
      } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
        std::size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos)
          throw LexError{static_cast<std::uint32_t>(pos_), "unterminated comment"};
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  Token make(Tok kind, std::size_t start) {
    Token t;
    t.kind = kind;
    t.text = text_.substr(start, pos_ - start);
    t.offset = static_cast<std::uint32_t>(start);
    return t;
  }

  Token scan() {
    skipSpaceAndComments();
    const std::size_t n = text_.size();
    const std::size_t start = pos_;
    if (pos_ >= n) {
      Token t;
      t.offset = static_cast<std::uint32_t>(n);
      return t;
    }
    const char c = text_[pos_];
    if (isIdentStart(c)) {
      ++pos_;
      while (pos_ < n && isIdentChar(text_[pos_])) ++pos_;
      return make(Tok::Ident, start);
    }
    if (c == '.' && pos_ + 1 < n && (isIdentChar(text_[pos_ + 1]))) {
      ++pos_;
      while (pos_ < n) {
        if (isIdentChar(text_[pos_])) {
          ++pos_;
        } else if (text_[pos_] == ':' && pos_ + 2 < n && text_[pos_ + 1] == ':' &&
                   isIdentChar(text_[pos_ + 2])) {
          pos_ += 2;
        } else {
          break;
        }
      }
      return make(Tok::Dot, start);
    }
    if (isDigit(c)) return scanNumber(start);
    if (c == '"') {
      ++pos_;
      while (pos_ < n && text_[pos_] != '"' && text_[pos_] != '\n') {
        if (text_[pos_] == '\\' && pos_ + 1 < n) ++pos_;
        ++pos_;
      }
      if (pos_ >= n || text_[pos_] != '"')
        throw LexError{static_cast<std::uint32_t>(start), "unterminated string"};
      ++pos_;
      return make(Tok::String, start);
    }
    ++pos_;
    Token t = make(Tok::Punct, start);
    t.punct = c;
    return t;
  }

  Token scanNumber(std::size_t start) {
    const std::size_t n = text_.size();
    auto hexRun = [&] {
      while (pos_ < n && isHexDigit(text_[pos_])) ++pos_;
    };
    if (text_[pos_] == '0' && pos_ + 1 < n) {
      const char k = text_[pos_ + 1];
      if ((k == 'f' || k == 'F' || k == 'd' || k == 'D') && pos_ + 2 < n && isHexDigit(text_[pos_ + 2])) {
        pos_ += 2;
        hexRun();
        return finishNumber(start, (k == 'f' || k == 'F') ? Tok::F32Hex : Tok::F64Hex);
      }
      if ((k == 'x' || k == 'X') && pos_ + 2 < n && isHexDigit(text_[pos_ + 2])) {
        pos_ += 2;
        hexRun();
        if (pos_ < n && text_[pos_] == 'U') ++pos_;
        return finishNumber(start, Tok::Int);
      }
      if ((k == 'b' || k == 'B') && pos_ + 2 < n && (text_[pos_ + 2] == '0' || text_[pos_ + 2] == '1')) {
        pos_ += 2;
        while (pos_ < n && (text_[pos_] == '0' || text_[pos_] == '1')) ++pos_;
        if (pos_ < n && text_[pos_] == 'U') ++pos_;
        return finishNumber(start, Tok::Int);
      }
    }
    while (pos_ < n && isDigit(text_[pos_])) ++pos_;
    bool isFloat = false;
    if (pos_ + 1 < n && text_[pos_] == '.' && isDigit(text_[pos_ + 1])) {
      isFloat = true;
      ++pos_;
      while (pos_ < n && isDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < n && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t p = pos_ + 1;
      if (p < n && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < n && isDigit(text_[p])) {
        isFloat = true;
        pos_ = p;
        while (pos_ < n && isDigit(text_[pos_])) ++pos_;
      }
    }
    if (!isFloat && pos_ < n && text_[pos_] == 'U') ++pos_;
    return finishNumber(start, isFloat ? Tok::DecFloat : Tok::Int);
  }

  Token finishNumber(std::size_t start, Tok kind) {
    // A number glued to identifier characters (12abc) is malformed.
    if (pos_ < text_.size() && isIdentChar(text_[pos_])) {
      while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
      throw LexError{static_cast<std::uint32_t>(start),
                     "malformed number '" + std::string(text_.substr(start, pos_ - start)) + "'"};
    }
    return make(kind, start);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  Token peeked_;
  bool hasPeek_ = false;
};

}  // namespace teg::ptx::detail

#include "operand.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace teg::sass::detail {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isWordChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || isDigit(c) || c == '_';
}

[[noreturn]] void fail(const SourceLocation& where, const std::string& message) { throw Error(where, message); }

// "0x1f", "16" (non-negative; the sign is the caller's). nullopt when `s` is not a number.
std::optional<std::uint64_t> parseUnsigned(std::string_view s, const SourceLocation& where) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  for (const char c : s)
    if (!(isDigit(c) || (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))))) return std::nullopt;
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) fail(where, "number '" + std::string(s) + "' does not fit in 64 bits");
  return v;
}

std::optional<std::int64_t> parseSigned(std::string_view s, const SourceLocation& where) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  const auto u = parseUnsigned(s, where);
  if (!u) return std::nullopt;
  // Immediates are bit patterns (0xffffffffffffffff is printed for -1 in a 64-bit field).
  const auto v = static_cast<std::int64_t>(*u);
  return negative ? static_cast<std::int64_t>(0 - *u) : v;
}

std::optional<double> parseFloat(std::string_view s) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "INF") return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (body == "QNAN" || body == "NAN" || body == "SNAN") return std::numeric_limits<double>::quiet_NaN();
  // A decimal with a point or an exponent (nvdisasm prints "0.5", "2.384185791015625e-07").
  if (body.empty() || !isDigit(body[0])) return std::nullopt;
  bool pointOrExponent = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (isDigit(c)) continue;
    if (c == '.' || c == 'e' || c == 'E') {
      pointOrExponent = true;
      continue;
    }
    if ((c == '-' || c == '+') && i > 0 && (body[i - 1] == 'e' || body[i - 1] == 'E')) continue;
    return std::nullopt;
  }
  if (!pointOrExponent) return std::nullopt;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (ptr != body.data() + body.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) return std::nullopt;
  return negative ? -v : v;
}

struct RegisterName {
  OperandKind kind;
  int index;
  std::size_t length;  // characters of `text` it took
};

// The register at the start of `s` ("R12", "RZ", "UR4", "URZ", "P3", "PT", "UP1", "UPT", "B2"),
// followed by the end or a '.'; nullopt when it is not one. Numbers beyond the register file
// are errors.
std::optional<RegisterName> parseRegisterName(std::string_view s, const SourceLocation& where) {
  struct Form {
    std::string_view prefix;
    OperandKind kind;
    std::string_view zero;
    int zeroIndex;
    int maxIndex;
  };
  // Longest prefixes first ("UR" before "R", "UP" before "P").
  static constexpr Form kForms[] = {
      // Turing to Hopper have UR0..UR62 (URZ is encoded as 63); Blackwell code names UR65 and
      // beyond, so the bound is the encoding's byte.
      {"UR", OperandKind::UniformRegister, "URZ", kZeroUniformRegister, 254},
      {"UP", OperandKind::UniformPredicate, "UPT", kTruePredicate, 6},
      {"R", OperandKind::Register, "RZ", kZeroRegister, 254},
      {"P", OperandKind::Predicate, "PT", kTruePredicate, 6},
      {"B", OperandKind::ConvergenceBarrier, "", 0, 15},
  };
  const auto endsHere = [&](std::size_t n) { return n == s.size() || s[n] == '.'; };
  for (const auto& f : kForms) {
    if (!f.zero.empty() && s.substr(0, f.zero.size()) == f.zero && endsHere(f.zero.size()))
      return RegisterName{f.kind, f.zeroIndex, f.zero.size()};
    if (s.substr(0, f.prefix.size()) != f.prefix) continue;
    std::size_t n = f.prefix.size();
    while (n < s.size() && isDigit(s[n])) ++n;
    if (n == f.prefix.size() || !endsHere(n)) continue;
    const std::string_view digits = s.substr(f.prefix.size(), n - f.prefix.size());
    if (digits.size() > 3) fail(where, "register '" + std::string(s.substr(0, n)) + "' does not exist");
    int index = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (index > f.maxIndex)
      fail(where, "register '" + std::string(s.substr(0, n)) + "' does not exist (the highest is " +
                      std::string(f.prefix) + std::to_string(f.maxIndex) + ")");
    return RegisterName{f.kind, index, n};
  }
  return std::nullopt;
}

std::vector<std::string> splitSuffixes(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    s.remove_prefix(1);  // the '.'
    const std::size_t dot = s.find('.');
    out.emplace_back(s.substr(0, dot));
    s = dot == std::string_view::npos ? std::string_view{} : s.substr(dot);
  }
  return out;
}

bool validSuffixes(const std::vector<std::string>& suffixes) {
  for (const auto& x : suffixes) {
    if (x.empty()) return false;
    for (const char c : x)
      if (!isWordChar(c)) return false;
  }
  return true;
}

// The inside of [...]: '+'-separated terms, each a register (R, UR, with suffixes such as .64,
// .U32, .X4) or a number ("-" or "+-" before a number makes it negative). False when a term is of
// another form.
bool parseAddress(std::string_view s, Address& a, const SourceLocation& where) {
  if (s.empty()) return false;
  std::size_t pos = 0;
  while (pos < s.size()) {
    bool negative = false;
    if (pos > 0) {
      if (s[pos] != '+' && s[pos] != '-') return false;
      negative = s[pos] == '-';
      ++pos;
      // nvdisasm writes a negative offset as "+-0x4" ([R2.64+-0x4]).
      if (!negative && pos < s.size() && s[pos] == '-') {
        negative = true;
        ++pos;
      }
    }
    std::size_t end = pos;
    while (end < s.size() && s[end] != '+' && s[end] != '-') ++end;
    const std::string_view term = s.substr(pos, end - pos);
    if (term.empty()) return false;
    if (const auto reg = parseRegisterName(term, where)) {
      if (negative) return false;
      const auto suffixes = splitSuffixes(term.substr(reg->length));
      if (!validSuffixes(suffixes)) return false;
      if (reg->kind == OperandKind::Register && a.baseRegister < 0) {
        a.baseRegister = reg->index;
        for (const auto& x : suffixes) {
          a.base64 = a.base64 || x == "64";
          a.base32 = a.base32 || x == "U32";
        }
      } else if (reg->kind == OperandKind::UniformRegister && a.uniformRegister < 0) {
        a.uniformRegister = reg->index;
      } else {
        return false;
      }
    } else if (const auto v = parseUnsigned(term, where)) {
      // Two's-complement arithmetic on the 64-bit pattern (no signed overflow on any input).
      const std::uint64_t sum = static_cast<std::uint64_t>(a.offset) + (negative ? 0 - *v : *v);
      a.offset = static_cast<std::int64_t>(sum);
    } else {
      return false;
    }
    pos = end;
  }
  return true;
}

// The contents of the bracket group starting at s[open] == '[', and the index after its ']'.
std::optional<std::pair<std::string_view, std::size_t>> bracketGroup(std::string_view s, std::size_t open) {
  if (open >= s.size() || s[open] != '[') return std::nullopt;
  const std::size_t close = s.find(']', open);
  if (close == std::string_view::npos) return std::nullopt;
  return std::make_pair(s.substr(open + 1, close - open - 1), close + 1);
}

void parseBracketed(std::string_view s, Operand& op, const SourceLocation& where) {
  // prefix: "" (plain memory), "c"/"cx" (constant bank), "desc"/"gdesc"/... (memory with a
  // descriptor register).
  std::size_t p = 0;
  while (p < s.size() && s[p] != '[') ++p;
  const std::string_view prefix = s.substr(0, p);
  std::vector<std::string_view> groups;
  while (p < s.size()) {
    const auto g = bracketGroup(s, p);
    if (!g) return;  // text after the groups: Other
    groups.push_back(g->first);
    p = g->second;
  }
  if (groups.empty()) return;
  if ((prefix == "c" || prefix == "cx") && groups.size() == 2) {
    Operand out = op;
    if (const auto bank = parseUnsigned(groups[0], where)) {
      if (*bank > 31) fail(where, "constant bank " + std::string(groups[0]) + " does not exist (c[0x0]..c[0x1f])");
      out.bank = static_cast<int>(*bank);
    } else if (const auto reg = parseRegisterName(groups[0], where);
               reg && reg->kind == OperandKind::UniformRegister && reg->length == groups[0].size()) {
      out.bankRegister = reg->index;
    } else {
      return;
    }
    if (!parseAddress(groups[1], out.address, where)) return;
    out.kind = OperandKind::ConstantBank;
    out.name = std::string(prefix);
    op = out;
    return;
  }
  const bool namedPrefix = !prefix.empty();
  for (const char c : prefix)
    if (!(c >= 'a' && c <= 'z')) return;
  Operand out = op;
  std::string_view addressText;
  if (namedPrefix && groups.size() == 2) {
    const auto reg = parseRegisterName(groups[0], where);
    if (!reg || reg->kind != OperandKind::UniformRegister || reg->length != groups[0].size()) return;
    out.descriptorRegister = reg->index;
    addressText = groups[1];
  } else if (groups.size() == 1) {
    addressText = groups[0];
  } else {
    return;
  }
  if (!parseAddress(addressText, out.address, where)) return;
  out.kind = OperandKind::Memory;
  out.name = std::string(prefix);
  op = out;
}

}  // namespace

Operand parseOperand(std::string_view text, const SourceLocation& where) {
  Operand op;
  op.text = std::string(text);
  op.column = where.column;
  if (text.empty()) fail(where, "empty operand");

  // Brackets must balance whatever the form (an unbalanced one means the line was cut).
  int square = 0, round = 0;
  for (const char c : text) {
    square += c == '[' ? 1 : c == ']' ? -1 : 0;
    round += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (square < 0 || round < 0) break;
  }
  if (square != 0 || round != 0) fail(where, "unbalanced brackets in operand '" + std::string(text) + "'");

  if (const auto v = parseSigned(text, where)) {
    op.kind = OperandKind::Immediate;
    op.value = *v;
    return op;
  }
  if (const auto f = parseFloat(text)) {
    op.kind = OperandKind::FloatImmediate;
    op.floatValue = *f;
    return op;
  }
  if (text.size() >= 3 && text.substr(0, 2) == "`(" && text.back() == ')') {
    op.kind = OperandKind::Label;
    op.name = std::string(text.substr(2, text.size() - 3));
    if (op.name.empty()) fail(where, "empty label in '" + op.text + "'");
    return op;
  }

  // Prefix operators, in the order nvdisasm combines them: -|R2|, !P0, ~R3.
  std::string_view body = text;
  Operand prefixed = op;
  if (body.front() == '-') {
    prefixed.negate = true;
    body.remove_prefix(1);
  } else if (body.front() == '!') {
    prefixed.logicalNot = true;
    body.remove_prefix(1);
  } else if (body.front() == '~') {
    prefixed.bitNot = true;
    body.remove_prefix(1);
  }
  // |R2| and |R2|.reuse (the reuse mark follows the bars): the bars come off, the suffixes stay.
  std::string unbarred;
  if (body.size() >= 2 && body.front() == '|') {
    const std::size_t close = body.find('|', 1);
    if (close != std::string_view::npos && close > 1 &&
        (close + 1 == body.size() || body[close + 1] == '.')) {
      prefixed.absolute = true;
      unbarred = std::string(body.substr(1, close - 1)) + std::string(body.substr(close + 1));
      body = unbarred;
    }
  }
  if (body.empty()) return op;  // "-" or "||": Other

  if (body.substr(0, 3) == "SR_" || body == "SRZ") {
    for (const char c : body)
      if (!isWordChar(c) && c != '.') return op;
    prefixed.kind = OperandKind::SpecialRegister;
    prefixed.name = std::string(body);
    return prefixed;
  }
  if (const auto reg = parseRegisterName(body, where)) {
    const auto suffixes = splitSuffixes(body.substr(reg->length));
    if (!validSuffixes(suffixes)) return op;
    prefixed.kind = reg->kind;
    prefixed.index = reg->index;
    for (const auto& x : suffixes) {
      if (x == "reuse")
        prefixed.reuse = true;
      else
        prefixed.suffixes.push_back(x);
    }
    return prefixed;
  }
  if (body.find('[') != std::string_view::npos) {
    Operand inner = prefixed;
    // A constant-bank value may carry a selector after its groups ("c[0x2][0x0].F32", a half
    // instruction's float operand): the groups parse alone, the selector is a suffix.
    const std::size_t lastClose = body.rfind(']');
    std::vector<std::string> bankSuffixes;
    if (body.front() == 'c' && lastClose != std::string_view::npos && lastClose + 1 < body.size() &&
        body[lastClose + 1] == '.') {
      bankSuffixes = splitSuffixes(body.substr(lastClose + 1));
      if (validSuffixes(bankSuffixes)) body = body.substr(0, lastClose + 1);
      else bankSuffixes.clear();
    }
    parseBracketed(body, inner, where);
    if (inner.kind == OperandKind::ConstantBank) inner.suffixes = bankSuffixes;
    // A prefix operator applies to a constant-bank value (FADD R0, -c[0x0][0x10], R2), never
    // to a memory address.
    const bool prefix = prefixed.negate || prefixed.logicalNot || prefixed.bitNot || prefixed.absolute;
    if (inner.kind == OperandKind::ConstantBank || (inner.kind == OperandKind::Memory && !prefix)) return inner;
  }
  return op;
}

}  // namespace teg::sass::detail

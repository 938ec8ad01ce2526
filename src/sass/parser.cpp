// nvdisasm's text, line by line. What a line is decides from its first characters:
//   .section NAME,...          a section; only ".text.*" sections hold code
//   .target / .type / .other / .sectioninfo   the facts kept (others are skipped)
//   NAME:                      a function symbol (declared by .type NAME,@function) or a label
//   //## File "f", line N ...  the source position of the instructions that follow (-g/-gi)
//   /*0040*/ [@P0] OP.MOD a, b ;  /* 0x... */   an instruction, its low word after it and, on the
//                              next line, /* 0x... */ its high word (with -hex)
//   // ...                     a comment
// Anything else in a code section is an error at its line and column.
#include "teg/sass/parser.hpp"

#include <cctype>
#include <charconv>
#include <set>
#include <unordered_map>

#include "operand.hpp"
#include "teg/support/input_file.hpp"

namespace teg::sass {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool isHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isUpperWord(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool isWord(char c) { return isUpperWord(c) || (c >= 'a' && c <= 'z'); }

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

class Parser {
 public:
  Parser(std::string_view text, std::string file) : text_(text) { module_.file = std::move(file); }

  Module run() {
    std::size_t pos = 0;
    while (pos <= text_.size()) {
      const std::size_t nl = text_.find('\n', pos);
      const std::size_t end = nl == std::string_view::npos ? text_.size() : nl;
      lines_.push_back(text_.substr(pos, end - pos));
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
    for (line_ = 0; line_ < lines_.size(); ++line_) parseLine();
    finishFunction();
    return std::move(module_);
  }

 private:
  SourceLocation at(std::size_t column) const {
    return SourceLocation{module_.file, static_cast<int>(line_ + 1), static_cast<int>(column + 1)};
  }
  [[noreturn]] void fail(std::size_t column, const std::string& message) const { throw Error(at(column), message); }

  void parseLine() {
    const std::string_view raw = trimRight(lines_[line_]);
    std::size_t indent = 0;
    while (indent < raw.size() && isSpace(raw[indent])) ++indent;
    const std::string_view s = raw.substr(indent);
    if (s.empty()) return;
    if (s.find('\0') != std::string_view::npos) fail(indent + s.find('\0'), "NUL character in the disassembly");
    if (startsWith(s, "//##")) return sourceLine(s, indent);
    if (startsWith(s, "//")) return;
    if (startsWith(s, ".section") && s.size() > 8 && isSpace(s[8])) return section(s, indent);
    if (s.front() == '.' && s.back() != ':') return directive(s, indent);
    if (!inCode_) return;  // .byte and the like in data sections
    if (startsWith(s, "/*")) return instruction(s, indent);
    if (s.back() == ':' && s.find_first_of(" \t") == std::string_view::npos) return label(s.substr(0, s.size() - 1), indent);
    fail(indent, "unrecognised line in a code section (expected an instruction, a label, a directive or a comment)");
  }

  void section(std::string_view s, std::size_t indent) {
    std::string_view rest = s.substr(8);
    std::size_t i = 0;
    while (i < rest.size() && isSpace(rest[i])) ++i;
    if (i == 0 || i == rest.size()) fail(indent, "expected '.section NAME,...'");
    rest = rest.substr(i);
    const std::string_view name = rest.substr(0, rest.find_first_of(", \t"));
    finishFunction();
    section_ = std::string(name);
    inCode_ = startsWith(name, ".text.");
    current_ = -1;
    source_ = -1;
  }

  // NAME from ".type NAME,@function" / ".other NAME,@"..."", or "" when the line is not of
  // that shape.
  static std::string_view directiveSymbol(std::string_view rest) {
    std::size_t i = 0;
    while (i < rest.size() && isSpace(rest[i])) ++i;
    const std::size_t comma = rest.find(',', i);
    if (comma == std::string_view::npos) return {};
    return trimRight(rest.substr(i, comma - i));
  }

  void directive(std::string_view s, std::size_t indent) {
    const std::size_t nameEnd = std::min(s.find_first_of(" \t"), s.size());
    const std::string_view name = s.substr(0, nameEnd);
    const std::string_view rest = s.substr(nameEnd);
    if (name == ".target") {
      std::size_t i = 0;
      while (i < rest.size() && isSpace(rest[i])) ++i;
      if (i == rest.size()) fail(indent, "'.target' without an architecture");
      module_.target = std::string(rest.substr(i));
    } else if (name == ".headerflags") {
      // nvdisasm 11.8 (Volta cubins) prints no .target; its header flags name the SM instead:
      // @"... EF_CUDA_SM70 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM70)". The first real-SM flag is the target.
      constexpr std::string_view flag = "EF_CUDA_SM";
      for (std::size_t k = rest.find(flag); k != std::string_view::npos; k = rest.find(flag, k + 1)) {
        if (k > 0 && rest[k - 1] == '(') continue;  // inside EF_CUDA_VIRTUAL_SM(...)
        std::size_t end = k + flag.size();
        while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end]))) ++end;
        if (end == k + flag.size()) continue;
        if (module_.target.empty()) module_.target = "sm_" + std::string(rest.substr(k + flag.size(), end - k - flag.size()));
        break;
      }
    } else if (name == ".type") {
      const std::string_view symbol = directiveSymbol(rest);
      if (!symbol.empty() && rest.find("@function") != std::string_view::npos) functionSymbols_.insert(std::string(symbol));
    } else if (name == ".other") {
      const std::string_view symbol = directiveSymbol(rest);
      if (!symbol.empty() && rest.find("STO_CUDA_ENTRY") != std::string_view::npos) entrySymbols_.insert(std::string(symbol));
    } else if (name == ".sectioninfo") {
      const std::size_t k = rest.find("SHI_REGISTERS=");
      if (k == std::string_view::npos) return;
      const std::string_view digits = rest.substr(k + 14);
      int n = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec != std::errc() || n < 0 || n > 255) fail(indent + (s.size() - rest.size()) + k + 14, "SHI_REGISTERS: expected a register count 0..255");
      (void)ptr;
      sectionRegisters_[section_] = n;
      // The count describes the whole section, also a function already begun in it.
      for (auto& f : module_.functions)
        if (f.section == section_ && f.registers < 0) f.registers = n;
    }
  }

  void label(std::string_view name, std::size_t indent) {
    if (name.empty()) fail(indent, "empty label");
    if (name == section_) return;  // ".text.NAME:" names the section's start
    // The first label of a section without a declared function names the function the section's
    // code gets anyway (currentFunction), so it starts that function.
    const bool startsImplicit = current_ < 0 && name == implicitFunctionName();
    if (functionSymbols_.count(std::string(name)) || startsImplicit) {
      functionSymbols_.insert(std::string(name));
      finishFunction();
      Function f;
      f.name = std::string(name);
      f.section = section_;
      f.isEntry = entrySymbols_.count(f.name) > 0;
      const auto regs = sectionRegisters_.find(section_);
      f.registers = regs == sectionRegisters_.end() ? -1 : regs->second;
      module_.functions.push_back(std::move(f));
      current_ = static_cast<int>(module_.functions.size()) - 1;
      source_ = -1;
      return;
    }
    Function& f = currentFunction(indent);
    if (!f.labels.emplace(std::string(name), f.instructions.size()).second)
      fail(indent, "label '" + std::string(name) + "' defined twice in " + f.name);
  }

  // The function instructions go to; code before any function symbol gets one named after its
  // section (a hand-cut excerpt of nvdisasm output).
  // ".text._Z3fooPf" -> "_Z3fooPf"; "code" when that would not read back as a label line.
  std::string implicitFunctionName() const {
    const std::string name = section_.size() > 6 ? section_.substr(6) : "";
    if (name.empty()) return "code";
    for (const char c : name)
      if (!(isWord(c) || c == '$' || c == '.')) return "code";
    return name;
  }

  Function& currentFunction(std::size_t) {
    if (current_ < 0) {
      Function f;
      f.name = implicitFunctionName();
      f.section = section_;
      const auto regs = sectionRegisters_.find(section_);
      f.registers = regs == sectionRegisters_.end() ? -1 : regs->second;
      f.isEntry = entrySymbols_.count(f.name) > 0;
      functionSymbols_.insert(f.name);  // as if declared: printed back, it is
      module_.functions.push_back(std::move(f));
      current_ = static_cast<int>(module_.functions.size()) - 1;
      // source_ stays: a "//##" line after .section and before this first instruction is its.
    }
    return module_.functions[static_cast<std::size_t>(current_)];
  }

  void finishFunction() { current_ = -1; }

  // "//## File "F", line N[ inlined at "G", line M]..."
  void sourceLine(std::string_view s, std::size_t indent) {
    std::size_t p = 4;
    while (p < s.size() && isSpace(s[p])) ++p;
    SourcePosition position;
    const auto fileAndLine = [&](std::string_view keyword, std::string& file, int& line) {
      if (!startsWith(s.substr(p), keyword)) fail(indent + p, "expected '" + std::string(keyword) + "' in the source line comment");
      p += keyword.size();
      const std::size_t close = s.find("\", line ", p);
      if (close == std::string_view::npos) fail(indent + p, "expected '\"FILE\", line N' in the source line comment");
      file = std::string(s.substr(p, close - p));
      p = close + 8;
      const auto [ptr, ec] = std::from_chars(s.data() + p, s.data() + s.size(), line);
      if (ec != std::errc() || line < 0) fail(indent + p, "expected a line number");
      p = static_cast<std::size_t>(ptr - s.data());
    };
    fileAndLine("File \"", position.file, position.line);
    while (p < s.size()) {
      std::pair<std::string, int> site;
      if (s[p] != ' ') fail(indent + p, "unexpected text after the source line");
      ++p;
      fileAndLine("inlined at \"", site.first, site.second);
      position.inlinedAt.push_back(std::move(site));
    }
    // nvdisasm -gi prints an inlined position and then, on the next line, the plain position -g
    // would give (the outermost call site): "line 5 inlined at "f.cu", line 17" then "line 17".
    // The instructions after both are the callee's line 5, inlined at 17 (Nsight Compute's source
    // view attributes them so); the second comment repeats the call site and is not a new position.
    if (commentSinceInstruction_ && source_ >= 0 && position.inlinedAt.empty()) {
      const auto& inlined = module_.sources[static_cast<std::size_t>(source_)].inlinedAt;
      if (!inlined.empty() && inlined.back() == std::make_pair(position.file, position.line)) return;
    }
    commentSinceInstruction_ = true;
    for (std::size_t i = 0; i < module_.sources.size(); ++i)
      if (module_.sources[i] == position) {
        source_ = static_cast<int>(i);
        return;
      }
    module_.sources.push_back(std::move(position));
    source_ = static_cast<int>(module_.sources.size()) - 1;
  }

  // "/* 0x000fe40000000f00 */": the word, or nullopt when `s` is not exactly that.
  static std::optional<std::uint64_t> encodingComment(std::string_view s) {
    s = trimRight(s);
    if (!startsWith(s, "/* 0x") || s.size() != 5 + 16 + 3 || s.substr(21) != " */") return std::nullopt;
    std::uint64_t v = 0;
    for (const char c : s.substr(5, 16)) {
      if (!isHex(c)) return std::nullopt;
      v = v * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
  }

  void instruction(std::string_view s, std::size_t indent) {
    // nvdisasm prints the words of an encoding it cannot disassemble with no instruction text (13.x
    // for ptxas's sm_75 cvt.rn.satfinite.f16.f32): say so, rather than guess what the GPU runs there.
    if (encodingComment(s))
      fail(indent, "an encoding with no instruction text before it: nvdisasm could not disassemble the "
                   "instruction after the previous one");
    // /*ADDR*/
    const std::size_t close = s.find("*/");
    if (close == std::string_view::npos || close == 2) fail(indent, "expected '/*ADDRESS*/' before the instruction");
    Instruction ins;
    {
      const std::string_view hex = s.substr(2, close - 2);
      if (hex.size() > 8) fail(indent + 2, "instruction address '" + std::string(hex) + "' has more than 8 hex digits");
      for (const char c : hex)
        if (!isHex(c)) fail(indent + 2, "instruction address '" + std::string(hex) + "' is not hexadecimal");
      std::from_chars(hex.data(), hex.data() + hex.size(), ins.address, 16);
    }
    const std::size_t semi = s.find(';', close);
    if (semi == std::string_view::npos) fail(indent + s.size(), "expected ';' after the instruction");
    std::size_t b = close + 2;
    while (b < semi && isSpace(s[b])) ++b;
    parseBody(s.substr(b, semi - b), indent + b, ins);

    // The encoding: low word on this line, high word alone on the next.
    std::size_t after = semi + 1;
    while (after < s.size() && isSpace(s[after])) ++after;
    if (after < s.size()) {
      const auto low = encodingComment(s.substr(after));
      if (!low) fail(indent + after, "expected '/* 0x<16 hex digits> */' (the encoding) after ';'");
      std::size_t next = line_ + 1;
      while (next < lines_.size() && trimRight(lines_[next]).find_first_not_of(" \t") == std::string_view::npos) ++next;
      std::optional<std::uint64_t> high;
      std::size_t col = 0;
      if (next < lines_.size()) {
        const std::string_view n = lines_[next];
        col = n.find_first_not_of(" \t");
        if (col == std::string_view::npos) col = 0;
        high = encodingComment(n.substr(col));
      }
      if (!high) {
        line_ = std::min(next, lines_.size() - 1);
        fail(col, "expected '/* 0x<16 hex digits> */' (the instruction's high word) on the line after it");
      }
      line_ = next;
      ins.hasEncoding = true;
      ins.low = *low;
      ins.high = *high;
      ins.control = decodeControl(*high);
      // Six scoreboard barriers, SB0-SB5, with 7 meaning none (Jia et al. 2018, control
      // information; the wait mask has six bits): a field of 6 names no barrier, and the timing
      // engine and the wait masks index the six.
      if (ins.control.writeBarrier == 6 || ins.control.readBarrier == 6)
        fail(col, std::string("control word: ") + (ins.control.writeBarrier == 6 ? "write" : "read") +
                      " dependency barrier 6 does not exist (SB0-SB5, 7 = none)");
    }
    ins.source = source_;
    commentSinceInstruction_ = false;
    currentFunction(indent).instructions.push_back(std::move(ins));
  }

  // "[@[!]P0 ]OPCODE[.MOD]... [operand[, operand]...]"
  void parseBody(std::string_view body, std::size_t column, Instruction& ins) {
    ins.where = at(column);
    std::size_t p = 0;
    const auto token = [&] {
      const std::size_t start = p;
      while (p < body.size() && !isSpace(body[p])) ++p;
      const std::string_view t = body.substr(start, p - start);
      while (p < body.size() && isSpace(body[p])) ++p;
      return std::make_pair(t, start);
    };
    if (body.empty()) fail(column, "empty instruction");
    if (body.front() == '@') {
      const auto [t, start] = token();
      Operand guard = detail::parseOperand(t.substr(1), at(column + start + 1));
      if (guard.kind != OperandKind::Predicate && guard.kind != OperandKind::UniformPredicate)
        fail(column + start, "guard '" + std::string(t) + "' is not a predicate (expected @P0, @!P1, @UP0, @!PT ...)");
      ins.guard = std::move(guard);
    }
    const auto [mnemonic, mstart] = token();
    if (mnemonic.empty()) fail(column + mstart, "expected an opcode");
    std::size_t dot = mnemonic.find('.');
    ins.opcode = std::string(mnemonic.substr(0, dot));
    if (ins.opcode.empty() || !(ins.opcode[0] >= 'A' && ins.opcode[0] <= 'Z'))
      fail(column + mstart, "expected an opcode (upper case, e.g. FFMA), found '" + std::string(mnemonic) + "'");
    for (const char c : ins.opcode)
      if (!isUpperWord(c)) fail(column + mstart, "invalid character in opcode '" + std::string(mnemonic) + "'");
    while (dot != std::string_view::npos) {
      const std::size_t next = mnemonic.find('.', dot + 1);
      const std::string_view m = mnemonic.substr(dot + 1, next == std::string_view::npos ? std::string_view::npos : next - dot - 1);
      if (m.empty()) fail(column + mstart + dot, "empty modifier in '" + std::string(mnemonic) + "'");
      for (const char c : m)
        if (!isWord(c)) fail(column + mstart + dot + 1, "invalid character in modifier '" + std::string(m) + "'");
      ins.modifiers.emplace_back(m);
      dot = next;
    }
    // Operands: split at commas and blanks outside brackets ("RET.REL.NODEC R20 `(main)" has a
    // blank between two operands).
    std::size_t start = p;
    int depth = 0;
    bool afterComma = false;  // a comma was read and no operand after it yet
    for (std::size_t i = p; i <= body.size(); ++i) {
      const bool end = i == body.size();
      const char c = end ? ' ' : body[i];
      if (c == '[' || c == '(') ++depth;
      if ((c == ']' || c == ')') && depth > 0) --depth;
      if (!end && (depth > 0 || !(c == ',' || isSpace(c)))) continue;
      // nvdisasm writes some constant-bank operands with a blank between the groups
      // ("HADD2 R11, -RZ.H0_H0, c[0x2] [0x0].F32"): one operand.
      if (!end && isSpace(c) && i > start && body[i - 1] == ']') {
        std::size_t next = i;
        while (next < body.size() && isSpace(body[next])) ++next;
        if (next < body.size() && body[next] == '[') continue;
      }
      if (end && depth > 0) fail(column + start, "unbalanced brackets in operand '" + std::string(body.substr(start)) + "'");
      const std::string_view item = body.substr(start, i - start);
      if (!item.empty()) {
        std::string joined(item);
        std::erase_if(joined, isSpace);
        ins.operands.push_back(detail::parseOperand(joined, at(column + start)));
        afterComma = false;
      }
      if (c == ',') {
        if (afterComma || ins.operands.empty()) fail(column + i, "empty operand before ','");
        afterComma = true;
      }
      if (end && afterComma) fail(column + i, "expected an operand after ','");
      start = i + 1;
    }
  }

  std::string_view text_;
  std::vector<std::string_view> lines_;
  std::size_t line_ = 0;
  Module module_;
  std::string section_;
  bool inCode_ = false;
  int current_ = -1;
  int source_ = -1;
  bool commentSinceInstruction_ = false;  // a "//##" line came after the last instruction
  std::set<std::string> functionSymbols_;
  std::set<std::string> entrySymbols_;
  std::unordered_map<std::string, int> sectionRegisters_;
};

}  // namespace

Module parseDisassembly(std::string_view text, const std::string& fileName) { return Parser(text, fileName).run(); }

Module parseDisassemblyFile(const std::string& path) { return parseDisassembly(readInputFile(path), path); }

}  // namespace teg::sass

// PTX text -> IR. A single pass over the tokens: module directives, variable declarations,
// functions; inside a body, nested `{ }` scopes (inline asm, call sequences) shadow names, and
// labels are resolved when their scope closes. Errors carry file:line:col of the offending token.
#include "teg/ptx/parser.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "lexer.hpp"
#include "name_hash.hpp"
#include "teg/support/input_file.hpp"

namespace teg::ptx {
namespace {

using detail::LexError;
using detail::NameHash;
template <typename V>
using NameMap = std::unordered_map<std::string_view, V, NameHash>;
using NameSet = std::unordered_set<std::string_view, NameHash>;
using detail::Lexer;
using detail::Tok;
using detail::Token;

struct SymbolRef {
  SymbolKind kind;
  std::uint32_t index;
};

struct Scope {
  NameMap<std::uint32_t> registers;  // exact names
  // %r<29>-style ranges: prefix -> decl index; a handful per scope, so a list beats a hash.
  std::vector<std::pair<std::string_view, std::uint32_t>> ranges;
  NameMap<SymbolRef> symbols;
  NameMap<std::uint32_t> labels;     // -> Function::labels
  std::size_t firstPending = 0;
};

struct PendingLabel {
  std::uint32_t operand;  // index in Function::operands
  std::string_view name;
  std::uint32_t offset;
  bool branchTargets;     // a .branchtargets entry: operand = table, value = slot
  std::uint32_t table = 0;
  std::uint32_t slot = 0;
};

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End: return "end of file";
    case Tok::String: return std::string(t.text);
    default: return fmt::format("'{}'", t.text);
  }
}

Rounding roundingOf(Qualifier q) {
  return static_cast<Rounding>(static_cast<int>(q) - static_cast<int>(Qualifier::Rn) + 1);
}
CompareOp compareOf(Qualifier q) {
  return static_cast<CompareOp>(static_cast<int>(q) - static_cast<int>(Qualifier::Eq) + 1);
}

StateSpace spaceOf(Qualifier q) {
  switch (q) {
    case Qualifier::Global: return StateSpace::Global;
    case Qualifier::Shared: case Qualifier::SharedCta: return StateSpace::Shared;
    case Qualifier::SharedCluster: return StateSpace::SharedCluster;
    case Qualifier::Local: return StateSpace::Local;
    case Qualifier::Const: return StateSpace::Const;
    case Qualifier::Param: case Qualifier::ParamEntry: case Qualifier::ParamFunc:
      return StateSpace::Param;
    case Qualifier::Tex: return StateSpace::Tex;
    default: return StateSpace::Generic;
  }
}

std::uint32_t modifierBit(Qualifier q) {
  using namespace modifier;
  switch (q) {
    case Qualifier::Ftz: return kFtz;
    case Qualifier::Sat: return kSat;
    case Qualifier::Approx: return kApprox;
    case Qualifier::Full: return kFull;
    case Qualifier::Wide: return kWide;
    case Qualifier::Hi: return kHi;
    case Qualifier::Lo: return kLo;
    case Qualifier::Cc: return kCc;
    case Qualifier::Uni: return kUni;
    case Qualifier::Sync: return kSync;
    case Qualifier::Aligned: return kAligned;
    case Qualifier::Nc: return kNc | kCacheHint;
    case Qualifier::Volatile: return kVolatile;
    case Qualifier::Relaxed: return kRelaxed;
    case Qualifier::Acquire: return kAcquire;
    case Qualifier::Release: return kRelease;
    case Qualifier::AcqRel: return kAcquire | kRelease;
    case Qualifier::Cta: return kScopeCta;
    case Qualifier::Gpu: case Qualifier::Gl: return kScopeGpu;
    case Qualifier::Sys: return kScopeSys;
    case Qualifier::Cluster: return kScopeCluster;
    case Qualifier::To: return kTo;
    default:
      return qualifierCategory(q) == QualifierCategory::Cache ? kCacheHint : 0;
  }
}

InstrClass classByType(Type t, InstrClass integer) {
  switch (t) {
    case Type::F16: case Type::F16x2: case Type::Bf16: case Type::Bf16x2: return InstrClass::Fp16;
    case Type::F32: case Type::Tf32: return InstrClass::Fp32;
    case Type::F64: return InstrClass::Fp64;
    default: return integer;
  }
}

InstrClass classify(const Instruction& in) {
  const OpcodeInfo& info = opcodeInfo(in.opcode);
  const Type t = in.opcode == Opcode::Set ? in.type2 : in.type;
  switch (info.rule) {
    case ClassRule::ByType: return classByType(t, InstrClass::IntAlu);
    case ClassRule::ByTypeMul: return classByType(t, InstrClass::IntMul);
    case ClassRule::ByTypeSfu: return t == Type::F64 ? InstrClass::Fp64 : InstrClass::Sfu;
    case ClassRule::Load:
      switch (in.space) {
        case StateSpace::Global: case StateSpace::Tex: return InstrClass::LoadGlobal;
        case StateSpace::Shared: case StateSpace::SharedCluster: return InstrClass::LoadShared;
        case StateSpace::Local: return InstrClass::LoadLocal;
        case StateSpace::Const: return InstrClass::LoadConst;
        case StateSpace::Param: return InstrClass::LoadParam;
        case StateSpace::Generic: case StateSpace::Reg: return InstrClass::LoadGeneric;
      }
      return InstrClass::LoadGeneric;
    case ClassRule::Store:
      switch (in.space) {
        case StateSpace::Global: case StateSpace::Tex: return InstrClass::StoreGlobal;
        case StateSpace::Shared: case StateSpace::SharedCluster: return InstrClass::StoreShared;
        case StateSpace::Local: return InstrClass::StoreLocal;
        case StateSpace::Param: return InstrClass::StoreParam;
        case StateSpace::Const: case StateSpace::Generic: case StateSpace::Reg:
          return InstrClass::StoreGeneric;
      }
      return InstrClass::StoreGeneric;
    case ClassRule::Atomic:
      switch (in.space) {
        case StateSpace::Global: return InstrClass::AtomicGlobal;
        case StateSpace::Shared: case StateSpace::SharedCluster: return InstrClass::AtomicShared;
        default: return InstrClass::AtomicGeneric;
      }
    case ClassRule::Fixed: return info.fixedClass;
  }
  return info.fixedClass;
}

bool parseUnsigned(std::string_view digits, int base, std::uint64_t& out) {
  if (digits.empty()) return false;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), out, base);
  return r.ec == std::errc() && r.ptr == digits.data() + digits.size();
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& fileName, ParseOptions options)
      : lex_(text), text_(text), options_(options) {
    module_.fileName = fileName;
  }

  Module run() {
    try {
      parseTopLevel();
    } catch (const LexError& e) {
      fail(e.offset, e.message);
    }
    finishModule();
    return std::move(module_);
  }

 private:
  // ---------------------------------------------------------------- errors and tokens
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw Error(location(offset), message);
  }
  [[noreturn]] void fail(const Token& t, const std::string& message) const {
    fail(t.offset, message);
  }
  SourceLocation location(std::size_t offset) const {
    SourceLocation loc{module_.fileName, 1, 1};
    const std::size_t end = std::min(offset, text_.size());
    for (std::size_t i = 0; i < end; ++i) {
      if (text_[i] == '\n') {
        ++loc.line;
        loc.column = 1;
      } else {
        ++loc.column;
      }
    }
    return loc;
  }
  void warn(std::size_t offset, std::string message) {
    if (module_.warnings.size() < 1000) module_.warnings.push_back({location(offset), std::move(message)});
  }

  bool isPunct(const Token& t, char c) const { return t.kind == Tok::Punct && t.punct == c; }
  bool peekPunct(char c) { return isPunct(lex_.peek(), c); }
  bool acceptPunct(char c) {
    if (!peekPunct(c)) return false;
    lex_.next();
    return true;
  }
  Token expectPunct(char c, std::string_view context) {
    Token t = lex_.next();
    if (!isPunct(t, c)) fail(t, fmt::format("expected '{}' {}, found {}", c, context, describe(t)));
    return t;
  }
  Token expectIdent(std::string_view what) {
    Token t = lex_.next();
    if (t.kind != Tok::Ident) fail(t, fmt::format("expected {}, found {}", what, describe(t)));
    return t;
  }
  std::uint64_t expectUnsigned(std::string_view what) {
    Token t = lex_.next();
    if (t.kind != Tok::Int) fail(t, fmt::format("expected {}, found {}", what, describe(t)));
    return intValue(t);
  }

  std::uint64_t intValue(const Token& t) const {
    std::string_view s = t.text;
    if (!s.empty() && s.back() == 'U') s.remove_suffix(1);
    std::uint64_t v = 0;
    bool ok;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      ok = parseUnsigned(s.substr(2), 16, v);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
      ok = parseUnsigned(s.substr(2), 2, v);
    } else if (s.size() > 1 && s[0] == '0') {
      ok = parseUnsigned(s.substr(1), 8, v);
    } else {
      ok = parseUnsigned(s, 10, v);
    }
    if (!ok) fail(t, fmt::format("integer literal '{}' is malformed or out of range", t.text));
    return v;
  }

  std::uint64_t floatBits(const Token& t) const {
    std::uint64_t v = 0;
    if (t.kind == Tok::F32Hex || t.kind == Tok::F64Hex) {
      const std::size_t want = t.kind == Tok::F32Hex ? 8 : 16;
      const std::string_view hex = t.text.substr(2);
      if (hex.size() != want || !parseUnsigned(hex, 16, v))
        fail(t, fmt::format("malformed floating-point literal '{}' ({} needs {} hex digits)", t.text,
                            t.text.substr(0, 2), want));
      return v;
    }
    double d = 0;
    auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), d);
    if (r.ec != std::errc() || r.ptr != t.text.data() + t.text.size())
      fail(t, fmt::format("malformed floating-point literal '{}'", t.text));
    return std::bit_cast<std::uint64_t>(d);
  }

  Qualifier internQualifier(std::string_view spelling) {
    for (std::size_t i = 0; i < module_.internedNames.size(); ++i)
      if (module_.internedNames[i] == spelling)
        return static_cast<Qualifier>(kFirstInternedQualifier + i);
    if (module_.internedNames.size() >= 0xffffu - kFirstInternedQualifier)
      fail(lex_.position(), "too many distinct unknown qualifiers");
    module_.internedNames.emplace_back(spelling);
    return static_cast<Qualifier>(kFirstInternedQualifier + module_.internedNames.size() - 1);
  }

  // `.version major.minor`: a version ptxas does not know would be refused by it, and the
  // instruction set teg accepts for it would be a guess.
  void checkVersion(const Token& v) const {
    const std::string_view text = v.text;
    const auto dot = text.find('.');
    unsigned major = 0, minor = 0;
    const char* end = text.data() + text.size();
    const bool wellFormed =
        v.kind == Tok::DecFloat && dot != std::string_view::npos && dot > 0 && dot + 1 < text.size() &&
        std::from_chars(text.data(), text.data() + dot, major).ptr == text.data() + dot &&
        std::from_chars(text.data() + dot + 1, end, minor).ptr == end;
    if (!wellFormed) fail(v, fmt::format("expected a version number major.minor like 9.0, found {}", describe(v)));
    if (!isSupportedPtxVersion(major, minor))
      fail(v, fmt::format("unsupported PTX ISA version {} (supported: {})", text, supportedPtxVersions()));
  }

  // ---------------------------------------------------------------- module level
  void parseTopLevel() {
    Linkage linkage = Linkage::None;
    std::size_t linkageOffset = 0;
    while (true) {
      const Token t = lex_.next();
      if (t.kind == Tok::End) {
        if (linkage != Linkage::None) fail(t, "expected a declaration after the linkage directive");
        // ptxas refuses such a module too ("Missing .version/.target directive at start of file").
        if (module_.version.empty())
          fail(t, "empty module: a PTX module starts with .version (e.g. .version 9.0) and .target");
        if (module_.target.empty()) fail(t, "missing .target directive after .version (e.g. .target sm_80)");
        return;
      }
      if (isPunct(t, '@') && peekPunct('@')) {  // @@DWARF lines of old nvcc
        module_.raw.emplace_back(lex_.restOfLine(t.offset));
        module_.order.push_back({ModuleItem::Kind::Raw, static_cast<std::uint32_t>(module_.raw.size() - 1)});
        continue;
      }
      if (t.kind != Tok::Dot) fail(t, fmt::format("expected a directive, found {}", describe(t)));
      const std::string_view d = t.text;
      // The header comes first, in this order, as ptxas requires.
      if (module_.version.empty() && d != ".version")
        fail(t, fmt::format("expected .version before '{}': a PTX module starts with .version and .target", d));
      if (!module_.version.empty() && module_.target.empty() && d != ".target")
        fail(t, fmt::format("expected .target after .version, found '{}'", d));
      if (d == ".visible" || d == ".extern" || d == ".weak" || d == ".common") {
        if (linkage == Linkage::None) linkageOffset = t.offset;
        linkage = d == ".visible" ? Linkage::Visible
                  : d == ".extern" ? Linkage::Extern
                  : d == ".weak"   ? Linkage::Weak
                                   : Linkage::Common;
        continue;
      }
      if (d == ".entry" || d == ".func") {
        parseFunction(d == ".entry", linkage);
        linkage = Linkage::None;
        continue;
      }
      if (d == ".global" || d == ".shared" || d == ".const" || d == ".local" || d == ".tex" ||
          d == ".shared::cta" || d == ".shared::cluster") {
        std::vector<Variable> vars = parseVariables(t, linkage, nullptr);
        for (auto& v : vars) addGlobal(std::move(v), t.offset);
        linkage = Linkage::None;
        continue;
      }
      if (linkage != Linkage::None)
        fail(linkageOffset, fmt::format("expected .entry, .func or a variable after the linkage directive, found '{}'", d));
      if (d == ".version") {
        const Token v = lex_.next();
        if (!module_.version.empty()) fail(t, "a second .version directive");
        checkVersion(v);
        module_.version = std::string(v.text);
      } else if (d == ".target") {
        do {
          module_.target.emplace_back(expectIdent("a target name like sm_80").text);
        } while (acceptPunct(','));
      } else if (d == ".address_size") {
        const std::uint64_t size = expectUnsigned("32 or 64");
        if (size != 32 && size != 64) fail(t, ".address_size must be 32 or 64");
        module_.addressSize = static_cast<std::uint32_t>(size);
      } else if (d == ".file") {
        parseFileDirective();
      } else if (d == ".section") {
        parseRawBlock(t);
      } else if (d == ".pragma") {
        const Token s = lex_.next();
        if (s.kind != Tok::String) fail(s, fmt::format("expected a string after .pragma, found {}", describe(s)));
        expectPunct(';', "after .pragma");
        module_.raw.push_back(fmt::format(".pragma {};", s.text));
        module_.order.push_back({ModuleItem::Kind::Raw, static_cast<std::uint32_t>(module_.raw.size() - 1)});
      } else if (d == ".alias") {
        while (!peekPunct(';') && lex_.peek().kind != Tok::End) lex_.next();
        expectPunct(';', "after .alias");
        module_.raw.emplace_back(text_.substr(t.offset, lex_.position() - t.offset));
        module_.order.push_back({ModuleItem::Kind::Raw, static_cast<std::uint32_t>(module_.raw.size() - 1)});
      } else {
        fail(t, fmt::format("unknown directive '{}'", d));
      }
    }
  }

  void parseFileDirective() {
    SourceFile f;
    f.index = static_cast<std::uint32_t>(expectUnsigned("a file number"));
    const Token name = lex_.next();
    if (name.kind != Tok::String) fail(name, fmt::format("expected a file name string, found {}", describe(name)));
    f.name = std::string(name.text.substr(1, name.text.size() - 2));
    if (peekPunct(',')) {
      // Up to the end of the last number, not to the next token: a comment or line break
      // between them is not part of the directive (the printed module would differ).
      const std::size_t start = lex_.peek().offset;
      std::size_t end = start;
      while (acceptPunct(',')) {
        const Token n = lex_.peek();
        expectUnsigned("a number");
        end = n.offset + n.text.size();
      }
      f.extra = std::string(text_.substr(start, end - start));
    }
    module_.files.push_back(std::move(f));
  }

  // .section name { ... } kept verbatim (debug information).
  void parseRawBlock(const Token& start) {
    const Token name = lex_.next();
    if (name.kind != Tok::Dot && name.kind != Tok::Ident)
      fail(name, fmt::format("expected a section name, found {}", describe(name)));
    const Token open = expectPunct('{', "after the section name");
    int depth = 1;
    std::size_t i = open.offset + 1;
    while (i < text_.size() && depth > 0) {
      const char c = text_[i];
      if (c == '{') ++depth;
      if (c == '}') --depth;
      if (c == '"') {  // skip strings
        ++i;
        while (i < text_.size() && text_[i] != '"' && text_[i] != '\n') ++i;
      }
      ++i;
    }
    if (depth > 0) fail(open, "unterminated .section block (missing '}')");
    lex_.seek(i);
    module_.raw.emplace_back(text_.substr(start.offset, i - start.offset));
    module_.order.push_back({ModuleItem::Kind::Raw, static_cast<std::uint32_t>(module_.raw.size() - 1)});
  }

  void addGlobal(Variable v, std::size_t offset) {
    const auto index = static_cast<std::uint32_t>(module_.globals.size());
    auto [it, inserted] = globalNames_.emplace(keyFor(v.name), SymbolRef{SymbolKind::Global, index});
    if (!inserted) {
      if (it->second.kind == SymbolKind::Global && module_.globals[it->second.index].linkage == Linkage::Extern) {
        it->second.index = index;  // a definition after an extern declaration
      } else {
        fail(offset, fmt::format("duplicate declaration of '{}'", v.name));
      }
    }
    module_.globals.push_back(std::move(v));
    module_.order.push_back({ModuleItem::Kind::Global, index});
  }

  // ---------------------------------------------------------------- declarations
  struct DeclAttrs {
    StateSpace space = StateSpace::Generic;
    Type type = Type::None;
    std::uint8_t vectorWidth = 1;
    std::uint32_t align = 0;
    bool isPtr = false;
    StateSpace ptrSpace = StateSpace::Generic;
    std::uint32_t ptrAlign = 0;
  };

  StateSpace declSpace(std::string_view d) const {
    if (d == ".global") return StateSpace::Global;
    if (d == ".shared" || d == ".shared::cta") return StateSpace::Shared;
    if (d == ".shared::cluster") return StateSpace::SharedCluster;
    if (d == ".const") return StateSpace::Const;
    if (d == ".local") return StateSpace::Local;
    if (d == ".param") return StateSpace::Param;
    if (d == ".reg") return StateSpace::Reg;
    if (d == ".tex") return StateSpace::Tex;
    return StateSpace::Generic;
  }

  // Attributes after the state space: .align N, .v2/.v4/.v8, .ptr [space] [.align N], a type.
  DeclAttrs parseDeclAttrs(StateSpace space) {
    DeclAttrs a;
    a.space = space;
    while (lex_.peek().kind == Tok::Dot) {
      const Token t = lex_.next();
      const std::string_view d = t.text;
      if (d == ".align") {
        const Token n = lex_.peek();
        const std::uint64_t v = expectUnsigned("an alignment");
        if (v == 0 || (v & (v - 1)) != 0 || v > (1u << 20)) fail(n, fmt::format("alignment {} is not a power of two", v));
        (a.isPtr ? a.ptrAlign : a.align) = static_cast<std::uint32_t>(v);
      } else if (d == ".v2" || d == ".v4" || d == ".v8") {
        a.vectorWidth = static_cast<std::uint8_t>(d[2] - '0');
      } else if (d == ".ptr") {
        a.isPtr = true;
      } else if (a.isPtr && declSpace(d) != StateSpace::Generic) {
        a.ptrSpace = declSpace(d);
      } else if (auto type = lookupType(d)) {
        if (a.type != Type::None) fail(t, fmt::format("second type '{}' in a declaration", d));
        a.type = *type;
      } else {
        fail(t, fmt::format("unknown type '{}'", d));
      }
    }
    if (a.type == Type::None) {
      const Token t = lex_.peek();
      fail(t, fmt::format("expected a type in the declaration, found {}", describe(t)));
    }
    return a;
  }

  Variable makeVariable(const DeclAttrs& a, std::string name, Linkage linkage) {
    Variable v;
    v.name = std::move(name);
    v.space = a.space;
    v.linkage = linkage;
    v.type = a.type;
    v.vectorWidth = a.vectorWidth;
    v.align = a.align;
    v.isPtr = a.isPtr;
    v.ptrSpace = a.ptrSpace;
    v.ptrAlign = a.ptrAlign;
    return v;
  }

  void parseDims(Variable& v) {
    while (peekPunct('[')) {
      lex_.next();
      if (acceptPunct(']')) {
        v.dims.push_back(0);
        continue;
      }
      const Token n = lex_.peek();
      const std::uint64_t size = expectUnsigned("an array size");
      if (size > (1ull << 40)) fail(n, "array size too large");
      v.dims.push_back(size);
      expectPunct(']', "after the array size");
    }
  }

  // A variable's size must be a number the layout can hold: its byte count within 64 bits, and
  // within 32 bits in the spaces addressed by 32-bit offsets (shared, const, local), where a
  // larger array would wrap and overlap the variables after it.
  void checkSize(const Variable& v, const Token& name) const {
    std::uint64_t bytes = v.type == Type::Pred ? 1 : static_cast<std::uint64_t>(typeBits(v.type) / 8) * v.vectorWidth;
    for (std::uint64_t d : v.dims)
      if (__builtin_mul_overflow(bytes, d, &bytes))
        fail(name, fmt::format("the size of '{}' overflows 64 bits", v.name));
    const bool window32 = v.space == StateSpace::Shared || v.space == StateSpace::SharedCluster ||
                          v.space == StateSpace::Const || v.space == StateSpace::Local;
    if (window32 && bytes > 0xffffffffull)
      fail(name, fmt::format("'{}' is {} bytes: {} variables are addressed with 32 bits (at most 4294967295 bytes)",
                             v.name, bytes, stateSpaceName(v.space)));
  }

  // `.global .align 4 .b8 a[4] = {...}, b;` (the space token already consumed).
  std::vector<Variable> parseVariables(const Token& spaceTok, Linkage linkage, Function* owner) {
    DeclAttrs a = parseDeclAttrs(declSpace(spaceTok.text));
    std::vector<Variable> out;
    do {
      const Token name = expectIdent("a variable name");
      Variable v = makeVariable(a, std::string(name.text), linkage);
      parseDims(v);
      checkSize(v, name);
      if (acceptPunct('=')) {
        v.hasInitializer = true;
        parseInitializer(v.init, 0);
      }
      out.push_back(std::move(v));
    } while (acceptPunct(','));
    expectPunct(';', "after the declaration");
    (void)owner;
    return out;
  }

  void parseInitializer(std::vector<InitValue>& out, int depth) {
    if (depth > 8) fail(lex_.position(), "initializer nested too deeply");
    if (acceptPunct('{')) {
      if (acceptPunct('}')) return;
      do {
        parseInitializer(out, depth + 1);
      } while (acceptPunct(','));
      expectPunct('}', "closing the initializer");
      return;
    }
    InitValue v;
    const bool negative = acceptPunct('-');
    const Token t = lex_.next();
    switch (t.kind) {
      case Tok::Int:
        v.kind = InitValue::Kind::Int;
        v.bits = negative ? (~intValue(t) + 1) : intValue(t);
        break;
      case Tok::F32Hex:
        if (negative) fail(t, "a hexadecimal float literal cannot be negated");
        v.kind = InitValue::Kind::F32;
        v.bits = floatBits(t);
        break;
      case Tok::F64Hex: case Tok::DecFloat:
        if (negative && t.kind == Tok::F64Hex) fail(t, "a hexadecimal float literal cannot be negated");
        v.kind = InitValue::Kind::F64;
        v.bits = floatBits(t);
        if (negative) v.bits ^= (1ull << 63);
        break;
      case Tok::Ident: {
        if (negative) fail(t, "a symbol cannot be negated");
        if (t.text == "generic" && peekPunct('(')) {
          lex_.next();
          const Token s = expectIdent("a symbol");
          expectPunct(')', "after generic(symbol");
          v.kind = InitValue::Kind::Symbol;
          v.text = fmt::format("generic({})", s.text);
        } else if (peekPunct('=')) {  // samplerref fields: filter_mode = nearest
          lex_.next();
          const Token value = lex_.next();
          if (value.kind != Tok::Ident && value.kind != Tok::Int)
            fail(value, fmt::format("expected a value after '=', found {}", describe(value)));
          v.kind = InitValue::Kind::Raw;
          v.text = fmt::format("{} = {}", t.text, value.text);
          break;
        } else {
          v.kind = InitValue::Kind::Symbol;
          v.text = std::string(t.text);
        }
        if (acceptPunct('+')) v.bits = expectUnsigned("an offset");
        break;
      }
      default:
        fail(t, fmt::format("expected an initializer value, found {}", describe(t)));
    }
    out.push_back(std::move(v));
  }

  // ---------------------------------------------------------------- functions
  std::vector<Variable> parseParamList(std::string_view what) {
    std::vector<Variable> params;
    expectPunct('(', what);
    if (acceptPunct(')')) return params;
    do {
      const Token space = lex_.next();
      if (space.kind != Tok::Dot || (space.text != ".param" && space.text != ".reg"))
        fail(space, fmt::format("expected .param or .reg in a parameter list, found {}", describe(space)));
      DeclAttrs a = parseDeclAttrs(declSpace(space.text));
      const Token name = expectIdent("a parameter name");
      Variable v = makeVariable(a, std::string(name.text), Linkage::None);
      parseDims(v);
      params.push_back(std::move(v));
    } while (acceptPunct(','));
    expectPunct(')', "closing the parameter list");
    return params;
  }

  void parseFunction(bool isEntry, Linkage linkage) {
    Function f;
    f.isEntry = isEntry;
    f.linkage = linkage;
    if (peekPunct('(')) {
      if (isEntry) fail(lex_.peek(), "an .entry has no return parameters");
      f.returns = parseParamList("opening the return parameters");
    }
    const Token name = expectIdent("a function name");
    f.name = std::string(name.text);
    if (peekPunct('(')) f.params = parseParamList("opening the parameter list");
    // Performance-tuning and other header directives (.maxntid 256,1,1 ...).
    while (lex_.peek().kind == Tok::Dot) {
      const Token d = lex_.next();
      std::string text(d.text);
      if (d.text == ".pragma") {
        const Token s = lex_.next();
        if (s.kind != Tok::String) fail(s, fmt::format("expected a string after .pragma, found {}", describe(s)));
        expectPunct(';', "after .pragma");
        text += fmt::format(" {};", s.text);
      } else if (d.text == ".maxntid" || d.text == ".reqntid" || d.text == ".minnctapersm" ||
                 d.text == ".maxnctapersm" || d.text == ".maxnreg" || d.text == ".reqnctapercluster" ||
                 d.text == ".maxclusterrank") {
        text += fmt::format(" {}", expectUnsigned("a number"));
        while (acceptPunct(',')) text += fmt::format(", {}", expectUnsigned("a number"));
      } else if (d.text == ".noreturn" || d.text == ".explicitcluster" || d.text == ".blocksareclusters") {
      } else {
        fail(d, fmt::format("unknown function directive '{}'", d.text));
      }
      f.headerDirectives.push_back(std::move(text));
    }
    const auto index = static_cast<std::uint32_t>(module_.functions.size());
    auto [it, inserted] = globalNames_.emplace(name.text, SymbolRef{SymbolKind::Function, index});
    if (!inserted) {
      if (it->second.kind != SymbolKind::Function) fail(name, fmt::format("duplicate declaration of '{}'", name.text));
      const Function& previous = module_.functions[it->second.index];
      if (previous.hasBody && peekPunct('{')) fail(name, fmt::format("function '{}' is defined twice", name.text));
      it->second.index = index;
    }
    if (acceptPunct(';')) {
      module_.functions.push_back(std::move(f));
    } else {
      const Token open = lex_.peek();
      if (!isPunct(open, '{')) fail(open, fmt::format("expected '{{' or ';' after the function header, found {}", describe(open)));
      module_.functions.push_back(std::move(f));
      if (options_.deferFunctionErrors) parseBodyOrDefer(name, open.offset);
      else parseBody(module_.functions.back(), name);
    }
    module_.order.push_back({ModuleItem::Kind::Function, index});
  }

  // ---------------------------------------------------------------- function bodies
  // parseBody, but an error in the body is recorded on the function and parsing goes on after
  // the body's closing brace (ParseOptions::deferFunctionErrors).
  void parseBodyOrDefer(const Token& nameTok, std::size_t openOffset) {
    std::string error;
    try {
      parseBody(module_.functions.back(), nameTok);
      return;
    } catch (const LexError& e) {
      error = Error(location(e.offset), e.message).what();
    } catch (const Error& e) {
      error = e.what();
    }
    const std::size_t close = matchingBrace(openOffset);
    if (close == std::string_view::npos) fail(openOffset, "function body without a closing '}'");
    Function& f = module_.functions.back();
    Function header;
    header.name = std::move(f.name);
    header.isEntry = f.isEntry;
    header.linkage = f.linkage;
    header.returns = std::move(f.returns);
    header.params = std::move(f.params);
    header.headerDirectives = std::move(f.headerDirectives);
    header.deferredError = std::move(error);
    f = std::move(header);
    fn_ = nullptr;
    scopes_.clear();
    pending_.clear();
    lex_.seek(close + 1);
  }

  // The '}' closing the '{' at `open`, skipping comments and strings; npos if none.
  std::size_t matchingBrace(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < text_.size(); ++i) {
      const char c = text_[i];
      if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '/') {
        while (i < text_.size() && text_[i] != '\n') ++i;
      } else if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '*') {
        const std::size_t end = text_.find("*/", i + 2);
        if (end == std::string_view::npos) return std::string_view::npos;
        i = end + 1;
      } else if (c == '"') {
        for (++i; i < text_.size() && text_[i] != '"'; ++i)
          if (text_[i] == '\\') ++i;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    return std::string_view::npos;
  }

  void openScope() {
    scopes_.emplace_back();
    scopes_.back().firstPending = pending_.size();
  }

  void parseBody(Function& f, const Token& nameTok) {
    fn_ = &f;
    f.hasBody = true;
    scopes_.clear();
    pending_.clear();
    usedRegisterNames_.clear();
    usedSymbolNames_.clear();
    usedLabelNames_.clear();
    currentLine_ = kNone;
    lastLine_ = SourceLine{};
    pendingNames_.clear();
    openScope();  // parameters live in the outermost scope
    for (std::uint32_t i = 0; i < f.returns.size(); ++i)
      declareSymbol(f.returns[i].name, {SymbolKind::ReturnParam, i}, nameTok.offset);
    for (std::uint32_t i = 0; i < f.params.size(); ++i)
      declareSymbol(f.params[i].name, {SymbolKind::Param, i}, nameTok.offset);
    lex_.next();  // '{'
    openScope();
    while (!scopes_.empty() && scopes_.size() > 1) parseStatement(nameTok);
    fn_ = nullptr;
    // Label operands now point at instructions; build the control-flow graph.
    f.cfg = buildControlFlowGraph(f);
  }

  void closeScope(const Token& at) {
    Scope& scope = scopes_.back();
    const bool outermost = scopes_.size() <= 2;
    std::size_t keep = scope.firstPending;
    for (std::size_t i = scope.firstPending; i < pending_.size(); ++i) {
      const PendingLabel p = pending_[i];
      auto it = scope.labels.find(p.name);
      if (it != scope.labels.end()) {
        resolveLabel(p, it->second);
      } else if (outermost) {
        fail(p.offset, fmt::format("unknown label or symbol '{}'", p.name));
      } else {
        pending_[keep++] = p;
      }
    }
    pending_.resize(keep);
    (void)at;
    scopes_.pop_back();
  }

  void resolveLabel(const PendingLabel& p, std::uint32_t label) {
    if (p.branchTargets) {
      fn_->branchTargets[p.table].labels[p.slot] = label;
      return;
    }
    Operand& op = fn_->operands[p.operand];
    op.index = label;
    op.value = fn_->labels[label].instruction;
  }

  // A unique function-wide spelling for a name declared in scope `depth`.
  std::string uniqueName(std::string_view name, NameSet& used) {
    if (used.insert(name).second) return std::string(name);  // the common case: no clash
    std::string candidate;
    for (int n = 1;; ++n) {
      candidate = fmt::format("{}${}", name, n);
      if (used.count(candidate) == 0) break;
    }
    used.insert(keyFor(candidate));
    return candidate;
  }

  // Function-wide label spelling. Labels of the body scope keep their name unless a hoisted
  // nested label took it first; only nested ones (and renamed ones) go into usedLabelNames_, so
  // the common case costs one lookup in an empty set.
  std::string labelName(std::string_view name) {
    const bool nested = scopes_.size() > 2;
    const auto& bodyLabels = scopes_[1].labels;
    auto taken = [&](std::string_view n) {
      return usedLabelNames_.count(n) != 0 || (nested && bodyLabels.count(n) != 0);
    };
    if (!taken(name)) {
      if (nested) usedLabelNames_.insert(name);
      return std::string(name);
    }
    std::string candidate;
    for (int n = 1;; ++n) {
      candidate = fmt::format("{}${}", name, n);
      if (!taken(candidate) && bodyLabels.count(candidate) == 0) break;
    }
    usedLabelNames_.insert(keyFor(candidate));
    return candidate;
  }

  // Parameters: their names are reserved so that hoisted locals never clash with them.
  void declareSymbol(const std::string& name, SymbolRef ref, std::size_t offset) {
    usedSymbolNames_.insert(keyFor(name));
    auto [it, inserted] = scopes_.back().symbols.emplace(keyFor(name), ref);
    if (!inserted) fail(offset, fmt::format("duplicate declaration of '{}'", name));
  }

  // Map keys must outlive the parse: names are copied into a deque (stable addresses).
  std::string_view keyFor(const std::string& s) {
    ownedNames_.push_back(s);
    return ownedNames_.back();
  }

  void parseStatement(const Token& fnName) {
    const Token t = lex_.next();
    switch (t.kind) {
      case Tok::End:
        fail(t, fmt::format("unexpected end of file: missing '}}' closing function '{}'", fnName.text));
      case Tok::Punct:
        if (t.punct == '{') {
          openScope();
          return;
        }
        if (t.punct == '}') {
          closeScope(t);
          return;
        }
        if (t.punct == '@') {
          parseInstruction(t, true);
          return;
        }
        fail(t, fmt::format("expected an instruction or directive, found {}", describe(t)));
      case Tok::Dot:
        parseBodyDirective(t);
        return;
      case Tok::Ident:
        if (peekPunct(':')) {
          lex_.next();
          defineLabel(t);
          return;
        }
        parseInstruction(t, false);
        return;
      default:
        fail(t, fmt::format("expected an instruction or directive, found {}", describe(t)));
    }
  }

  void defineLabel(const Token& name) {
    Function& f = *fn_;
    const auto index = static_cast<std::uint32_t>(f.labels.size());
    auto [it, inserted] = scopes_.back().labels.emplace(name.text, index);
    if (!inserted) fail(name, fmt::format("duplicate label '{}'", name.text));
    f.labels.push_back({labelName(name.text), static_cast<std::uint32_t>(f.instructions.size())});
    // A label may name a directive instead of an instruction.
    if (lex_.peek().kind == Tok::Dot) {
      const Token d = lex_.peek();
      if (d.text == ".branchtargets") {
        lex_.next();
        parseBranchTargets(f.labels.back().name, name);
      } else if (d.text == ".callprototype") {
        lex_.next();
        const std::size_t start = d.offset;
        while (!peekPunct(';') && lex_.peek().kind != Tok::End) lex_.next();
        expectPunct(';', "after .callprototype");
        f.prototypes.push_back(fmt::format("{}: {}", f.labels.back().name,
                                           text_.substr(start, lex_.position() - start)));
        scopes_.back().symbols[name.text] = {SymbolKind::Prototype,
                                             static_cast<std::uint32_t>(f.prototypes.size() - 1)};
        // Not a code label: keep the name out of the label table.
        scopes_.back().labels.erase(name.text);
        usedLabelNames_.erase(f.labels.back().name);
        f.labels.pop_back();
      }
    }
  }

  // `tableName` by value: the caller passes the name of the label popped below.
  void parseBranchTargets(std::string tableName, const Token& labelTok) {
    Function& f = *fn_;
    // The .branchtargets label itself is not a code label.
    scopes_.back().labels.erase(labelTok.text);
    usedLabelNames_.erase(f.labels.back().name);
    f.labels.pop_back();
    BranchTargets table;
    table.name = std::move(tableName);
    table.position = static_cast<std::uint32_t>(f.instructions.size());
    const auto tableIndex = static_cast<std::uint32_t>(f.branchTargets.size());
    f.branchTargets.push_back(table);
    scopes_.back().symbols[labelTok.text] = {SymbolKind::BranchTargets, tableIndex};
    std::uint32_t slot = 0;
    do {
      const Token l = expectIdent("a label");
      f.branchTargets[tableIndex].labels.push_back(kNone);
      pending_.push_back({0, l.text, l.offset, true, tableIndex, slot++});
    } while (acceptPunct(','));
    expectPunct(';', "after .branchtargets");
  }

  void parseBodyDirective(const Token& t) {
    Function& f = *fn_;
    const std::string_view d = t.text;
    if (d == ".loc") {
      parseLoc();
    } else if (d == ".reg") {
      parseRegisterDecl();
    } else if (d == ".pragma") {
      const Token s = lex_.next();
      if (s.kind != Tok::String) fail(s, fmt::format("expected a string after .pragma, found {}", describe(s)));
      expectPunct(';', "after .pragma");
      f.bodyDirectives.push_back({static_cast<std::uint32_t>(f.instructions.size()), fmt::format(".pragma {};", s.text)});
    } else if (d == ".local" || d == ".shared" || d == ".param" || d == ".const" || d == ".global" ||
               d == ".shared::cta" || d == ".shared::cluster") {
      std::vector<Variable> vars = parseVariables(t, Linkage::None, &f);
      for (auto& v : vars) {
        const std::string source = v.name;
        v.name = uniqueName(keyFor(source), usedSymbolNames_);
        const auto index = static_cast<std::uint32_t>(f.locals.size());
        f.locals.push_back(std::move(v));
        auto [it, inserted] = scopes_.back().symbols.emplace(keyFor(source), SymbolRef{SymbolKind::Local, index});
        if (!inserted) fail(t, fmt::format("duplicate declaration of '{}'", source));
      }
    } else if (d == ".extern" || d == ".visible" || d == ".weak") {
      const Token space = lex_.next();
      if (space.kind != Tok::Dot || declSpace(space.text) == StateSpace::Generic)
        fail(space, fmt::format("expected a state space after '{}', found {}", d, describe(space)));
      parseBodyDirective(space);
    } else {
      fail(t, fmt::format("unknown directive '{}' in a function body", d));
    }
  }

  void parseLoc() {
    Function& f = *fn_;
    SourceLine line;
    line.file = static_cast<std::uint32_t>(expectUnsigned("a file number"));
    line.line = static_cast<std::uint32_t>(expectUnsigned("a line number"));
    if (lex_.peek().kind == Tok::Int) line.column = static_cast<std::uint32_t>(expectUnsigned("a column"));
    while (acceptPunct(',')) {
      const Token attr = expectIdent("function_name or inlined_at");
      if (attr.text == "function_name") {
        expectIdent("a label");
      } else if (attr.text == "inlined_at") {
        expectUnsigned("a file number");
        expectUnsigned("a line number");
        if (lex_.peek().kind == Tok::Int) expectUnsigned("a column");
      } else {
        fail(attr, fmt::format("unknown .loc attribute '{}'", attr.text));
      }
    }
    if (currentLine_ != kNone && lastLine_ == line) return;
    f.sourceLines.push_back(line);
    lastLine_ = line;
    currentLine_ = static_cast<std::uint32_t>(f.sourceLines.size() - 1);
  }

  void parseRegisterDecl() {
    Function& f = *fn_;
    const Token at = lex_.peek();
    DeclAttrs a = parseDeclAttrs(StateSpace::Reg);
    (void)at;
    do {
      const Token name = expectIdent("a register name");
      RegisterDecl decl;
      decl.type = a.type;
      decl.vectorWidth = a.vectorWidth;
      decl.first = static_cast<std::uint32_t>(f.registers.size());
      Scope& scope = scopes_.back();
      if (acceptPunct('<')) {
        const Token n = lex_.peek();
        const std::uint64_t count = expectUnsigned("a register count");
        expectPunct('>', "after the register count");
        if (count == 0) fail(n, fmt::format("register range '{}<0>' must declare at least one register", name.text));
        if (count > (1u << 22) || f.registers.size() + count > (1u << 24))
          fail(n, fmt::format("register range '{}<{}>' is too large", name.text, count));
        decl.isRange = true;
        decl.count = static_cast<std::uint32_t>(count);
        for (const auto& r : scope.ranges)
          if (r.first == name.text) fail(name, fmt::format("duplicate register declaration '{}<{}>'", name.text, count));
        scope.ranges.emplace_back(name.text, static_cast<std::uint32_t>(f.registerDecls.size()));
      } else {
        decl.count = 1;
        if (!scope.registers.emplace(name.text, decl.first).second)
          fail(name, fmt::format("duplicate register declaration '{}'", name.text));
      }
      decl.name = uniqueName(name.text, usedRegisterNames_);
      for (std::uint32_t i = 0; i < decl.count; ++i)
        f.registers.push_back({decl.type, decl.vectorWidth, static_cast<std::uint32_t>(f.registerDecls.size())});
      f.registerDecls.push_back(std::move(decl));
    } while (acceptPunct(','));
    expectPunct(';', "after the register declaration");
  }

  // Register index for a name, or kNone. Looks through the scopes, innermost first.
  std::uint32_t lookupRegister(std::string_view name) const {
    // Split a trailing decimal number: %r17 -> ("%r", 17).
    std::size_t digits = 0;
    while (digits < name.size() && detail::isDigit(name[name.size() - 1 - digits])) ++digits;
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      // Ranges first (nearly every nvcc register is %r17-style); a scope cannot declare a
      // name both ways, so the order does not change the result.
      if (digits != 0 && !scope->ranges.empty()) {
        const std::uint32_t reg = lookupInRanges(*scope, name, digits);
        if (reg != kNone) return reg;
      }
      if (!scope->registers.empty()) {
        auto it = scope->registers.find(name);
        if (it != scope->registers.end()) return it->second;
      }
    }
    return kNone;
  }

  // %r17 -> range "%r", index 17. Tries the longest digit run first, then shorter ones (a
  // prefix may itself end in digits).
  std::uint32_t lookupInRanges(const Scope& scope, std::string_view name, std::size_t digits) const {
    for (std::size_t k = digits; k >= 1; --k) {
      const std::string_view num = name.substr(name.size() - k);
      if (k > 1 && num[0] == '0') continue;  // %r05 is not %r5
      const std::string_view prefix = name.substr(0, name.size() - k);
      for (const auto& [rangePrefix, declIndex] : scope.ranges) {
        if (rangePrefix != prefix) continue;
        std::uint64_t n = 0;
        if (k > 9 || !parseUnsigned(num, 10, n)) break;
        const RegisterDecl& decl = fn_->registerDecls[declIndex];
        if (n < decl.count) return decl.first + static_cast<std::uint32_t>(n);
        break;
      }
    }
    return kNone;
  }

  const SymbolRef* lookupSymbol(std::string_view name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      if (scope->symbols.empty()) continue;
      auto it = scope->symbols.find(name);
      if (it != scope->symbols.end()) return &it->second;
    }
    auto it = globalNames_.find(name);
    return it == globalNames_.end() ? nullptr : &it->second;
  }

  // ---------------------------------------------------------------- instructions
  void parseInstruction(const Token& first, bool guarded) {
    Function& f = *fn_;
    Instruction in;
    Token mnemonic = first;
    if (guarded) {
      if (acceptPunct('!')) in.flags |= instr_flags::kGuardNegated;
      const Token p = expectIdent("a predicate register after '@'");
      const std::uint32_t reg = lookupRegister(p.text);
      if (reg == kNone) fail(p, fmt::format("unknown register '{}'", p.text));
      in.guard = reg;
      mnemonic = lex_.next();
      if (mnemonic.kind != Tok::Ident) fail(mnemonic, fmt::format("expected an instruction after the guard, found {}", describe(mnemonic)));
    }
    if (mnemonic.text[0] == '%' || mnemonic.text[0] == '$')
      fail(mnemonic, fmt::format("expected an instruction, found {}", describe(mnemonic)));
    const auto opcode = lookupOpcode(mnemonic.text);
    in.opcode = opcode ? *opcode : Opcode::Unknown;
    in.firstQualifier = static_cast<std::uint32_t>(f.qualifiers.size());
    if (!opcode) {
      f.qualifiers.push_back(internQualifier(mnemonic.text));
      in.flags |= instr_flags::kUnknownOpcode | instr_flags::kUnmodelled;
    }
    bool unknownQualifier = false;
    while (lex_.peek().kind == Tok::Dot) {
      const Token q = lex_.next();
      const auto known = lookupQualifier(q.text);
      const Qualifier id = known ? *known : internQualifier(q.text);
      if (!known) unknownQualifier = true;
      f.qualifiers.push_back(id);
      decodeQualifier(in, id);
    }
    const std::size_t nq = f.qualifiers.size() - in.firstQualifier;
    if (nq > 255) fail(mnemonic, "too many qualifiers");
    in.numQualifiers = static_cast<std::uint8_t>(nq);
    const OpcodeInfo& info = opcodeInfo(in.opcode);
    if (!info.modelled) in.flags |= instr_flags::kUnmodelled;
    if (unknownQualifier) {
      in.flags |= instr_flags::kUnknownQualifier | instr_flags::kUnmodelled;
      if (opcode && info.modelled)
        warn(mnemonic.offset, fmt::format("instruction '{}' has a qualifier teg does not know; kept as unmodelled",
                                          text_.substr(mnemonic.offset, lex_.position() - mnemonic.offset)));
    }
    if (!opcode)
      warn(mnemonic.offset, fmt::format("unknown instruction '{}' kept as unmodelled", mnemonic.text));
    in.instrClass = opcode ? classify(in) : InstrClass::Unknown;
    in.sourceLine = currentLine_;

    // Operands.
    for (auto& level : scratch_) level.clear();
    if (!peekPunct(';')) {
      while (true) {
        scratch_[0].push_back(parseOperand(0));
        if (acceptPunct('|')) {
          scratch_[0].back().flags |= operand_flags::kPipeNext;
          continue;
        }
        if (acceptPunct(',')) continue;
        const Token t = lex_.peek();
        if (isPunct(t, ';')) break;
        fail(t, fmt::format("expected ',' or ';' after an operand, found {}", describe(t)));
      }
    }
    lex_.next();  // ';'
    if (scratch_[0].size() > 255) fail(mnemonic, "too many operands");
    in.numOperands = static_cast<std::uint8_t>(scratch_[0].size());
    in.firstOperand = emitOperands(0, 0, scratch_[0].size());
    f.instructions.push_back(in);
  }

  void decodeQualifier(Instruction& in, Qualifier q) {
    switch (qualifierCategory(q)) {
      case QualifierCategory::Type: {
        const auto t = static_cast<Type>(static_cast<std::uint16_t>(q));
        if (in.type == Type::None) {
          in.type = t;
        } else if (in.type2 == Type::None) {
          in.type2 = t;
        }
        return;
      }
      case QualifierCategory::Space:
        if (in.space == StateSpace::Generic) in.space = spaceOf(q);
        return;
      case QualifierCategory::Vector:
        in.vectorWidth = q == Qualifier::V2 ? 2 : q == Qualifier::V4 ? 4 : 8;
        return;
      case QualifierCategory::Rounding:
        in.rounding = roundingOf(q);
        return;
      case QualifierCategory::Compare:
        if ((in.opcode == Opcode::Setp || in.opcode == Opcode::Set) && in.compare == CompareOp::None) {
          in.compare = compareOf(q);
          return;
        }
        in.modifiers |= modifierBit(q);
        return;
      case QualifierCategory::Operation: case QualifierCategory::Scope: case QualifierCategory::Order:
      case QualifierCategory::Cache: case QualifierCategory::Geometry: case QualifierCategory::Other:
      case QualifierCategory::Unknown:
        in.modifiers |= modifierBit(q);
        return;
    }
  }

  // Copies scratch_[level][begin, end) to the pool, then their children; returns the position.
  std::uint32_t emitOperands(int level, std::size_t begin, std::size_t end) {
    Function& f = *fn_;
    const auto base = static_cast<std::uint32_t>(f.operands.size());
    for (std::size_t i = begin; i < end; ++i) f.operands.push_back(scratch_[level][i]);
    for (std::size_t i = begin; i < end; ++i) {
      const Operand op = scratch_[level][i];
      const std::uint32_t at = base + static_cast<std::uint32_t>(i - begin);
      const bool compound =
          op.kind == OperandKind::Vector || op.kind == OperandKind::List || op.kind == OperandKind::ParamList;
      if (compound && level + 1 < kMaxDepth) {
        f.operands[at].index = emitOperands(level + 1, op.index, op.index + op.aux);
      } else if ((op.kind == OperandKind::Label) && op.index == kNone) {
        const auto& name = pendingNames_[static_cast<std::size_t>(op.value)];
        pending_.push_back({at, name.first, name.second, false});
      }
    }
    return base;
  }

  Operand parseOperand(int level) {
    Operand op;
    const Token t = lex_.next();
    if (t.kind == Tok::Punct) {
      switch (t.punct) {
        case '!': {
          op = parseOperand(level);
          if (op.kind != OperandKind::Register) fail(t, "'!' applies to a predicate register only");
          op.flags |= operand_flags::kNegated;
          return op;
        }
        case '-': {
          const Token n = lex_.next();
          if (n.kind == Tok::Int) {
            op.kind = OperandKind::Immediate;
            op.value = static_cast<std::int64_t>(~intValue(n) + 1);
            return op;
          }
          if (n.kind == Tok::DecFloat) {
            op.kind = OperandKind::FloatImm64;
            op.value = static_cast<std::int64_t>(floatBits(n) ^ (1ull << 63));
            return op;
          }
          fail(n, fmt::format("expected a number after '-', found {}", describe(n)));
        }
        case '{': return parseCompound(level, OperandKind::Vector, '}', "closing the vector");
        case '(': return parseCompound(level, OperandKind::ParamList, ')', "closing the parameter list");
        case '[': return parseBracket(level, t);
        default: break;
      }
      fail(t, fmt::format("expected an operand, found {}", describe(t)));
    }
    switch (t.kind) {
      case Tok::Int:
        op.kind = OperandKind::Immediate;
        op.value = static_cast<std::int64_t>(intValue(t));
        return op;
      case Tok::F32Hex:
        op.kind = OperandKind::FloatImm32;
        op.value = static_cast<std::int64_t>(floatBits(t));
        return op;
      case Tok::F64Hex: case Tok::DecFloat:
        op.kind = OperandKind::FloatImm64;
        op.value = static_cast<std::int64_t>(floatBits(t));
        return op;
      case Tok::Ident: return parseNamedOperand(t);
      default: fail(t, fmt::format("expected an operand, found {}", describe(t)));
    }
  }

  std::uint8_t parseComponent() {
    const Token& c = lex_.peek();
    if (c.kind != Tok::Dot || c.text.size() != 2) return 0;
    std::uint8_t k = 0;
    switch (c.text[1]) {
      case 'x': case 'r': k = 1; break;
      case 'y': case 'g': k = 2; break;
      case 'z': case 'b': k = 3; break;
      case 'w': case 'a': k = 4; break;
      default: return 0;
    }
    lex_.next();
    return k;
  }

  Operand parseNamedOperand(const Token& t) {
    Operand op;
    if (t.text == "_") {
      op.kind = OperandKind::Sink;
      return op;
    }
    const std::uint32_t reg = lookupRegister(t.text);
    if (reg != kNone) {
      op.kind = OperandKind::Register;
      op.index = reg;
      if (fn_->registers[reg].vectorWidth > 1) op.component = parseComponent();
      return op;
    }
    if (t.text[0] == '%') {
      if (auto s = lookupSpecialRegister(t.text)) {
        op.kind = OperandKind::Special;
        op.index = static_cast<std::uint32_t>(*s);
        if (specialRegisterIsVector(*s)) {
          op.component = parseComponent();
          if (op.component == 0 || op.component == 4)
            fail(t, fmt::format("special register '{}' needs a component .x, .y or .z", t.text));
        }
        return op;
      }
    }
    if (t.text == "WARP_SZ") {
      // PTX ISA §5.4.3 (predefined identifiers): WARP_SZ, the warp size in threads, is a run-time
      // immediate constant; nvcc emits it for CUDA's warpSize. 32 on every NVIDIA GPU so far.
      op.kind = OperandKind::Immediate;
      op.value = 32;
      return op;
    }
    if (const SymbolRef* s = lookupSymbol(t.text)) {
      op.kind = OperandKind::Symbol;
      op.index = s->index;
      op.flags = static_cast<std::uint8_t>(static_cast<std::uint8_t>(s->kind) << 4);
      if (peekPunct('+')) {
        lex_.next();
        op.value = static_cast<std::int64_t>(expectUnsigned("an offset after '+'"));
      }
      return op;
    }
    if (t.text[0] == '%') fail(t, fmt::format("unknown register '{}'", t.text));
    // Otherwise a label, resolved when its scope closes.
    op.kind = OperandKind::Label;
    op.index = kNone;
    op.value = static_cast<std::int64_t>(pendingNames_.size());
    pendingNames_.emplace_back(t.text, t.offset);
    return op;
  }

  Operand parseCompound(int level, OperandKind kind, char close, std::string_view context) {
    if (level + 1 >= kMaxDepth) fail(lex_.position(), "operands nested too deeply");
    auto& children = scratch_[level + 1];
    Operand op;
    op.kind = kind;
    op.index = static_cast<std::uint32_t>(children.size());
    std::size_t count = 0;
    if (!acceptPunct(close)) {
      // Parse into a local list first: a nested compound appends to deeper levels only.
      while (true) {
        Operand child = parseOperand(level + 1);
        scratch_[level + 1].push_back(child);
        ++count;
        if (acceptPunct('|')) {
          scratch_[level + 1].back().flags |= operand_flags::kPipeNext;
          continue;
        }
        if (acceptPunct(',')) continue;
        expectPunct(close, context);
        break;
      }
    }
    if (count > 255) fail(lex_.position(), "too many elements in one operand");
    op.aux = static_cast<std::uint8_t>(count);
    return op;
  }

  // [reg+imm], [sym+imm], [imm], or a texture/surface list [tex, {coords}].
  Operand parseBracket(int level, const Token& open) {
    Operand op;
    op.kind = OperandKind::Address;
    Token t = lex_.next();
    if (t.kind == Tok::Ident) {
      const std::uint32_t reg = lookupRegister(t.text);
      if (reg != kNone) {
        op.aux = static_cast<std::uint8_t>(AddressBase::Register);
        op.index = reg;
      } else if (const SymbolRef* s = lookupSymbol(t.text)) {
        op.aux = static_cast<std::uint8_t>(AddressBase::Symbol);
        op.index = s->index;
        op.flags = static_cast<std::uint8_t>(static_cast<std::uint8_t>(s->kind) << 4);
      } else if (t.text[0] == '%') {
        fail(t, fmt::format("unknown register '{}'", t.text));
      } else {
        fail(t, fmt::format("unknown symbol '{}' in an address", t.text));
      }
      if (peekPunct(',')) {  // a list: the first element becomes a child operand
        if (level + 1 >= kMaxDepth) fail(open, "operands nested too deeply");
        Operand first;
        if (op.addressBase() == AddressBase::Register) {
          first.kind = OperandKind::Register;
          first.index = op.index;
        } else {
          first.kind = OperandKind::Symbol;
          first.index = op.index;
          first.flags = op.flags;
        }
        auto& children = scratch_[level + 1];
        Operand list;
        list.kind = OperandKind::List;
        list.index = static_cast<std::uint32_t>(children.size());
        children.push_back(first);
        std::size_t count = 1;
        while (acceptPunct(',')) {
          Operand child = parseOperand(level + 1);
          scratch_[level + 1].push_back(child);
          ++count;
        }
        expectPunct(']', "closing the operand list");
        if (count > 255) fail(open, "too many elements in one operand");
        list.aux = static_cast<std::uint8_t>(count);
        return list;
      }
    } else if (t.kind == Tok::Int || isPunct(t, '-')) {
      op.aux = static_cast<std::uint8_t>(AddressBase::Immediate);
      if (isPunct(t, '-')) {
        t = lex_.next();
        if (t.kind != Tok::Int) fail(t, fmt::format("expected a number after '-', found {}", describe(t)));
        op.value = static_cast<std::int64_t>(~intValue(t) + 1);
      } else {
        op.value = static_cast<std::int64_t>(intValue(t));
      }
      expectPunct(']', "closing the address");
      return op;
    } else {
      fail(t, fmt::format("expected a register, symbol or number in an address, found {}", describe(t)));
    }
    if (acceptPunct('+')) {
      const bool negative = acceptPunct('-');
      const Token n = lex_.next();
      if (n.kind != Tok::Int) fail(n, fmt::format("expected an offset after '+', found {}", describe(n)));
      const std::uint64_t v = intValue(n);
      op.value += static_cast<std::int64_t>(negative ? ~v + 1 : v);
    } else if (acceptPunct('-')) {
      const Token n = lex_.next();
      if (n.kind != Tok::Int) fail(n, fmt::format("expected an offset after '-', found {}", describe(n)));
      op.value -= static_cast<std::int64_t>(intValue(n));
    }
    expectPunct(']', "closing the address");
    return op;
  }

  // ---------------------------------------------------------------- finishing
  void finishModule() {
    // Calls name the declaration visible at the call; point them at the definition if any.
    std::unordered_map<std::string_view, std::uint32_t> defined;
    for (std::uint32_t i = 0; i < module_.functions.size(); ++i)
      if (module_.functions[i].hasBody) defined[module_.functions[i].name] = i;
    for (auto& f : module_.functions) {
      for (auto& op : f.operands) {
        const bool symbol = op.kind == OperandKind::Symbol ||
                            (op.kind == OperandKind::Address && op.addressBase() == AddressBase::Symbol);
        if (!symbol || op.symbolKind() != SymbolKind::Function) continue;
        auto it = defined.find(module_.functions[op.index].name);
        if (it != defined.end()) op.index = it->second;
      }
    }
  }

  static constexpr int kMaxDepth = 3;

  Lexer lex_;
  std::string_view text_;
  ParseOptions options_;
  Module module_;
  Function* fn_ = nullptr;
  std::vector<Scope> scopes_;
  std::vector<PendingLabel> pending_;
  std::vector<std::pair<std::string_view, std::uint32_t>> pendingNames_;
  NameMap<SymbolRef> globalNames_;
  NameSet usedRegisterNames_, usedSymbolNames_, usedLabelNames_;
  std::deque<std::string> ownedNames_;
  std::vector<Operand> scratch_[kMaxDepth];
  std::uint32_t currentLine_ = kNone;
  SourceLine lastLine_;
};

}  // namespace

Module parseModule(std::string_view text, const std::string& fileName, ParseOptions options) {
  return Parser(text, fileName, options).run();
}

Module parseFile(const std::string& path) {
  const std::string text = readInputFile(path);
  return parseModule(text, path);
}

}  // namespace teg::ptx

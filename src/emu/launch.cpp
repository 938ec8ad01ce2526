// Launch descriptions: JSON -> LaunchDescription, and buffer initialisers -> bytes.
#include "teg/emu/launch.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <string_view>

#include "teg/emu/npy.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"
#include "teg/support/memory_limit.hpp"

namespace teg::emu {

namespace {

using nlohmann::json;

// Reads fields of one JSON object and reports errors as "<file>: <path>: <problem>".
class Fields {
 public:
  Fields(const json& node, std::string file, std::string path)
      : node_(node), file_(std::move(file)), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw Error(fmt::format("{}: {}: {}", file_, join(field), problem));
  }
  [[nodiscard]] std::string join(const std::string& field) const {
    if (path_.empty()) return field;
    if (field.empty()) return path_;
    return field.front() == '[' ? path_ + field : path_ + "." + field;
  }
  [[nodiscard]] bool has(const std::string& key) const { return node_.contains(key); }
  [[nodiscard]] const json& at(const std::string& key) const {
    if (!node_.contains(key)) fail(key, "missing");
    return node_.at(key);
  }
  [[nodiscard]] std::string string(const std::string& key) const {
    const auto& v = at(key);
    if (!v.is_string()) fail(key, "expected a string");
    return v.get<std::string>();
  }
  [[nodiscard]] double number(const std::string& key) const {
    const auto& v = at(key);
    if (!v.is_number()) fail(key, "expected a number");
    return v.get<double>();
  }
  [[nodiscard]] std::uint64_t unsignedInt(const std::string& key, std::uint64_t max) const {
    const auto& v = at(key);
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0))
      fail(key, "expected a non-negative integer");
    const auto value = v.get<std::uint64_t>();
    if (value > max) fail(key, fmt::format("{} is larger than the maximum {}", value, max));
    return value;
  }
  void rejectUnknown(std::initializer_list<const char*> known) const {
    for (const auto& [key, value] : node_.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok) fail(key, fmt::format("unknown field (expected one of: {})", fmt::join(known, ", ")));
    }
  }
  // `example` shows the object's shape in the error (README, "Run a kernel on the CPU", has the whole format).
  [[nodiscard]] Fields child(const std::string& key, std::string_view example = {}) const {
    const auto& v = at(key);
    if (!v.is_object()) fail(key, example.empty() ? std::string("expected an object") : fmt::format("expected an object such as {}", example));
    return Fields(v, file_, join(key));
  }
  [[nodiscard]] const std::string& file() const { return file_; }

 private:
  const json& node_;
  std::string file_;
  std::string path_;
};

std::string resolvePath(const std::string& launchFile, const std::string& relative) {
  namespace fs = std::filesystem;
  const fs::path p(relative);
  if (p.is_absolute() || launchFile.empty()) return p.lexically_normal().string();
  return (fs::path(launchFile).parent_path() / p).lexically_normal().string();
}

Dim3 parseDim3(const Fields& f, const std::string& key) {
  const auto& v = f.at(key);
  std::vector<std::uint64_t> values;
  if (v.is_number_integer()) {
    values.push_back(f.unsignedInt(key, std::numeric_limits<std::uint32_t>::max()));
  } else if (v.is_array() && !v.empty() && v.size() <= 3) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number_unsigned()) f.fail(fmt::format("{}[{}]", key, i), "expected a positive integer");
      values.push_back(v[i].get<std::uint64_t>());
    }
  } else {
    f.fail(key, "expected 1 to 3 positive integers, e.g. [256] or [16, 16]");
  }
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] == 0 || values[i] > std::numeric_limits<std::uint32_t>::max())
      f.fail(fmt::format("{}[{}]", key, i), "must be between 1 and 2^32-1");
  Dim3 d;
  d.x = static_cast<std::uint32_t>(values[0]);
  if (values.size() > 1) d.y = static_cast<std::uint32_t>(values[1]);
  if (values.size() > 2) d.z = static_cast<std::uint32_t>(values[2]);
  return d;
}

ScalarType parseType(const Fields& f, const std::string& key) {
  const std::string name = f.string(key);
  if (auto t = scalarTypeFromName(name)) return *t;
  f.fail(key, fmt::format("unknown type '{}' (expected i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 bool)", name));
}

BufferInit parseInit(const Fields& parent, const std::string& key) {
  const auto& v = parent.at(key);
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "zeros") return ZerosInit{};
    if (s == "iota") return IotaInit{};
    parent.fail(key, fmt::format("unknown initialiser '{}' (expected \"zeros\", \"iota\", "
                                 "{{\"constant\": x}}, {{\"random\": ...}}, {{\"values\": [...]}} or "
                                 "{{\"file\": ...}})", s));
  }
  if (!v.is_object() || v.size() != 1)
    parent.fail(key, "expected \"zeros\", \"iota\", or an object with one of constant, random, values, file");
  const Fields init = parent.child(key);
  if (init.has("constant")) {
    const auto& c = init.at("constant");
    if (c.is_boolean()) return ConstantInit{c.get<bool>() ? 1.0 : 0.0};
    return ConstantInit{init.number("constant")};
  }
  if (init.has("values")) {
    const auto& list = init.at("values");
    if (!list.is_array()) init.fail("values", "expected an array of numbers");
    ValuesInit values;
    values.values.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].is_boolean()) values.values.push_back(list[i].get<bool>() ? 1.0 : 0.0);
      else if (list[i].is_number()) values.values.push_back(list[i].get<double>());
      else init.fail(fmt::format("values[{}]", i), "expected a number");
    }
    return values;
  }
  if (init.has("file")) return FileInit{resolvePath(init.file(), init.string("file"))};
  if (init.has("pointer_cycle")) {
    const Fields c = init.child("pointer_cycle");
    c.rejectUnknown({"stride", "seed"});
    PointerCycleInit cycle;
    if (c.has("stride")) cycle.stride = c.unsignedInt("stride", std::uint64_t{1} << 40);
    if (cycle.stride < 8 || cycle.stride % 8 != 0) c.fail("stride", "must be a positive multiple of 8 (bytes between pointers)");
    cycle.seed = c.has("seed") ? c.unsignedInt("seed", std::numeric_limits<std::uint64_t>::max()) : 0;
    return cycle;
  }
  if (init.has("random")) {
    const Fields r = init.child("random");
    r.rejectUnknown({"seed", "min", "max"});
    RandomInit random;
    random.seed = r.has("seed") ? r.unsignedInt("seed", std::numeric_limits<std::uint64_t>::max()) : 0;
    random.min = r.has("min") ? r.number("min") : 0.0;
    random.max = r.has("max") ? r.number("max") : 1.0;
    if (random.max < random.min) r.fail("max", "must not be smaller than min");
    return random;
  }
  init.rejectUnknown({"constant", "random", "values", "file", "pointer_cycle"});
  parent.fail(key, "unreachable");
}

LaunchArg parseArg(const Fields& f, int depth);

// Struct nesting deeper than this is surely a mistake (and would exhaust the stack if not).
constexpr int kMaxStructDepth = 16;

StructArg parseStruct(const Fields& f, int depth) {
  const auto& fields = f.at("struct");
  if (!fields.is_array() || fields.empty()) f.fail("struct", "expected a non-empty array of fields");
  if (depth >= kMaxStructDepth) f.fail("struct", fmt::format("structs nested deeper than {}", kMaxStructDepth));
  StructArg s;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string at = fmt::format("struct[{}]", i);
    if (!fields[i].is_object()) f.fail(at, "expected an object (a field written like an argument)");
    LaunchArg field = parseArg(Fields(fields[i], f.file(), f.join(at)), depth + 1);
    if (field.name.empty() && !std::holds_alternative<ScalarArg>(field.value))
      f.fail(at, "a buffer, struct or texture field needs a \"name\" (its buffer is called \"<struct>.<field>\")");
    s.fields.push_back(std::move(field));
  }
  return s;
}

// Texture formats CUDA can bind (cudaChannelFormatKind: 8/16/32-bit integers, 16/32-bit floats).
bool isTextureFormat(ScalarType t) {
  return t != ScalarType::I64 && t != ScalarType::U64 && t != ScalarType::F64 && t != ScalarType::Bool;
}

TextureArg parseTexture(const Fields& t) {
  t.rejectUnknown({"type", "channels", "width", "height", "pitch", "init", "address", "filter",
                   "normalized_coords", "read"});
  TextureArg tex;
  tex.type = parseType(t, "type");
  if (!isTextureFormat(tex.type))
    t.fail("type", fmt::format("{} is not a texture format (8, 16 or 32-bit integers, f16, f32)", scalarTypeName(tex.type)));
  if (t.has("channels")) {
    tex.channels = static_cast<std::uint32_t>(t.unsignedInt("channels", 4));
    if (tex.channels != 1 && tex.channels != 2 && tex.channels != 4) t.fail("channels", "must be 1, 2 or 4");
  }
  // 2^31 texels per dimension and 2^36 bytes in all keep every index product below 2^64.
  const std::uint64_t maxDim = std::uint64_t{1} << 31;
  tex.width = t.unsignedInt("width", maxDim);
  if (tex.width == 0) t.fail("width", "must be at least 1");
  if (t.has("height")) {
    tex.height = t.unsignedInt("height", maxDim);
    if (tex.height == 0) t.fail("height", "must be at least 1");
  }
  const std::uint64_t rowBytes = tex.width * tex.texelBytes();
  tex.pitchBytes = rowBytes;
  if (t.has("pitch")) {
    if (tex.height == 0) t.fail("pitch", "only a 2-D texture (with \"height\") has a row pitch");
    tex.pitchBytes = t.unsignedInt("pitch", std::uint64_t{1} << 36);
    if (tex.pitchBytes < rowBytes || tex.pitchBytes % tex.texelBytes() != 0)
      t.fail("pitch", fmt::format("must be a multiple of the texel size ({} bytes) and at least width × texel = {} bytes",
                                  tex.texelBytes(), rowBytes));
  }
  if (tex.pitchBytes > (std::uint64_t{1} << 36) / std::max<std::uint64_t>(tex.height, 1))  // no overflow
    t.fail("", "the texture's buffer would exceed 2^36 bytes");
  if (t.has("init")) tex.init = parseInit(t, "init");
  if (t.has("address")) {
    const std::string mode = t.string("address");
    if (mode == "clamp") tex.address = TextureAddressMode::Clamp;
    else if (mode == "border") tex.address = TextureAddressMode::Border;
    else if (mode == "wrap") tex.address = TextureAddressMode::Wrap;
    else if (mode == "mirror") tex.address = TextureAddressMode::Mirror;
    else t.fail("address", fmt::format("unknown address mode '{}' (expected clamp, border, wrap or mirror)", mode));
  }
  if (t.has("filter")) {
    const std::string filter = t.string("filter");
    if (filter == "point") tex.filter = TextureFilter::Point;
    else if (filter == "linear") tex.filter = TextureFilter::Linear;
    else t.fail("filter", fmt::format("unknown filter '{}' (expected point or linear)", filter));
  }
  if (t.has("read")) {
    const std::string read = t.string("read");
    if (read == "element") tex.read = TextureReadMode::Element;
    else if (read == "normalized_float") tex.read = TextureReadMode::NormalizedFloat;
    else t.fail("read", fmt::format("unknown read mode '{}' (expected element or normalized_float)", read));
  }
  if (t.has("normalized_coords")) {
    if (!t.at("normalized_coords").is_boolean()) t.fail("normalized_coords", "expected true or false");
    tex.normalizedCoords = t.at("normalized_coords").get<bool>();
  }
  // The rules of cudaCreateTextureObject (CUDA C++ Programming Guide, "Texture Fetching" and
  // "Texture Object API").
  const bool narrowInteger = !isFloatingPoint(tex.type) && scalarTypeSize(tex.type) <= 2;
  if (tex.read == TextureReadMode::NormalizedFloat && !narrowInteger)
    t.fail("read", "normalized_float applies to 8- and 16-bit integer textures only");
  if (tex.filter == TextureFilter::Linear && !isFloatingPoint(tex.type) && tex.read != TextureReadMode::NormalizedFloat)
    t.fail("filter", "linear filtering needs a floating-point result: an f16/f32 texture, or an 8/16-bit integer "
                     "one read as normalized_float");
  // Wrap and mirror need normalised coordinates; with unnormalised ones cudaCreateTextureObject
  // accepts them and the runtime switches them to clamp (CUDA Runtime API, cudaTextureDesc::
  // addressMode), as cuda-samples' dct8x8 relies on (linear filter, wrap, unnormalised).
  if ((tex.address == TextureAddressMode::Wrap || tex.address == TextureAddressMode::Mirror) && !tex.normalizedCoords)
    tex.address = TextureAddressMode::Clamp;
  return tex;
}

LaunchArg parseArg(const Fields& f, int depth) {
  f.rejectUnknown({"name", "scalar", "buffer", "struct", "texture"});
  LaunchArg arg;
  arg.name = f.has("name") ? f.string("name") : "";
  if (int{f.has("scalar")} + f.has("buffer") + f.has("struct") + f.has("texture") != 1)
    f.fail("", "needs exactly one of \"scalar\", \"buffer\", \"struct\" or \"texture\"");
  if (f.has("struct")) {
    arg.value = parseStruct(f, depth);
    return arg;
  }
  if (f.has("texture")) {
    arg.value = parseTexture(f.child("texture"));
    return arg;
  }
  if (f.has("scalar")) {
    const Fields s = f.child("scalar", R"({"type": "i32", "value": 4096})");
    s.rejectUnknown({"type", "value"});
    ScalarArg scalar;
    scalar.type = parseType(s, "type");
    const auto& v = s.at("value");
    if (scalar.type == ScalarType::Bool) {
      if (v.is_boolean()) scalar.value = std::uint64_t{v.get<bool>() ? 1u : 0u};
      else if (v.is_number_unsigned() && v.get<std::uint64_t>() <= 1) scalar.value = v.get<std::uint64_t>();
      else s.fail("value", "expected true, false, 0 or 1 for type bool");
    } else if (isFloatingPoint(scalar.type)) {
      scalar.value = s.number("value");
    } else if (v.is_number_unsigned()) {
      scalar.value = v.get<std::uint64_t>();
    } else if (v.is_number_integer()) {
      scalar.value = v.get<std::int64_t>();
    } else {
      s.fail("value", fmt::format("expected an integer for type {}", scalarTypeName(scalar.type)));
    }
    checkScalarFits(scalar, fmt::format("{}: {}{}", s.file(), s.join("value"),
                                        arg.name.empty() ? "" : " ('" + arg.name + "')"));
    arg.value = scalar;
  } else {
    const Fields b = f.child("buffer", R"({"type": "f32", "count": 1024, "init": "zeros"})");
    b.rejectUnknown({"type", "count", "init", "expect", "margin"});
    BufferArg buffer;
    buffer.type = parseType(b, "type");
    buffer.count = b.unsignedInt("count", std::uint64_t{1} << 36);
    if (b.has("margin")) buffer.marginBytes = b.unsignedInt("margin", std::uint64_t{1} << 30);
    if (b.has("init")) buffer.init = parseInit(b, "init");
    if (b.has("expect")) {
      const Fields e = b.child("expect");
      e.rejectUnknown({"file", "init", "tolerance"});
      ExpectedValues expect;
      if (e.has("file"))
        expect.values = FileInit{resolvePath(e.file(), e.string("file"))};
      else
        expect.values = parseInit(e, "init");
      expect.tolerance = e.has("tolerance") ? e.number("tolerance") : 0.0;
      if (expect.tolerance < 0) e.fail("tolerance", "must be >= 0");
      buffer.expect = expect;
    }
    arg.value = buffer;
  }
  return arg;
}

template <typename T>
void storeValue(std::byte* dest, T value) {
  std::memcpy(dest, &value, sizeof(T));
}

// Converts `value` to `type` and stores it little-endian at dest (x86-64 and aarch64 are LE).
void storeAs(ScalarType type, double value, std::byte* dest) {
  switch (type) {
    case ScalarType::I8: storeValue(dest, static_cast<std::int8_t>(value)); return;
    case ScalarType::U8: storeValue(dest, static_cast<std::uint8_t>(value)); return;
    case ScalarType::I16: storeValue(dest, static_cast<std::int16_t>(value)); return;
    case ScalarType::U16: storeValue(dest, static_cast<std::uint16_t>(value)); return;
    case ScalarType::I32: storeValue(dest, static_cast<std::int32_t>(value)); return;
    case ScalarType::U32: storeValue(dest, static_cast<std::uint32_t>(value)); return;
    case ScalarType::I64: storeValue(dest, static_cast<std::int64_t>(value)); return;
    case ScalarType::U64: storeValue(dest, static_cast<std::uint64_t>(value)); return;
    case ScalarType::F16: storeValue(dest, floatToHalf(static_cast<float>(value))); return;
    case ScalarType::F32: storeValue(dest, static_cast<float>(value)); return;
    case ScalarType::F64: storeValue(dest, value); return;
    case ScalarType::Bool: storeValue(dest, static_cast<std::uint8_t>(value != 0)); return;
  }
}

// The representable range of an integer type, to reject constants that would wrap.
bool fitsInteger(ScalarType type, double value) {
  if (type == ScalarType::Bool) return value == 0 || value == 1;
  const int bits = scalarTypeSize(type) * 8;
  if (isSigned(type)) return value >= -std::ldexp(1.0, bits - 1) && value < std::ldexp(1.0, bits - 1);
  return value >= 0 && value < std::ldexp(1.0, bits);
}

// An optional array of non-empty strings (include_dirs, defines, nvcc_args).
std::vector<std::string> stringList(const Fields& f, const std::string& key) {
  std::vector<std::string> values;
  if (!f.has(key)) return values;
  const auto& v = f.at(key);
  if (!v.is_array()) f.fail(key, "expected an array of strings");
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string() || v[i].get<std::string>().empty())
      f.fail(fmt::format("{}[{}]", key, i), "expected a non-empty string");
    values.push_back(v[i].get<std::string>());
  }
  return values;
}

// The largest magnitude that rounds to a finite value of a floating-point type (the largest
// finite value plus half an ulp): beyond it the conversion gives inf (and, for a double to float
// cast, undefined behaviour in C++).
double floatOverflowThreshold(ScalarType type) {
  switch (type) {
    case ScalarType::F16: return 65520.0;                                       // 65504 + 16
    case ScalarType::F32: return std::ldexp(2.0 - std::ldexp(1.0, -24), 127);  // FLT_MAX + ulp/2
    default: return std::numeric_limits<double>::infinity();
  }
}

// The integers a type holds: [lowest, highest] (the lowest as a signed, the highest as an
// unsigned 64-bit value, so that both i64 and u64 fit).
std::pair<std::int64_t, std::uint64_t> integerRange(ScalarType type) {
  const int bits = scalarTypeSize(type) * 8;
  if (isSigned(type)) {
    const std::uint64_t highest = (std::uint64_t{1} << (bits - 1)) - 1;
    return {-static_cast<std::int64_t>(highest) - 1, highest};
  }
  return {0, bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1};
}

std::string typeRange(ScalarType type) {
  switch (type) {
    case ScalarType::F16: return "magnitudes up to 65504";
    case ScalarType::F32: return fmt::format("magnitudes up to {}", std::numeric_limits<float>::max());
    case ScalarType::F64: return fmt::format("magnitudes up to {}", std::numeric_limits<double>::max());
    default: break;
  }
  const auto [lowest, highest] = integerRange(type);
  return fmt::format("{} to {}", lowest, highest);
}

// A floating-point value a float type turns into inf.
bool overflowsFloat(ScalarType type, double value) { return std::abs(value) >= floatOverflowThreshold(type); }

}  // namespace

void checkScalarFits(const ScalarArg& arg, const std::string& what) {
  const ScalarType type = arg.type;
  const auto fail = [&](const std::string& value) {
    throw Error(fmt::format("{}: {} does not fit {} (it holds {}); the kernel would see a different value",
                            what, value, scalarTypeName(type), typeRange(type)));
  };
  if (isFloatingPoint(type)) {
    const double v = std::visit([](auto x) { return static_cast<double>(x); }, arg.value);
    if (overflowsFloat(type, v)) fail(fmt::format("{}", v));
    return;
  }
  const auto [lowest, highest] = integerRange(type);
  if (const auto* d = std::get_if<double>(&arg.value)) {
    if (!fitsInteger(type, *d) || *d != std::floor(*d)) fail(fmt::format("{}", *d));
  } else if (const auto* i = std::get_if<std::int64_t>(&arg.value)) {
    if (*i < lowest || (*i > 0 && static_cast<std::uint64_t>(*i) > highest)) fail(fmt::format("{}", *i));
  } else if (const auto u = std::get<std::uint64_t>(arg.value); u > highest) {
    fail(fmt::format("{}", u));
  }
}

LaunchDescription parseLaunch(const std::string& jsonText, const std::string& file) {
  const json doc = parseJson(jsonText, file);
  if (!doc.is_object()) throw Error(fmt::format("{}: expected a JSON object at the top level", file));
  const Fields f(doc, file, "");
  f.rejectUnknown({"source", "kernel", "grid", "block", "dynamic_smem", "carveout", "args", "symbols", "description",
                   "include_dirs", "defines", "nvcc_args"});
  LaunchDescription launch;
  launch.file = file;
  launch.source = resolvePath(file, f.string("source"));
  launch.kernel = f.string("kernel");
  launch.grid = parseDim3(f, "grid");
  launch.block = parseDim3(f, "block");
  if (f.has("dynamic_smem"))
    launch.dynamicSmem = static_cast<std::uint32_t>(f.unsignedInt("dynamic_smem", std::numeric_limits<std::uint32_t>::max()));
  if (f.has("carveout")) launch.carveoutPercent = static_cast<int>(f.unsignedInt("carveout", 100));
  for (const auto& dir : stringList(f, "include_dirs")) launch.includeDirs.push_back(resolvePath(file, dir));
  launch.defines = stringList(f, "defines");
  for (std::size_t i = 0; i < launch.defines.size(); ++i)
    if (launch.defines[i].front() == '=' || launch.defines[i].find_first_of(" \t\n") < launch.defines[i].find('='))
      f.fail(fmt::format("defines[{}]", i), fmt::format("'{}' is not NAME or NAME=VALUE", launch.defines[i]));
  launch.nvccArgs = stringList(f, "nvcc_args");
  if (f.has("args")) {
    const auto& args = f.at("args");
    if (!args.is_array()) f.fail("args", "expected an array");
    // Arguments are found by name (--dump NAME, expected values, reports): two of one name
    // would make all of those ambiguous.
    std::map<std::string, std::size_t> named;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!args[i].is_object()) f.fail(fmt::format("args[{}]", i), "expected an object");
      launch.args.push_back(parseArg(Fields(args[i], file, fmt::format("args[{}]", i)), 0));
      const std::string& name = launch.args.back().name;
      if (name.empty()) continue;
      if (const auto [it, added] = named.emplace(name, i); !added)
        f.fail(fmt::format("args[{}].name", i), fmt::format("'{}' is already the name of args[{}]", name, it->second));
    }
  }
  if (f.has("symbols")) {
    const Fields symbols = f.child("symbols");
    for (const auto& [name, value] : f.at("symbols").items()) {
      if (!value.is_object()) symbols.fail(name, "expected an object with \"type\" and \"init\"");
      const Fields sym = symbols.child(name);
      sym.rejectUnknown({"type", "init", "struct"});
      SymbolInit init;
      init.name = name;
      if (sym.has("struct")) {
        if (sym.has("type") || sym.has("init")) sym.fail("", "a symbol takes either \"struct\" or \"type\" and \"init\"");
        init.fields = parseStruct(sym, 0);
      } else {
        init.type = parseType(sym, "type");
        init.init = parseInit(sym, "init");
      }
      launch.symbols.push_back(std::move(init));
    }
  }
  return launch;
}

LaunchDescription readLaunchFile(const std::string& path) { return parseLaunch(readTextFile(path), path); }

std::vector<std::byte> pointerCycle(std::uint64_t bytes, std::uint64_t base, const PointerCycleInit& init) {
  std::vector<std::byte> out(bytes);
  const std::uint64_t n = bytes / init.stride;
  if (n == 0) return out;
  // gpu-latency/main.cu: order = 1, 2, ..., n-1 shuffled, then 0; segment 0 -> order[0] -> ...
  // Fisher-Yates with mt19937_64 (bit-exact by the standard; the index mapping is ours, so the
  // same seed gives the same cycle everywhere).
  std::vector<std::uint64_t> order(n);
  for (std::uint64_t i = 0; i + 1 < n; ++i) order[i] = i + 1;
  order[n - 1] = 0;
  std::mt19937_64 engine(init.seed);
  for (std::uint64_t i = n - 1; i > 1; --i) std::swap(order[i - 1], order[engine() % i]);
  std::uint64_t at = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t next = base + order[i] * init.stride;
    std::memcpy(out.data() + at * init.stride, &next, 8);
    at = order[i];
  }
  return out;
}

std::vector<std::byte> materializeBuffer(ScalarType type, std::uint64_t count, const BufferInit& init,
                                         const std::string& what) {
  const std::size_t size = static_cast<std::size_t>(scalarTypeSize(type));
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(count, static_cast<std::uint64_t>(size), &total))
    throw Error(fmt::format("{}: {} elements of {} bytes overflow 64 bits", what, count, size));
  checkAllocation(fmt::format("{} ({} x {})", what, count, scalarTypeName(type)), total);
  std::vector<std::byte> bytes(total);
  if (std::holds_alternative<ZerosInit>(init)) return bytes;
  if (std::holds_alternative<PointerCycleInit>(init))
    throw Error(fmt::format("{}: a pointer_cycle holds the buffer's own addresses: only a buffer argument takes it", what));
  if (const auto* c = std::get_if<ConstantInit>(&init)) {
    if (isFloatingPoint(type) && overflowsFloat(type, c->value))
      throw Error(fmt::format("{}: constant {} overflows {} (it holds {})", what, c->value, scalarTypeName(type),
                              typeRange(type)));
    if (!isFloatingPoint(type) && (!fitsInteger(type, c->value) || c->value != std::floor(c->value)))
      throw Error(fmt::format("{}: constant {} is not representable as {}", what, c->value, scalarTypeName(type)));
    for (std::uint64_t i = 0; i < count; ++i) storeAs(type, c->value, bytes.data() + i * size);
    return bytes;
  }
  if (std::holds_alternative<IotaInit>(init)) {
    for (std::uint64_t i = 0; i < count; ++i) {
      // Integer types wrap modulo 2^bits, as C++ unsigned conversion does.
      if (isFloatingPoint(type)) {
        storeAs(type, static_cast<double>(i), bytes.data() + i * size);
      } else {
        // bool holds one bit: 0, 1, 0, 1...
        const std::uint64_t v = type == ScalarType::Bool ? (i & 1u) : i;
        std::memcpy(bytes.data() + i * size, &v, size);
      }
    }
    return bytes;
  }
  if (const auto* r = std::get_if<RandomInit>(&init)) {
    // mt19937_64 is specified bit-exactly by the standard; the mapping below is ours, so the
    // same seed gives the same bytes on every platform (std::uniform_*_distribution does not).
    if (isFloatingPoint(type) && (overflowsFloat(type, r->min) || overflowsFloat(type, r->max)))
      throw Error(fmt::format("{}: random range [{}, {}] overflows {} (it holds {})", what, r->min, r->max,
                              scalarTypeName(type), typeRange(type)));
    std::mt19937_64 engine(r->seed);
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t bits = engine();
      double value = 0;
      if (isFloatingPoint(type)) {
        value = r->min + (r->max - r->min) * (static_cast<double>(bits >> 11) * 0x1.0p-53);
      } else {
        const double lo = std::ceil(r->min), hi = std::floor(r->max);
        if (hi < lo || !fitsInteger(type, lo) || !fitsInteger(type, hi))
          throw Error(fmt::format("{}: random range [{}, {}] does not fit {}", what, r->min, r->max, scalarTypeName(type)));
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        value = lo + static_cast<double>(bits % span);
      }
      storeAs(type, value, bytes.data() + i * size);
    }
    return bytes;
  }
  if (const auto* list = std::get_if<ValuesInit>(&init)) {
    if (list->values.size() != count)
      throw Error(fmt::format("{}: {} values listed, the buffer has {} elements", what, list->values.size(), count));
    for (std::uint64_t i = 0; i < count; ++i) {
      const double v = list->values[i];
      if (!isFloatingPoint(type) && (!fitsInteger(type, v) || v != std::floor(v)))
        throw Error(fmt::format("{}: values[{}] = {} is not representable as {}", what, i, v, scalarTypeName(type)));
      storeAs(type, v, bytes.data() + i * size);
    }
    return bytes;
  }
  const auto& file = std::get<FileInit>(init);
  std::vector<std::byte> data;
  if (std::filesystem::path(file.path).extension() == ".npy") {
    NpyArray array = readNpy(file.path);
    if (array.descr != numpyDescr(type) && !(size == 1 && array.descr.substr(1) == std::string(numpyDescr(type)).substr(1)))
      throw Error(fmt::format("{}: '{}' holds dtype {}, the buffer is {} ({})", what, file.path, array.descr,
                              scalarTypeName(type), numpyDescr(type)));
    data = std::move(array.data);
  } else {
    const std::string raw = readTextFile(file.path);
    data.resize(raw.size());
    std::memcpy(data.data(), raw.data(), raw.size());
  }
  if (data.size() != bytes.size())
    throw Error(fmt::format("{}: '{}' holds {} bytes, the buffer needs {} ({} × {})", what, file.path, data.size(),
                            bytes.size(), count, scalarTypeName(type)));
  if (type == ScalarType::Bool)
    for (std::size_t i = 0; i < data.size(); ++i)
      if (data[i] > std::byte{1})
        throw Error(fmt::format("{}: '{}' element {} is {}, not a bool (0 or 1)", what, file.path, i,
                                static_cast<int>(data[i])));
  return data;
}

namespace {
void collectBuffers(const std::vector<LaunchArg>& args, const std::string& prefix, std::vector<NamedBuffer>& out) {
  for (const LaunchArg& a : args) {
    if (const auto* b = std::get_if<BufferArg>(&a.value)) out.push_back({prefix + a.name, b});
    else if (const auto* s = std::get_if<StructArg>(&a.value)) collectBuffers(s->fields, prefix + a.name + ".", out);
  }
}
}  // namespace

std::vector<NamedBuffer> launchBuffers(const LaunchDescription& launch) {
  std::vector<NamedBuffer> out;
  collectBuffers(launch.args, "", out);
  for (const SymbolInit& s : launch.symbols)
    if (s.fields) collectBuffers(s.fields->fields, s.name + ".", out);
  return out;
}

std::vector<std::byte> scalarBytes(const ScalarArg& arg) {
  std::vector<std::byte> bytes(static_cast<std::size_t>(scalarTypeSize(arg.type)));
  if (const auto* d = std::get_if<double>(&arg.value)) {
    storeAs(arg.type, *d, bytes.data());
  } else {
    // Integers: keep the low bytes (two's complement), exactly as a C cast would.
    const std::uint64_t v = std::holds_alternative<std::int64_t>(arg.value)
                                ? static_cast<std::uint64_t>(std::get<std::int64_t>(arg.value))
                                : std::get<std::uint64_t>(arg.value);
    // bool as C++ converts to it: any non-zero value is true (1).
    const std::uint64_t stored = arg.type == ScalarType::Bool ? std::uint64_t{v != 0} : v;
    std::memcpy(bytes.data(), &stored, bytes.size());
  }
  return bytes;
}

}  // namespace teg::emu

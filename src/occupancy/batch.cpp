// Batch occupancy over JSON lines. The fast path scans a flat object of string and integer
// values; anything else (escapes, nesting, floats, syntax errors) goes through nlohmann::json so
// the behaviour and the messages are those of a real JSON parser.
#include "teg/occupancy/batch.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <istream>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>

#include "teg/support/error.hpp"

namespace teg::occupancy {

namespace {

enum class Field { Gpu, Threads, Regs, Smem, DynSmem, Carveout, Barriers, Unknown };

Field fieldOf(std::string_view key) {
  if (key == "gpu") return Field::Gpu;
  if (key == "threads") return Field::Threads;
  if (key == "regs") return Field::Regs;
  if (key == "smem") return Field::Smem;
  if (key == "dyn_smem") return Field::DynSmem;
  if (key == "carveout") return Field::Carveout;
  if (key == "barriers") return Field::Barriers;
  return Field::Unknown;
}

// Range a number may take before computeOccupancy judges it (keeps every product in range).
constexpr long long kMaxMagnitude = 1LL << 40;

bool storeInteger(Field f, long long v, BatchRequest& r, bool (&seen)[8], std::string& error) {
  if (v > kMaxMagnitude || v < -kMaxMagnitude) {
    error = "number out of range";
    return false;
  }
  switch (f) {
    case Field::Threads: r.launch.threadsPerBlock = v; break;
    case Field::Regs: r.launch.registersPerThread = v; break;
    case Field::Smem: r.launch.staticSharedBytes = v; break;
    case Field::DynSmem: r.launch.dynamicSharedBytes = v; break;
    case Field::Carveout:
      if (v < 0 || v > 100) { error = fmt::format("'carveout' must be a percent 0..100 (got {})", v); return false; }
      r.launch.carveoutPercent = static_cast<int>(v);
      break;
    case Field::Barriers:
      if (v < 0 || v > 1000) { error = fmt::format("'barriers' out of range (got {})", v); return false; }
      r.launch.barriersPerBlock = static_cast<int>(v);
      break;
    case Field::Gpu:
      error = "'gpu' must be a string";
      return false;
    case Field::Unknown: break;
  }
  seen[static_cast<int>(f)] = true;
  return true;
}

bool finish(const bool (&seen)[8], std::string& error) {
  if (!seen[static_cast<int>(Field::Gpu)]) { error = "missing 'gpu'"; return false; }
  if (!seen[static_cast<int>(Field::Threads)]) { error = "missing 'threads'"; return false; }
  if (!seen[static_cast<int>(Field::Regs)]) { error = "missing 'regs'"; return false; }
  return true;
}

// The general path: a real JSON parser.
bool parseWithJson(std::string_view line, BatchRequest& r, std::string& error) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line.begin(), line.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based; the message without nlohmann's "[json.exception...]" prefix.
    std::string what = e.what();
    const auto pos = what.find("] ");
    if (pos != std::string::npos) what = what.substr(pos + 2);
    error = fmt::format("column {}: {}", e.byte, what);
    return false;
  }
  if (!j.is_object()) { error = "expected a JSON object"; return false; }
  r = BatchRequest{};
  bool seen[8] = {};
  for (const auto& [key, value] : j.items()) {
    const Field f = fieldOf(key);
    if (f == Field::Unknown) { error = fmt::format("unknown field '{}'", key); return false; }
    if (f == Field::Gpu) {
      if (!value.is_string()) { error = "'gpu' must be a string"; return false; }
      r.gpu = value.get<std::string>();
      seen[static_cast<int>(f)] = true;
      continue;
    }
    if (value.is_number_integer()) {
      if (value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(kMaxMagnitude)) {
        error = "number out of range";
        return false;
      }
      if (!storeInteger(f, value.get<long long>(), r, seen, error)) return false;
      continue;
    }
    error = fmt::format("'{}' must be an integer", key);
    return false;
  }
  return finish(seen, error);
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The fast path. Returns false when the line is not the simple shape (the caller then falls back).
bool scanFlatObject(std::string_view s, BatchRequest& r) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto skip = [&] { while (i < n && isSpace(s[i])) ++i; };
  skip();
  if (i >= n || s[i] != '{') return false;
  ++i;
  r.launch = Launch{};
  bool seen[8] = {};
  skip();
  if (i < n && s[i] == '}') return false;  // empty object: let the slow path word the error
  while (true) {
    skip();
    if (i >= n || s[i] != '"') return false;
    const std::size_t keyStart = ++i;
    while (i < n && s[i] != '"' && s[i] != '\\') ++i;
    if (i >= n || s[i] != '"') return false;
    const Field f = fieldOf(s.substr(keyStart, i - keyStart));
    if (f == Field::Unknown || seen[static_cast<int>(f)]) return false;
    ++i;
    skip();
    if (i >= n || s[i] != ':') return false;
    ++i;
    skip();
    if (i >= n) return false;
    if (s[i] == '"') {
      if (f != Field::Gpu) return false;
      const std::size_t start = ++i;
      while (i < n && s[i] != '"' && s[i] != '\\' && static_cast<unsigned char>(s[i]) >= 0x20) ++i;
      if (i >= n || s[i] != '"') return false;
      r.gpu.assign(s.data() + start, i - start);
      ++i;
      seen[static_cast<int>(f)] = true;
    } else {
      if (f == Field::Gpu) return false;
      bool negative = false;
      if (s[i] == '-') { negative = true; ++i; }
      const std::size_t start = i;
      long long v = 0;
      while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 15) v = v * 10 + (s[i++] - '0');
      if (i == start || (s[start] == '0' && i - start > 1)) return false;
      if (i < n && (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || (s[i] >= '0' && s[i] <= '9'))) return false;
      std::string ignored;
      if (!storeInteger(f, negative ? -v : v, r, seen, ignored)) return false;
    }
    skip();
    if (i >= n) return false;
    if (s[i] == ',') { ++i; continue; }
    if (s[i] != '}') return false;
    ++i;
    skip();
    if (i != n) return false;
    break;
  }
  std::string ignored;
  return finish(seen, ignored);
}

void appendInt(std::string& out, long long v) {
  const fmt::format_int text(v);
  out.append(text.data(), text.size());
}

void appendLimit(std::string& out, int v) {
  if (v == kUnlimited) out += "null"; else appendInt(out, v);
}

// A JSON string literal (RFC 8259 escapes; bytes >= 0x80 pass through, messages are UTF-8).
// Runs of plain characters are appended at once.
void appendJsonString(std::string& out, std::string_view s) {
  constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: {
        const char esc[] = {'\\', 'u', '0', '0', kHex[(c >> 4) & 0xF], kHex[c & 0xF]};
        out.append(esc, sizeof esc);
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

struct CachedDevice {
  const device::Device* device = nullptr;
  std::optional<OccupancyCalculator> calculator;
  std::string error;
};

class Processor {
 public:
  Processor(std::ostream& out, const DeviceResolver& resolve) : out_(out), resolve_(resolve) {
    buffer_.reserve(kFlushBytes + 4096);
  }

  void line(std::string_view text, long long lineNumber) {
    std::size_t b = 0;
    while (b < text.size() && isSpace(text[b])) ++b;
    if (b == text.size()) return;  // blank
    ++summary_.lines;
    std::string error;
    if (!scanFlatObject(text, request_) && !parseWithJson(text, request_, error)) {
      writeError(lineNumber, error);
      return;
    }
    const CachedDevice& cached = lookup(request_.gpu);
    if (!cached.device) {
      writeError(lineNumber, cached.error);
      return;
    }
    const Occupancy r = (*cached.calculator)(request_.launch);
    if (!r.ok()) {
      writeError(lineNumber, violationMessage(*cached.device, request_.launch, r));
      return;
    }
    buffer_ += '{';
    appendOccupancyJsonFields(buffer_, r);
    buffer_ += "}\n";
    maybeFlush();
  }

  BatchSummary finish() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    out_.flush();
    buffer_.clear();
    return summary_;
  }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;

  const CachedDevice& lookup(const std::string& name) {
    if (last_ && name == lastName_) return *last_;
    auto it = cache_.find(name);
    if (it == cache_.end()) {
      CachedDevice c;
      try {
        c.device = &resolve_(name);
        c.calculator.emplace(*c.device);
      } catch (const Error& e) {
        c.error = e.what();
      }
      it = cache_.emplace(name, std::move(c)).first;
    }
    lastName_ = name;
    last_ = &it->second;
    return *last_;
  }

  void writeError(long long lineNumber, const std::string& message) {
    ++summary_.errors;
    buffer_ += "{\"line\":";
    appendInt(buffer_, lineNumber);
    buffer_ += ",\"error\":";
    appendJsonString(buffer_, fmt::format("line {}: {}", lineNumber, message));
    buffer_ += "}\n";
    maybeFlush();
  }

  void maybeFlush() {
    if (buffer_.size() >= kFlushBytes) {
      out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
      buffer_.clear();
    }
  }

  std::ostream& out_;
  const DeviceResolver& resolve_;
  std::string buffer_;
  BatchRequest request_;
  std::unordered_map<std::string, CachedDevice> cache_;
  std::string lastName_;
  const CachedDevice* last_ = nullptr;
  BatchSummary summary_;
};

}  // namespace

bool parseBatchLine(std::string_view line, BatchRequest& request, std::string& error) {
  if (scanFlatObject(line, request)) return true;
  return parseWithJson(line, request, error);
}

void appendOccupancyJsonFields(std::string& out, const Occupancy& r) {
  out += "\"blocks_per_sm\":";
  appendInt(out, r.blocksPerSm);
  out += ",\"warps_per_sm\":";
  appendInt(out, r.warpsPerSm);
  out += ",\"threads_per_sm\":";
  appendInt(out, r.threadsPerSm);
  out += ",\"occupancy\":";
  char number[32];
  const char* end = fmt::format_to(number, FMT_COMPILE("{}"), r.occupancy);
  out.append(number, static_cast<std::size_t>(end - number));
  out += ",\"limiters\":[";
  bool first = true;
  for (Resource res : kAllResources) {
    if (!r.limitedBy(res)) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += resourceName(res);
    out += '"';
  }
  out += "],\"block_limits\":{";
  first = true;
  for (Resource res : kAllResources) {
    if (!first) out += ',';
    first = false;
    out += '"';
    out += resourceName(res);
    out += "\":";
    appendLimit(out, r.limit(res));
  }
  out += "},\"warps_per_block\":";
  appendInt(out, r.warpsPerBlock);
  out += ",\"registers_per_block\":";
  appendInt(out, r.registersPerBlock);
  out += ",\"shared_memory_per_block\":";
  appendInt(out, r.sharedMemoryPerBlock);
  out += ",\"shared_memory_per_sm\":";
  appendInt(out, r.sharedMemoryPerSm);
}

BatchSummary runBatch(std::istream& in, std::ostream& out, const DeviceResolver& resolve) {
  Processor processor(out, resolve);
  constexpr std::size_t kChunk = 1 << 20;
  std::string pending;      // a line split across chunks
  std::string chunk(kChunk, '\0');
  long long lineNumber = 0;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(kChunk));
    const std::size_t got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    std::string_view view(chunk.data(), got);
    std::size_t start = 0;
    while (true) {
      const std::size_t nl = view.find('\n', start);
      if (nl == std::string_view::npos) {
        pending.append(view.substr(start));
        break;
      }
      ++lineNumber;
      if (!pending.empty()) {
        pending.append(view.substr(start, nl - start));
        processor.line(pending, lineNumber);
        pending.clear();
      } else {
        processor.line(view.substr(start, nl - start), lineNumber);
      }
      start = nl + 1;
    }
  }
  if (!pending.empty()) processor.line(pending, ++lineNumber);
  return processor.finish();
}

}  // namespace teg::occupancy

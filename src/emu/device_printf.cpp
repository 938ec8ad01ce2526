#include "device_printf.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace teg::emu {

namespace {

constexpr std::size_t kMaxString = 4096;

std::string readString(std::uint64_t address, const EmulatedRead& read) {
  std::string s;
  for (std::size_t i = 0; i < kMaxString; ++i) {
    const auto c = static_cast<char>(read(address + i, 1));
    if (c == '\0') return s;
    s.push_back(c);
  }
  return s;
}

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// One conversion `spec` ("%-08.3f": flags, width, precision, no length modifier) with one value.
template <typename T>
std::string formatOne(const std::string& spec, T value) {
  char buffer[512];
  // The spec is rebuilt from characters checked one by one below, with exactly one conversion
  // whose type matches `value`.
  const int n = std::snprintf(buffer, sizeof buffer, spec.c_str(), value);
  if (n < 0) return spec;
  return std::string(buffer, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buffer - 1));
}

}  // namespace

std::string formatDevicePrintf(std::uint64_t format, std::uint64_t args, const EmulatedRead& read) {
  const std::string f = readString(format, read);
  std::string out;
  std::uint64_t offset = 0;  // into the argument buffer
  auto take = [&](std::uint64_t bytes) {
    offset = alignUp(offset, bytes);
    const std::uint64_t v = read(args + offset, static_cast<std::uint32_t>(bytes));
    offset += bytes;
    return v;
  };
  std::size_t i = 0;
  while (i < f.size()) {
    if (f[i] != '%') {
      out.push_back(f[i++]);
      continue;
    }
    const std::size_t start = i++;
    if (i < f.size() && f[i] == '%') {
      out.push_back('%');
      ++i;
      continue;
    }
    std::string spec = "%";
    while (i < f.size() && std::strchr("-+ #0", f[i]) != nullptr) spec.push_back(f[i++]);
    for (int digits = 0; i < f.size() && f[i] >= '0' && f[i] <= '9' && digits < 3; ++digits) spec.push_back(f[i++]);
    if (i < f.size() && f[i] == '.') {
      spec.push_back(f[i++]);
      for (int digits = 0; i < f.size() && f[i] >= '0' && f[i] <= '9' && digits < 3; ++digits) spec.push_back(f[i++]);
    }
    int longs = 0;
    bool size64 = false;
    while (i < f.size() && std::strchr("hlzjt", f[i]) != nullptr) {
      if (f[i] == 'l') ++longs;
      if (f[i] == 'z' || f[i] == 'j' || f[i] == 't') size64 = true;
      ++i;
    }
    size64 = size64 || longs > 0;
    if (i >= f.size()) {
      out += f.substr(start);
      break;
    }
    const char conv = f[i++];
    // Flags C leaves undefined for a conversion ('#' with d, i, c, s; '0' with c, s) are dropped
    // before the host's snprintf sees them: the GPU's output for them is unspecified anyway.
    if (std::strchr("dicsp", conv) != nullptr) std::erase(spec, '#');
    if (std::strchr("csp", conv) != nullptr) std::erase(spec, '0');
    switch (conv) {
      case 'd':
      case 'i': {
        const std::uint64_t v = take(size64 ? 8 : 4);
        const long long s = size64 ? static_cast<long long>(v) : static_cast<long long>(static_cast<std::int32_t>(v));
        out += formatOne(spec + "lld", s);
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        const std::uint64_t v = take(size64 ? 8 : 4);
        const unsigned long long u = size64 ? v : (v & 0xffffffffu);
        out += formatOne(spec + "ll" + conv, u);
        break;
      }
      case 'c': out += formatOne(spec + 'c', static_cast<int>(static_cast<unsigned char>(take(4)))); break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const std::uint64_t bits = take(8);
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        out += formatOne(spec + conv, d);
        break;
      }
      case 's': out += formatOne(spec + 's', readString(take(8), read).c_str()); break;
      case 'p': out += formatOne(std::string("0x%llx"), static_cast<unsigned long long>(take(8))); break;
      default:  // not a printf conversion: the rest as written
        out += f.substr(start);
        return out;
    }
  }
  return out;
}

}  // namespace teg::emu

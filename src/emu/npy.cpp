#include "teg/emu/npy.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <regex>

#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"
#include "teg/support/output_file.hpp"

namespace teg::emu {

std::uint64_t NpyArray::elementCount() const {
  std::uint64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

namespace {

std::string headerField(const std::string& header, const std::string& key, const std::string& path) {
  // The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }
  const auto pos = header.find("'" + key + "'");
  if (pos == std::string::npos) throw Error(fmt::format("{}: .npy header has no '{}'", path, key));
  const auto colon = header.find(':', pos);
  if (colon == std::string::npos) throw Error(fmt::format("{}: malformed .npy header", path));
  std::size_t start = header.find_first_not_of(' ', colon + 1);
  std::size_t end = start;
  if (start == std::string::npos) throw Error(fmt::format("{}: malformed .npy header", path));
  if (header[start] == '\'') {
    end = header.find('\'', start + 1);
    if (end == std::string::npos) throw Error(fmt::format("{}: malformed .npy header", path));
    return header.substr(start + 1, end - start - 1);
  }
  if (header[start] == '(') {
    end = header.find(')', start);
    if (end == std::string::npos) throw Error(fmt::format("{}: malformed .npy header", path));
    return header.substr(start + 1, end - start - 1);
  }
  end = header.find_first_of(",}", start);
  return header.substr(start, end - start);
}

}  // namespace

NpyArray readNpy(const std::string& path) {
  const std::string bytes = readTextFile(path);
  static constexpr char kMagic[] = "\x93NUMPY";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    throw Error(fmt::format("{}: not a .npy file (bad magic)", path));
  const int major = static_cast<unsigned char>(bytes[6]);
  std::size_t headerLen = 0, headerStart = 0;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw Error(fmt::format("{}: truncated .npy header", path));
    headerLen = 0;
    for (int i = 0; i < 4; ++i) headerLen |= std::size_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
    headerStart = 12;
  } else {
    throw Error(fmt::format("{}: unsupported .npy version {}", path, major));
  }
  if (headerStart + headerLen > bytes.size()) throw Error(fmt::format("{}: truncated .npy header", path));
  const std::string header = bytes.substr(headerStart, headerLen);
  NpyArray array;
  array.descr = headerField(header, "descr", path);
  if (headerField(header, "fortran_order", path).find("True") != std::string::npos)
    throw Error(fmt::format("{}: Fortran-ordered .npy arrays are not supported", path));
  const std::string shape = headerField(header, "shape", path);
  // Dimensions, their product and the byte count are checked for 64-bit overflow: a wrapped
  // product could match a short file and be read as a valid array.
  static const std::regex number("[0-9]+");
  std::uint64_t elements = 1;
  for (auto it = std::sregex_iterator(shape.begin(), shape.end(), number); it != std::sregex_iterator(); ++it) {
    const std::string digits = it->str();
    std::uint64_t dim = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), dim).ec != std::errc())
      throw Error(fmt::format("{}: .npy header field 'shape': dimension {} is larger than 2^64-1", path, digits));
    if (__builtin_mul_overflow(elements, dim, &elements))
      throw Error(fmt::format("{}: .npy header field 'shape': ({}) has more than 2^64-1 elements", path, shape));
    array.shape.push_back(dim);
  }
  int itemSize = 0;
  if (array.descr.size() >= 3) {
    const char* digits = array.descr.c_str() + 2;
    if (std::from_chars(digits, array.descr.c_str() + array.descr.size(), itemSize).ec != std::errc()) itemSize = 0;
  }
  if (itemSize <= 0) throw Error(fmt::format("{}: unsupported .npy dtype '{}' (header field 'descr')", path, array.descr));
  const std::size_t dataStart = headerStart + headerLen;
  std::uint64_t expected = 0;
  if (__builtin_mul_overflow(elements, static_cast<std::uint64_t>(itemSize), &expected))
    throw Error(fmt::format("{}: .npy header field 'shape': ({}) of {}-byte elements is more than 2^64-1 bytes", path,
                            shape, itemSize));
  if (bytes.size() - dataStart != expected)
    throw Error(fmt::format("{}: .npy data has {} bytes, header says {}", path, bytes.size() - dataStart, expected));
  array.data.resize(expected);
  std::memcpy(array.data.data(), bytes.data() + dataStart, expected);
  return array;
}

void writeNpy(const std::string& path, ScalarType type, const std::vector<std::byte>& data) {
  const std::uint64_t count = data.size() / static_cast<std::size_t>(scalarTypeSize(type));
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}",
                                   numpyDescr(type), count);
  // Pad so that the data starts on a 64-byte boundary, header ends with '\n' (format 1.0).
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xFF);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header;
  bytes.append(reinterpret_cast<const char*>(data.data()), data.size());
  writeOutputFile(path, bytes);  // whole or not at all; errors name the path and the cause
}

}  // namespace teg::emu

#include "compile_cache.hpp"

#include <openssl/evp.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"
#include "teg/support/output_file.hpp"

namespace teg::toolchain {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Bumped when the entry layout or what a key covers changes, so old entries simply miss.
constexpr int kEntryFormat = 2;  // 2: the cubin is kept too

std::string envOrEmpty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

json binary(const std::string& s) { return json::binary(std::vector<std::uint8_t>(s.begin(), s.end())); }

std::string text(const json& j) {
  const auto& b = j.get_binary();
  return std::string(b.begin(), b.end());
}

std::optional<std::string> contentHash(const std::string& path) {
  try {
    return sha256Hex(readInputFile(path));
  } catch (const Error&) {
    return std::nullopt;  // gone or unreadable: the entry no longer describes what is there
  }
}

}  // namespace

std::string sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw Error("SHA-256 failed (OpenSSL)");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

std::optional<fs::path> compileCacheDirectory() {
  if (const std::string off = envOrEmpty("TEG_NO_CACHE"); !off.empty() && off != "0") return std::nullopt;
  if (const std::string dir = envOrEmpty("TEG_CACHE_DIR"); !dir.empty()) return fs::path(dir);
  if (const std::string xdg = envOrEmpty("XDG_CACHE_HOME"); !xdg.empty()) return fs::path(xdg) / "teg";
  if (const std::string home = envOrEmpty("HOME"); !home.empty()) return fs::path(home) / ".cache" / "teg";
  return std::nullopt;
}

fs::path CompileCache::entryPath(const std::string& key) const {
  return directory_ / "compile" / key.substr(0, 2) / (key + ".cbor");
}

std::optional<CachedCompile> CompileCache::load(const std::string& key) const {
  std::string bytes;
  try {
    bytes = readInputFile(entryPath(key).string());
  } catch (const Error&) {
    return std::nullopt;
  }
  try {
    const json j = json::from_cbor(bytes);
    if (j.at("format").get<int>() != kEntryFormat || j.at("key").get<std::string>() != key) return std::nullopt;
    CachedCompile entry{text(j.at("ptx")), text(j.at("cubin")), text(j.at("log")),
                        j.at("command").get<std::vector<std::string>>()};
    if (sha256Hex(entry.ptx + entry.cubin + entry.log) != j.at("checksum").get<std::string>()) return std::nullopt;
    for (const auto& dep : j.at("dependencies"))
      if (contentHash(dep.at("path").get<std::string>()) != dep.at("sha256").get<std::string>()) return std::nullopt;
    return entry;
  } catch (const json::exception&) {
    return std::nullopt;  // truncated or garbled: rebuilt by the compile that follows
  }
}

void CompileCache::store(const std::string& key, const CachedCompile& entry,
                         const std::vector<std::string>& dependencies) const {
  json deps = json::array();
  for (const auto& path : dependencies) {
    const auto hash = contentHash(path);
    if (!hash) return;  // a dependency already gone: nothing trustworthy to store
    deps.push_back({{"path", path}, {"sha256", *hash}});
  }
  const json j = {{"format", kEntryFormat},          {"key", key},
                  {"ptx", binary(entry.ptx)},         {"cubin", binary(entry.cubin)},
                  {"log", binary(entry.log)},         {"command", entry.command},
                  {"checksum", sha256Hex(entry.ptx + entry.cubin + entry.log)},
                  {"dependencies", std::move(deps)}};
  try {
    const fs::path path = entryPath(key);
    fs::create_directories(path.parent_path());
    const std::vector<std::uint8_t> cbor = json::to_cbor(j);
    writeOutputFile(path.string(), std::string_view(reinterpret_cast<const char*>(cbor.data()), cbor.size()));
  } catch (const std::exception&) {
    // Read-only home, full disk: the compile result is still good, only not kept.
  }
}

std::vector<std::string> parseDependencyFile(const std::string& text) {
  // Joined continuation lines; after the first unescaped ':' (the target), whitespace-separated
  // names in which "\ " is a space in the name.
  std::vector<std::string> files;
  bool afterColon = false;
  std::string current;
  const auto finish = [&] {
    if (!current.empty() && afterColon) files.push_back(current);
    current.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      finish();
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '#' || text[i + 1] == ':')) {
      current += text[++i];
      continue;
    }
    if (!afterColon && c == ':' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
      current.clear();
      afterColon = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      finish();
      if (c == '\n' && afterColon) break;  // the first rule is the compile's; others (-MP) repeat it
      continue;
    }
    current += c;
  }
  finish();
  return files;
}

}  // namespace teg::toolchain

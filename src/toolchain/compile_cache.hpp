// The compile cache: nvcc takes seconds, and a user runs `teg predict` on the same kernel again
// and again. An entry is the PTX, cubin and ptxas log of one nvcc run, stored under a key made of
// everything that decides them — nvcc's path and `--version` text, the working directory, the
// arguments, the source's content — and valid only while every file the compile read (the
// source and the headers nvcc's -MMD listed) still has the content it had. Entries are written
// whole (temporary file and rename); one that cannot be read or fails its checksum is a miss,
// and the compile that follows replaces it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace teg::toolchain {

// SHA-256 of `bytes`, as 64 hex digits.
std::string sha256Hex(std::string_view bytes);

// $TEG_CACHE_DIR, else $XDG_CACHE_HOME/teg, else $HOME/.cache/teg; nullopt when caching is off
// ($TEG_NO_CACHE set to anything but "" or "0") or no directory can be named.
std::optional<std::filesystem::path> compileCacheDirectory();

struct CachedCompile {
  std::string ptx;
  std::string cubin;
  std::string log;
  std::vector<std::string> command;
};

class CompileCache {
 public:
  explicit CompileCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

  // The entry for `key` when it exists, is intact and every file it depends on is unchanged.
  [[nodiscard]] std::optional<CachedCompile> load(const std::string& key) const;
  // Stores an entry with the files it depends on (absolute paths). Best effort: a cache that
  // cannot be written only costs the next run a compile, so failures are ignored.
  void store(const std::string& key, const CachedCompile& entry, const std::vector<std::string>& dependencies) const;

 private:
  [[nodiscard]] std::filesystem::path entryPath(const std::string& key) const;
  std::filesystem::path directory_;
};

// The files a Make-style dependency file (nvcc -MMD -MF) lists after the target's colon.
std::vector<std::string> parseDependencyFile(const std::string& text);

}  // namespace teg::toolchain

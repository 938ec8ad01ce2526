// Writing the files a user asks for (--dump, --trace-out, --ptx-out): whole or not at all. The
// bytes go to a temporary file beside the target, which is renamed over it only once everything
// was written, flushed and closed without error; on an error, an exception or a signal the
// temporary file is removed (it is in the cleanup registry meanwhile), so no file that looks
// whole but is not is ever left. A target that is not a regular file and cannot be renamed
// into (/dev/stdout, /dev/full, a FIFO) is written directly, with every write still checked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace teg {

class OutputFile {
 public:
  // Creates the temporary file (or opens the special file). Throws teg::Error
  // "cannot write PATH: <strerror>".
  explicit OutputFile(std::string path);
  ~OutputFile();  // without commit(): removes the temporary file; never throws
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends bytes (buffered); throws teg::Error "cannot write PATH: <strerror>".
  void write(std::string_view bytes);
  // Flushes, closes and renames into place; throws teg::Error on any failure (the temporary
  // file is then removed). Writing after commit is an error.
  void commit();

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::uint64_t bytesWritten() const { return written_ + buffer_.size(); }

 private:
  void flushBuffer();
  [[noreturn]] void fail(int error);
  void discard() noexcept;

  std::string path_;      // the target
  std::string renameTo_;  // the regular file the temporary one replaces (symbolic links resolved)
  std::string tempPath_;  // "" when the target is written directly
  int fd_ = -1;
  int ticket_ = -1;       // cleanup registry slot of tempPath_
  std::string buffer_;
  std::uint64_t written_ = 0;
};

// Writes `bytes` to `path` whole or not at all (an OutputFile written once and committed).
void writeOutputFile(const std::string& path, std::string_view bytes);

}  // namespace teg

#include "teg/support/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "teg/support/cleanup.hpp"
#include "teg/support/error.hpp"

namespace teg {

namespace {

// Writes go out in pieces of this size: large enough that syscalls do not dominate, small
// enough not to matter in memory.
constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

// The permission bits a newly created file gets (0666 less the umask), read once: mkstemp
// creates 0600, which would surprise a user who shares the output.
mode_t newFileMode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Where the bytes go. A target that exists and is not a regular file (a device, a FIFO), or
// that lives in /dev or /proc (/dev/stdout is a link to whatever stdout is), cannot be renamed
// into: renaming would replace the node or the link, so it is written in place (`direct`).
// A symbolic link to a regular file keeps the link: its target is replaced.
struct Destination {
  std::string path;
  bool direct = false;
};

Destination destinationOf(const std::string& path) {
  if (startsWith(path, "/dev/") || startsWith(path, "/proc/")) return {path, true};
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {path, false};  // a new file (or an error at open)
  if (!S_ISREG(st.st_mode)) return {path, true};
  std::error_code ec;
  const std::string real = std::filesystem::canonical(path, ec).string();
  if (ec) return {path, false};
  if (startsWith(real, "/dev/") || startsWith(real, "/proc/")) return {path, true};
  return {real, false};
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw Error("cannot write an output file with an empty name");
  const Destination destination = destinationOf(path_);
  if (destination.direct) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) fail(errno);
    return;
  }
  namespace fs = std::filesystem;
  const fs::path target(destination.path);
  renameTo_ = destination.path;
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".teg-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) fail(errno);
  tempPath_ = name.data();
  ticket_ = registerTempFile(tempPath_);
  ::fchmod(fd_, newFileMode());
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tempPath_.empty()) ::unlink(tempPath_.c_str());
  tempPath_.clear();
  unregisterTempFile(ticket_);
  ticket_ = -1;
}

void OutputFile::fail(int error) {
  discard();
  throw Error("cannot write " + path_ + ": " + std::strerror(error));
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw Error("cannot write " + path_ + ": the file was already closed");
  buffer_.append(bytes);
  if (buffer_.size() >= kBufferBytes) flushBuffer();
}

void OutputFile::flushBuffer() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    done += static_cast<std::size_t>(n);
  }
  written_ += buffer_.size();
  buffer_.clear();
}

void OutputFile::commit() {
  if (fd_ < 0) throw Error("cannot write " + path_ + ": the file was already closed");
  flushBuffer();
  // close() is where some file systems (NFS) report a failed write; it must be checked too.
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  if (!tempPath_.empty()) {
    if (::rename(tempPath_.c_str(), renameTo_.c_str()) != 0) fail(errno);
    tempPath_.clear();
  }
  unregisterTempFile(ticket_);
  ticket_ = -1;
}

void writeOutputFile(const std::string& path, std::string_view bytes) {
  OutputFile out(path);
  out.write(bytes);
  out.commit();
}

}  // namespace teg

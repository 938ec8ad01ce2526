#include "teg/support/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string_view>

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

// Random temporary-name suffixes (as mkstemp's XXXXXX, from 62 characters): tries before
// giving up when every name is taken, as glibc's mkstemp does.
constexpr int kNameAttempts = 100;

std::string randomSuffix() {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string suffix(8, '0');
  for (char& c : suffix) c = kAlphabet[pick(generator)];
  return suffix;
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
  std::string hiddenName = ".";  // appended, not "." + name: GCC 12 warns falsely (-Wrestrict) on that
  hiddenName += target.filename().string();
  hiddenName += ".teg-";
  const std::string prefix = (dir / hiddenName).string();
  // The name is registered for the signal handler *before* the file exists (mkstemp would
  // create it first): a SIGTERM between creating and registering left the file behind, and
  // blocking the signal in this thread would not help, since another thread may take it.
  // Unlinking a registered name that was never created does nothing.
  for (int attempt = 0; fd_ < 0; ++attempt) {
    std::string candidate = prefix + randomSuffix();
    const int ticket = registerTempFile(candidate);
    fd_ = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd_ >= 0) {
      tempPath_ = std::move(candidate);
      ticket_ = ticket;
      break;
    }
    const int error = errno;
    unregisterTempFile(ticket);
    if (error != EEXIST || attempt + 1 >= kNameAttempts) fail(error);
  }
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

#include "teg/support/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "teg/support/error.hpp"

namespace teg {

namespace {

// What a non-regular file is, for the message.
std::string describeNonRegular(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is not a regular file (a FIFO)";
  if (S_ISCHR(mode)) return "is not a regular file (a character device)";
  if (S_ISBLK(mode)) return "is not a regular file (a block device)";
  if (S_ISSOCK(mode)) return "is not a regular file (a socket)";
  return "is not a regular file";
}

// Closes the descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(Descriptor&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor& operator=(Descriptor&&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

// Opens `path` for reading and checks that it is a regular file. O_NONBLOCK so that opening a
// FIFO with no writer returns at once instead of waiting for one; fstat on the open descriptor
// so that what is checked is what is read.
Descriptor openRegular(const std::string& path, struct stat& info) {
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    const int error = errno;
    // A socket cannot be opened (ENXIO); say what it is rather than "no such device".
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw Error(SourceLocation{path}, describeNonRegular(st.st_mode));
    throw Error(SourceLocation{path}, std::string("cannot open: ") + std::strerror(error));
  }
  if (::fstat(fd.get(), &info) != 0)
    throw Error(SourceLocation{path}, std::string("cannot open: ") + std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw Error(SourceLocation{path}, describeNonRegular(info.st_mode));
  return fd;
}

}  // namespace

std::string readInputFile(const std::string& path) {
  struct stat info {};
  const Descriptor fd = openRegular(path, info);
  std::string text;
  // The size is only a hint (the file may grow or shrink while read), but a file larger than
  // memory is refused by name before anything is allocated for it.
  try {
    text.reserve(static_cast<std::size_t>(info.st_size));
  } catch (const std::bad_alloc&) {
    throw Error(SourceLocation{path}, "too large to read (" + std::to_string(info.st_size) + " bytes)");
  } catch (const std::length_error&) {
    throw Error(SourceLocation{path}, "too large to read (" + std::to_string(info.st_size) + " bytes)");
  }
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(SourceLocation{path}, std::string("cannot read: ") + std::strerror(errno));
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  return text;
}

void checkInputFile(const std::string& path) {
  struct stat info {};
  openRegular(path, info);
}

}  // namespace teg

#include "checked_stdout.hpp"

#include <unistd.h>

#include <cerrno>

namespace teg::cli {

namespace {
// Large enough that a report leaves in a few writes; a terminal still sees each line because
// the commands flush (std::endl / the end of main).
constexpr std::size_t kBufferBytes = 1 << 16;
}  // namespace

CheckedStdout::CheckedStdout(int fd) : fd_(fd) { buffer_.reserve(kBufferBytes); }

CheckedStdout::~CheckedStdout() { drain(); }

bool CheckedStdout::drain() {
  std::size_t done = 0;
  while (error_ == 0 && done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error_ = errno;
    else done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
  return error_ == 0;
}

CheckedStdout::int_type CheckedStdout::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : traits_type::eof();
  buffer_.push_back(traits_type::to_char_type(c));
  if (buffer_.size() >= kBufferBytes && !drain()) return traits_type::eof();
  return c;
}

std::streamsize CheckedStdout::xsputn(const char* s, std::streamsize n) {
  buffer_.append(s, static_cast<std::size_t>(n));
  if (buffer_.size() >= kBufferBytes && !drain()) return 0;
  return n;
}

int CheckedStdout::sync() { return drain() ? 0 : -1; }

}  // namespace teg::cli

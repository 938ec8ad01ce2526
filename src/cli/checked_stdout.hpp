// std::cout's buffer for teg: writes to file descriptor 1 and remembers the first failure with
// its errno, so that `teg ... > /dev/full` ends with an error naming the cause instead of exit
// status 0 (the C library's stdout buffer loses errno when a write fails mid-run).
#pragma once

#include <streambuf>
#include <string>

namespace teg::cli {

class CheckedStdout final : public std::streambuf {
 public:
  explicit CheckedStdout(int fd = 1);
  ~CheckedStdout() override;

  // errno of the first failed write (0: none); after it, output is dropped.
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool drain();  // writes the buffer out; false on a failure (recorded)
  int fd_;
  int error_ = 0;
  std::string buffer_;
};

}  // namespace teg::cli

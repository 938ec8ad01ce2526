// Reading the files a user names (launch descriptions, sources, PTX, buffers, device files, CSV).
// Every input goes through here so that a directory, a FIFO or a device is refused with a message
// that says what it is — a FIFO opened for reading would otherwise block forever, and a
// directory would read as empty or as "no such file" — and any other failure names the real
// errno.
#pragma once

#include <string>

namespace teg {

// The whole content of the regular file `path`. Throws teg::Error "PATH: is a directory",
// "PATH: is not a regular file (a FIFO)", "PATH: cannot open: <strerror>" and the like.
std::string readInputFile(const std::string& path);

// Checks, without reading it, that `path` is a regular file this process may read (for a file
// handed to another program, e.g. a .cu to nvcc). Throws the same errors as readInputFile.
void checkInputFile(const std::string& path);

}  // namespace teg

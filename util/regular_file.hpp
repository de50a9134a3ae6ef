// Opening a file for reading that must be a regular file, without blocking: a FIFO (or a device)
// named where a table or certificate is expected would block open() until a writer came. The file
// is opened with O_NONBLOCK, checked with fstat, and only then read (O_NONBLOCK cleared).
#pragma once
#include <string>

namespace gonu {

// A descriptor of the regular file `path` open for reading, or -1 with `why` set to a one-line
// reason ("No such file or directory", "not a regular file (a FIFO)").
int open_regular_file(const std::string& path, std::string& why);

}  // namespace gonu

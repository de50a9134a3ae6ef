// Where gonu play reads its lines: with line editing and a history of the lines entered
// (Debian's libedit) when stdin is a terminal, plain std::getline otherwise, so that tests and
// scripts can pipe input; a piped line is echoed after the prompt, so the output reads as a
// transcript.
#pragma once
#include <optional>
#include <string>

namespace gonu::cli {

class LineReader {
 public:
  LineReader();
  // Shows `prompt` and reads one line (without its newline); nullopt at the end of input.
  std::optional<std::string> read(const std::string& prompt);
  bool interactive() const { return interactive_; }

 private:
  bool interactive_;
};

}  // namespace gonu::cli

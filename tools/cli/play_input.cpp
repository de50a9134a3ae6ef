// LineReader: libedit's readline() on a terminal, std::getline with an echo otherwise.
#include "tools/cli/play_input.hpp"

#include <editline/readline.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace gonu::cli {

LineReader::LineReader() : interactive_(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
  if (interactive_) using_history();
}

std::optional<std::string> LineReader::read(const std::string& prompt) {
  if (interactive_) {
    std::cout << std::flush;
    char* raw = readline(prompt.c_str());
    if (!raw) return std::nullopt;
    std::string line = raw;
    std::free(raw);
    if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    return line;
  }
  std::cout << prompt << std::flush;
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  std::cout << line << "\n";
  return line;
}

}  // namespace gonu::cli

// libFuzzer target: the superko certificate checker (check_certificate) on arbitrary text. The
// checker reports a flaw in its result; it may also throw GonuError. Anything else (another
// exception, a sanitizer report, a hang) is a finding.
#include <cstdint>
#include <sstream>
#include <string>

#include "checker/certificate_check.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    (void)gonu::check_certificate(in);
  } catch (const gonu::GonuError&) {
  }
  return 0;
}

// Quantities for people, read and written: byte sizes as a person types them (--max-memory 20G),
// and the one-line progress report of a long phase (its percent, rate and time left). Pure
// functions of their arguments (no clock, no terminal), so that tests can hold them to exact text.
// Part of the library gonu_report.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace gonu::cli {

// A byte size: a whole number of bytes ("1048576"), or a number with a unit ("512M", "1.5GiB",
// "20G"), the unit's case ignored. K, M, G, T alone or with iB are powers of 1024 (KiB, MiB, GiB,
// TiB); with B alone they are powers of 1000 (KB, MB, GB, TB), as GNU coreutils reads them; B is
// bytes. Nothing if the text is not one of these or the size passes 2^64 - 1 bytes.
std::optional<std::uint64_t> parse_byte_size(const std::string& text);

// "950", "12.3k", "1.9M", "2.47G": a count to three significant digits.
std::string short_count(double n);

// "7s", "2m10s", "1h05m", "3d04h": a duration, rounded to the second, in its two largest units.
std::string duration_text(double seconds);

// One progress line: the phase, then, when the total is known (> 0), the percent done, the rate
// and the estimated time left at that rate; else the count so far and the rate. `seconds` is the
// time the phase has run. E.g. "retrograde  43.2%  1.9M states/s  ETA 2m10s",
// "enumerate  12.3M states  1.9M states/s".
std::string format_progress(const std::string& phase, std::uint64_t done, std::uint64_t total, double seconds);

}  // namespace gonu::cli

// Quantities for people, read and written: byte sizes as a person types them (--max-memory 20G),
// the one-line progress report of a long phase (its percent, rate and time left), a time and a
// memory size as both games' solves report them. Pure functions of their arguments (no clock, no
// terminal), so that tests can hold them to exact text, but for the process's peak memory.
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

// "0.004 s", "0.81 s", "12.3 s", "245 s": three decimals below 0.1 s, two below 10 s, one below 100.
std::string seconds_text(double seconds);
// "6.2 MiB" below 10 MiB, else "65 MiB"; "1.4 GiB" from 1 GiB on.
std::string bytes_text(std::uint64_t bytes);
// The process's peak resident memory so far (getrusage), in bytes (the one figure here that is no
// pure function: it reads the process).
std::uint64_t peak_resident_bytes();

}  // namespace gonu::cli

// The value of a state for the side to move, as every engine, table and checker reports it.
// The numbers are stored in tables (two bits a state): never renumber them.
#pragma once
#include <cstdint>
#include <string>

namespace gonu {

enum class Value : std::uint8_t { draw = 0, win = 1, loss = 2 };

// "DRAW" / "WIN" / "LOSS"
inline const char* to_string(Value v) {
  switch (v) {
    case Value::win: return "WIN";
    case Value::loss: return "LOSS";
    default: return "DRAW";
  }
}

// "WIN in 7" / "LOSS in 12" / "DRAW": a value with its distance in plies, for people, in either game.
inline std::string value_text(Value v, std::uint16_t dist) {
  return v == Value::draw ? "DRAW" : std::string(to_string(v)) + " in " + std::to_string(dist);
}

}  // namespace gonu

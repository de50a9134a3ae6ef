// The superko value's name (types.hpp).
#include "solver/julgonu/superko/types.hpp"

namespace gonu {

const char* to_string(SkValue v) {
  switch (v) {
    case SkValue::win: return "WIN";
    case SkValue::loss: return "LOSS";
    default: return "UNKNOWN";
  }
}

}  // namespace gonu

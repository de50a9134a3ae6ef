// The options of Jungi's reading, each with the source sentence it reads.
#include "core/jungi/rules.hpp"

#include "core/error.hpp"

namespace gonu::jungi {

const std::vector<OptionInfo>& option_list() {
  static const std::vector<OptionInfo> list = {
      {"--hobbling", "off|on", "on: a leap whose first step (a Horseman's orthogonal step, a 2-leap's middle, a 3-leap's first square) is occupied cannot be made",
       "\"Pieces on these arrow spaces can prevent movement in that direction if the \"Hobbling\" rule is active.\""},
      {"--promotion", "compulsory|optional", "optional: a piece that ends a move in its zone may stay unpromoted",
       "\"Each piece on the left promotes to the corresponding piece on the right when it reaches the opposite back 3 rows of the board.\""},
      {"--stalemate", "loss|draw", "draw: a side with no legal move draws instead of losing",
       "(the source is silent; gonu reads it as chess variants without check do: no move, no game)"},
      {"--lancer", "standard|queen", "queen: the Lancer slides in all eight directions instead of orthogonally and diagonally backward",
       "\"The Lancer can slide any number of free spaces orthogonally or diagonally sideways.\""},
  };
  return list;
}

const std::vector<PieceReading>& piece_readings() {
  static const std::vector<PieceReading> list = {
      {'K', "King", "1 step any direction; first move: 2 steps straight forward (the square between empty); captures what passed by its 8 neighbours",
       "Emperor", "up to two King steps a turn (each may capture; back to its square only after capturing: capture without moving), or a leap to any square at distance 2; captures what passed by with a single step",
       "\"The King can move 1 step in any direction or 2 steps directly forward as a first move.\" \"The Emperor can move 1 step in any direction once or twice, or leap out to any space 2 spaces from its own.\""},
      {'Q', "Queen", "as the King, not royal", "Empress", "slides in all 8 directions; captures what passed by its 8 neighbours",
       "\"The Queen can move 1 step in any direction or 2 steps directly forward as a first move\""},
      {'P', "Pawn", "1 step forward, move only; 1 step diagonally forward, capture only (also what passed by there); 2 steps forward from its home rank, move only",
       "Veteran", "1 step any direction; captures what passed by its 8 neighbours",
       "\"The Pawn can only step one square directly forward to move, but captures by stepping diagonally forward one square.\""},
      {'N', "Horseman", "leaps to the 8 knight squares", "Unicorn", "1 step any direction or a knight leap",
       "\"stepping one space orthogonally in any direction followed by another step in the same direction diagonally in the shape of an L\""},
      {'E', "Elephant", "1 step orthogonally; leap 2 diagonally; leap 3 straight forward from its own back rank",
       "Grutslaeng", "1 step any direction; leap 2 diagonally; leap 3 orthogonally",
       "\"The Elephant can take 1 step orthogonally or leap 2 spaces diagonally. It can leap orthogonally forward 3 spaces if it is on the back row of its side.\""},
      {'M', "Magister", "1 step orthogonally; leap 2 orthogonally", "Archmagister", "1 step any direction; leap 2 orthogonally; leap 3 diagonally",
       "\"The Magister can step 1 space orthogonally or leap 2 spaces orthogonally.\""},
      {'S', "Pikeman", "slides straight forward; slides diagonally backward", "Lancer",
       "slides orthogonally; slides diagonally backward (--lancer queen: all 8 directions)",
       "\"The Pikeman can slide any number of free spaces orthogonally forward or any number of free spaces diagonally backward.\""},
      {'C', "Cannon", "slides diagonally", "Kirin", "1 step any direction or diagonal slides",
       "\"The Cannon can slide any number of free spaces diagonally in any direction.\""},
      {'R', "Chariot", "slides orthogonally", "Dragon", "1 step any direction or orthogonal slides",
       "\"The Chariot can slide any number of free spaces orthogonally in any direction.\""},
      {'L', "Noble", "1 step diagonally or 1 step straight forward", "Lord", "1 step any direction; leap 2 straight backward; leap 2 diagonally",
       "\"The Noble can move 1 step in any diagonal direction or 1 step directly forward.\""},
      {'O', "Officer", "1 step orthogonally or 1 step diagonally forward", "Commander",
       "1 step any direction; leap 2 orthogonally; leap 2 diagonally backward",
       "\"The Officer can move 1 step in any orthogonal direction or 1 step diagonally forward.\""},
  };
  return list;
}

std::string describe(const Rules& r) {
  return std::string("jungi: hobbling ") + (r.hobbling ? "on" : "off") + ", promotion " +
         (r.optional_promotion ? "optional" : "compulsory") + ", stalemate " + (r.stalemate_draw ? "draw" : "loss") +
         ", lancer " + (r.lancer_queen ? "queen" : "standard");
}

std::string rules_id(const Rules& r) {
  return std::string("jungi/") + (r.hobbling ? "hobble" : "nohobble") + "/" +
         (r.optional_promotion ? "optional" : "compulsory") + "/stalemate-" + (r.stalemate_draw ? "draw" : "loss") +
         "/lancer-" + (r.lancer_queen ? "queen" : "standard");
}

bool operator==(const Rules& a, const Rules& b) {
  return a.hobbling == b.hobbling && a.optional_promotion == b.optional_promotion &&
         a.stalemate_draw == b.stalemate_draw && a.lancer_queen == b.lancer_queen;
}

const std::vector<Rules>& every_reading() {
  static const std::vector<Rules> all = [] {
    std::vector<Rules> out;
    for (int bits = 0; bits < 16; ++bits) out.push_back(Rules{bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8)});
    return out;
  }();
  return all;
}

namespace {
bool choose(const std::string& flag, const std::string& value, const char* no, const char* yes) {
  if (value == no) return false;
  if (value == yes) return true;
  throw GonuError(flag + " must be " + no + " or " + yes + ", not '" + value + "'");
}
}  // namespace

bool parse_on_off(const std::string& flag, const std::string& value) { return choose(flag, value, "off", "on"); }
bool parse_promotion(const std::string& value) { return choose("--promotion", value, "compulsory", "optional"); }
bool parse_stalemate(const std::string& value) { return choose("--stalemate", value, "loss", "draw"); }
bool parse_lancer(const std::string& value) { return choose("--lancer", value, "standard", "queen"); }

}  // namespace gonu::jungi

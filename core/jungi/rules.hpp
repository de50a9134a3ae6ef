// Jungi's rules as gonu reads them (docs/jungi.md): the default reading needs no
// option; each option is a reading the source also allows. Plain data.
#pragma once
#include <string>
#include <vector>

namespace gonu::jungi {

struct Rules {
  bool hobbling = false;           // a leap whose first square is occupied cannot be made
  bool optional_promotion = false; // a piece ending in its zone may stay unpromoted
  bool stalemate_draw = false;     // a side with no legal move draws (default: it loses)
  bool lancer_queen = false;       // the Lancer slides in all eight directions
};

// One option of the reading: its flag, its values (default first), and the source's words.
struct OptionInfo {
  std::string flag, values, reading, source;
};
const std::vector<OptionInfo>& option_list();

// One kind of piece as the reading moves it, with the source's words for it.
struct PieceReading {
  char letter;
  std::string base, base_moves, promoted, promoted_moves, source;
};
const std::vector<PieceReading>& piece_readings();

// One line naming every part: "jungi: hobbling off, promotion compulsory, stalemate loss, lancer standard".
std::string describe(const Rules& r);
// A compact, stable identifier: "jungi/nohobble/compulsory/stalemate-loss/lancer-standard".
std::string rules_id(const Rules& r);
bool operator==(const Rules& a, const Rules& b);
// Every reading: each combination of the four options (16), the default first.
const std::vector<Rules>& every_reading();

// The flags' values; each throws GonuError naming the accepted values.
bool parse_on_off(const std::string& flag, const std::string& value);            // on | off
bool parse_promotion(const std::string& value);  // compulsory | optional -> optional?
bool parse_stalemate(const std::string& value);  // loss | draw -> draw?
bool parse_lancer(const std::string& value);     // standard | queen -> queen?

}  // namespace gonu::jungi

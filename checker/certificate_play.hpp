// Playing the winner's strategy of a superko certificate (every format of solver/julgonu/superko/SUPERKO.md)
// against any defence: the certificate is checked first (certificate_check.hpp), then read into
// plain data, and the winner's move at a game that descends from the certificate's root is found
// by replaying the game's moves through the proof: a tree (formats 1, 3, 5) node by node, its
// section references after captures and its ban-free leaves (then the table of format 1) or
// strategy leaves (then that block); a memoryless block (formats 2, 4) by position; format 6's
// root block, switching to an entry's block after a capture onto it; format 7's block by position
// and label (the winner's moves since the last capture, mod M). The game itself (core's Game)
// keeps the full history, so superko is applied to both sides.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/julgonu/game.hpp"

namespace gonu {

struct CertificateData;  // the file read (certificate_play.cpp)

class CertificatePlayer {
 public:
  // Checks and reads the certificate; throws GonuError with the checker's message for a file
  // that is not a valid proof, and for a format 6 file that claims no root value.
  static CertificatePlayer load(const std::string& path);
  // The same from the certificate's text; `check` false skips the checker (for the solver's own
  // report of a proof it has just made, whose check is gonu check-certificate's job).
  static CertificatePlayer read(const std::string& text, bool check);
  CertificatePlayer(CertificatePlayer&&) noexcept;
  ~CertificatePlayer();

  const Game& root() const;    // the start with the certificate's history played
  Side winner() const;
  int format() const;           // the format version
  std::uint64_t size() const;   // the strategy's size: tree nodes plus strategy and table entries
  const std::string& check_message() const;  // the checker's "OK: ..." line

  // The winner's move at g (which must be root() with moves played after it), or nullopt when it is
  // not the winner's turn, the game is over, or the game left the proof (a winner's move that the
  // strategy does not make).
  std::optional<Move> winner_move(const Game& g) const;
  // Whether g still follows the proof (every winner's move after the root was the strategy's).
  bool follows(const Game& g) const;

  // A game of the proof (the strategy against some defence, from the root) that reaches position
  // p, found by a depth-first walk that visits each (position, place in the proof) once; nullopt
  // if none does within max_nodes states.
  std::optional<Game> reach(const Position& p, std::uint64_t max_nodes) const;

  // The longest game of the proof: plies from the root to the end with the strategy against the
  // loser's longest defence (every legal move, the whole history and superko applied). A
  // depth-first walk over every game, each (position, boards since the last capture, place in the
  // proof) valued once, since the rest of the game depends on nothing else; nullopt if it would
  // visit more than max_nodes states. Throws GonuError where the strategy has no move (a proof not
  // checked, and wrong).
  std::optional<std::uint64_t> longest_game(std::uint64_t max_nodes) const;

  struct Cursor;  // where a game stands in the proof (certificate_play.cpp)

 private:
  explicit CertificatePlayer(std::unique_ptr<CertificateData> d);
  Cursor cursor_for(const Game& g) const;
  std::unique_ptr<CertificateData> d_;
};

}  // namespace gonu

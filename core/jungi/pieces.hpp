// Jungi's pieces and how each moves. A square holds a piece code: 0 for empty, else
// 1 + side * 22 + type, where type = kind * 2 + promoted (22 types: eleven kinds, base and
// promoted). Every move a piece can make from a square is precomputed as an Atom (a step or a
// leap to one square, with the square that must be empty for it) or a slide direction, in the
// mover's own frame (North's forward is down), so the generator only reads tables.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/jungi/board.hpp"

namespace gonu::jungi {

enum class Kind : std::uint8_t { king, queen, pawn, horseman, elephant, magister, pikeman, cannon, chariot, noble, officer };
constexpr int kKinds = 11, kTypes = 22;
using Piece = std::uint8_t;
constexpr Piece kEmpty = 0;

inline int type_of(Kind k, bool promoted) { return static_cast<int>(k) * 2 + (promoted ? 1 : 0); }
inline Piece make_piece(Side s, int type) { return static_cast<Piece>(1 + index(s) * kTypes + type); }
inline Piece make_piece(Side s, Kind k, bool promoted) { return make_piece(s, type_of(k, promoted)); }
inline Side side_of(Piece p) { return p > kTypes ? Side::north : Side::south; }
inline int type_of(Piece p) { return p > kTypes ? p - 1 - kTypes : p - 1; }
inline Kind kind_of(Piece p) { return static_cast<Kind>(type_of(p) / 2); }
inline bool is_promoted(Piece p) { return type_of(p) % 2 == 1; }
inline Piece promote(Piece p) { return is_promoted(p) ? p : static_cast<Piece>(p + 1); }
inline Piece demote(Piece p) { return is_promoted(p) ? static_cast<Piece>(p - 1) : p; }
inline bool is_royal(Piece p) { return p == 1 || p == 2 || p == 1 + kTypes || p == 2 + kTypes; }  // K, +K

// The letter of a kind (upper case): K Q P N E M S C R L O.
char kind_letter(Kind k);
// "K", "+k", ...: upper case South, lower case North, '+' before a promoted piece.
std::string piece_text(Piece p);
// The piece's name: "King", "Emperor", ...
std::string piece_name(Piece p);
// The kind of a letter (either case), or false.
bool parse_kind(char c, Kind& k);

// Atom flags.
enum : std::uint8_t {
  kMoveOk = 1,      // may move onto an empty square
  kCaptureOk = 2,   // may capture an enemy standing there
  kPassedBy = 4,    // a one-step onto an empty square the last move passed through captures that mover
  kFirstMove = 8,   // a King's or Queen's 2-step: only while its square holds a first-move right
  kDoubleStep = 16  // a 2-step straight forward: `middle` must be empty, and it passes `middle`
};
struct Atom {
  std::int8_t to;
  std::int8_t block;   // under hobbling, occupied => no move (kNoSquare: not a leap)
  std::int8_t middle;  // a 2-step's middle square, else kNoSquare
  std::uint8_t flags;
};
// The eight directions as (file, rank) steps in South's frame: 0-3 orthogonal, 4-7 diagonal.
constexpr std::array<std::array<int, 2>, 8> kDirections = {{{0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}}};

// Every piece's moves from every square, for both sides, under one lancer reading.
struct Geometry {
  // atoms of (side, type, square): atoms[begin .. end)
  std::vector<Atom> atoms;
  std::array<std::array<std::array<std::uint16_t, kSquares + 1>, kTypes>, 2> first{};
  // slide directions of (side, type) as a bit set over kDirections (the mover's frame resolved)
  std::array<std::array<std::uint8_t, kTypes>, 2> slides{};
  // the squares from `sq` in direction d (absolute), nearest first, and how many
  std::array<std::array<std::array<std::int8_t, 8>, 8>, kSquares> ray{};
  std::array<std::array<std::uint8_t, 8>, kSquares> ray_length{};
  // the King-step neighbours of each square
  std::array<std::array<std::int8_t, 8>, kSquares> neighbour{};
  std::array<std::uint8_t, kSquares> neighbours{};
  // reach(side, type, square): the squares that piece captures on when nothing is in its way (its
  // capturing atoms' targets, its slides' rays, an Emperor's squares within two King steps), so
  // that a test of one capture (takes_royal) skips a piece that cannot make it. On the heap: a
  // static array would add its 57 kB to every gonu process's address space.
  std::vector<Set> reach_sets;
  Set reach(Side side, int type, int sq) const { return reach_sets[std::size_t((index(side) * kTypes + type) * kSquares + sq)]; }
};
// lancer_queen: the Lancer slides in all eight directions (an option of the reading).
const Geometry& geometry(bool lancer_queen);

// Whether pieces of this type capture what passed by (Pawn on its capture squares; Veteran,
// Queen, Empress, King, Emperor on their eight neighbours).
bool captures_passed_by(int type);

}  // namespace gonu::jungi

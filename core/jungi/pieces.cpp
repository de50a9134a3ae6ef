// The movement tables of Jungi's pieces (READING.md's table), built once per lancer reading.
#include "core/jungi/pieces.hpp"

#include <cctype>
#include <cstdlib>

namespace gonu::jungi {
namespace {

constexpr const char* kLetters = "KQPNEMSCRLO";
constexpr std::array<const char*, kTypes> kNames = {
    "King",     "Emperor", "Queen",    "Empress",      "Pawn",    "Veteran", "Horseman", "Unicorn",
    "Elephant", "Grutslaeng", "Magister", "Archmagister", "Pikeman", "Lancer", "Cannon",   "Kirin",
    "Chariot",  "Dragon",  "Noble",    "Lord",         "Officer", "Commander"};

// One movement of a piece in South's frame: a step or leap by (df, dr), or a slide.
struct Offset {
  int df, dr;
  std::uint8_t flags;
};
using Offsets = std::vector<Offset>;

const Offsets kKingSteps = {{0, 1, kMoveOk | kCaptureOk}, {1, 1, kMoveOk | kCaptureOk},  {1, 0, kMoveOk | kCaptureOk},
                            {1, -1, kMoveOk | kCaptureOk}, {0, -1, kMoveOk | kCaptureOk}, {-1, -1, kMoveOk | kCaptureOk},
                            {-1, 0, kMoveOk | kCaptureOk}, {-1, 1, kMoveOk | kCaptureOk}};
constexpr std::uint8_t kAny = kMoveOk | kCaptureOk;

Offsets join(std::initializer_list<Offsets> parts) {
  Offsets out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Offsets with_flag(Offsets o, std::uint8_t f) {
  for (auto& x : o) x.flags |= f;
  return o;
}
Offsets orthogonal(int n) { return {{0, n, kAny}, {n, 0, kAny}, {0, -n, kAny}, {-n, 0, kAny}}; }
Offsets diagonal(int n) { return {{n, n, kAny}, {n, -n, kAny}, {-n, -n, kAny}, {-n, n, kAny}}; }
Offsets knight() {
  return {{1, 2, kAny}, {2, 1, kAny}, {2, -1, kAny}, {1, -2, kAny}, {-1, -2, kAny}, {-2, -1, kAny}, {-2, 1, kAny}, {-1, 2, kAny}};
}

// The square a leap's hobbling looks at: a knight leap's orthogonal first step (along its long
// side), else the first square on the line (the middle of a 2-leap, the first of a 3-leap).
std::array<int, 2> first_step(int df, int dr) {
  if (std::abs(df) != std::abs(dr) && df != 0 && dr != 0) {
    return std::abs(dr) > std::abs(df) ? std::array<int, 2>{0, dr > 0 ? 1 : -1} : std::array<int, 2>{df > 0 ? 1 : -1, 0};
  }
  return {df == 0 ? 0 : (df > 0 ? 1 : -1), dr == 0 ? 0 : (dr > 0 ? 1 : -1)};
}

// Directions as indices into kDirections (South's frame).
constexpr std::uint8_t kOrthogonalSlides = 0x0F, kDiagonalSlides = 0xF0, kAllSlides = 0xFF;
constexpr std::uint8_t kForwardSlide = 0x01, kDiagonalBackSlides = (1 << 5) | (1 << 6);

struct Movement {
  Offsets steps;  // steps and leaps
  std::uint8_t slides = 0;
};

// READING.md's table, base then promoted form of each kind.
Movement movement(int type, bool lancer_queen) {
  const Offsets king = with_flag(kKingSteps, kPassedBy);
  const Offset double_step = {0, 2, kAny | kDoubleStep | kFirstMove};
  switch (type) {
    case 0: return {join({king, {double_step}})};                                    // King
    case 1: return {join({king, orthogonal(2), diagonal(2), knight()})};             // Emperor (+ two-steps)
    case 2: return {join({king, {double_step}})};                                    // Queen
    case 3: return {{}, kAllSlides};                                                  // Empress
    case 4: return {{{0, 1, kMoveOk}, {1, 1, kCaptureOk | kPassedBy}, {-1, 1, kCaptureOk | kPassedBy},
                     {0, 2, kMoveOk | kDoubleStep}}};                                 // Pawn
    case 5: return {king};                                                            // Veteran
    case 6: return {knight()};                                                        // Horseman
    case 7: return {join({kKingSteps, knight()})};                                   // Unicorn
    case 8: return {join({orthogonal(1), diagonal(2), {{0, 3, kAny}}})};             // Elephant
    case 9: return {join({kKingSteps, diagonal(2), orthogonal(3)})};                 // Grutslaeng
    case 10: return {join({orthogonal(1), orthogonal(2)})};                          // Magister
    case 11: return {join({kKingSteps, orthogonal(2), diagonal(3)})};                // Archmagister
    case 12: return {{}, static_cast<std::uint8_t>(kForwardSlide | kDiagonalBackSlides)};  // Pikeman
    case 13: return {{}, lancer_queen ? kAllSlides : static_cast<std::uint8_t>(kOrthogonalSlides | kDiagonalBackSlides)};
    case 14: return {{}, kDiagonalSlides};                                            // Cannon
    case 15: return {kKingSteps, kDiagonalSlides};                                    // Kirin
    case 16: return {{}, kOrthogonalSlides};                                          // Chariot
    case 17: return {kKingSteps, kOrthogonalSlides};                                  // Dragon
    case 18: return {join({diagonal(1), {{0, 1, kAny}}})};                            // Noble
    case 19: return {join({kKingSteps, {{0, -2, kAny}}, diagonal(2)})};              // Lord
    case 20: return {join({orthogonal(1), {{1, 1, kAny}, {-1, 1, kAny}}})};          // Officer
    default: return {join({kKingSteps, orthogonal(2), {{2, -2, kAny}, {-2, -2, kAny}}})};  // Commander
  }
}

int direction_index(int df, int dr) {
  for (int d = 0; d < 8; ++d) {
    if (kDirections[d][0] == df && kDirections[d][1] == dr) return d;
  }
  return -1;
}

// Whether an atom applies from this square: the Pawn's 2-step only from its home rank, the
// Elephant's forward 3-leap only from its own back rank.
bool atom_applies(int type, Side side, int sq, const Offset& o) {
  if (type == 4 && (o.flags & kDoubleStep)) return rank_of(sq) == pawn_home_rank(side);
  if (type == 8 && o.dr == 3) return rank_of(sq) == back_rank(side);
  return true;
}

void build_rays(Geometry& g) {
  for (int sq = 0; sq < kSquares; ++sq) {
    for (int d = 0; d < 8; ++d) {
      int f = file_of(sq) + kDirections[d][0], r = rank_of(sq) + kDirections[d][1], n = 0;
      for (; on_board(f, r); f += kDirections[d][0], r += kDirections[d][1]) g.ray[sq][d][n++] = static_cast<std::int8_t>(square_at(f, r));
      g.ray_length[sq][d] = static_cast<std::uint8_t>(n);
      if (n) g.neighbour[sq][g.neighbours[sq]++] = g.ray[sq][d][0];
    }
  }
}

void build_atoms(Geometry& g, Side side, int type, const Movement& m) {
  const int fwd = forward(side);
  for (int sq = 0; sq < kSquares; ++sq) {
    g.first[index(side)][type][sq] = static_cast<std::uint16_t>(g.atoms.size());
    for (const Offset& o : m.steps) {
      // A King step the piece also slides along is the slide's first square: one move, not two.
      const int d = direction_index(o.df, o.dr);
      if (d >= 0 && (m.slides >> d & 1)) continue;
      const int f = file_of(sq) + o.df, r = rank_of(sq) + o.dr * fwd;
      if (!on_board(f, r) || !atom_applies(type, side, sq, o)) continue;
      Atom a{static_cast<std::int8_t>(square_at(f, r)), kNoSquare, kNoSquare, o.flags};
      if (std::max(std::abs(o.df), std::abs(o.dr)) >= 2) {
        const auto s = first_step(o.df, o.dr);
        const auto b = static_cast<std::int8_t>(square_at(file_of(sq) + s[0], rank_of(sq) + s[1] * fwd));
        if (o.flags & kDoubleStep) a.middle = b; else a.block = b;
      }
      g.atoms.push_back(a);
    }
  }
  g.first[index(side)][type][kSquares] = static_cast<std::uint16_t>(g.atoms.size());
  for (int d = 0; d < 8; ++d) {
    if (!(m.slides >> d & 1)) continue;
    const int absolute = direction_index(kDirections[d][0], kDirections[d][1] * fwd);
    g.slides[index(side)][type] |= static_cast<std::uint8_t>(1 << absolute);
  }
}

void build_reach(Geometry& g, Side side, int type) {
  const bool emperor = type == type_of(Kind::king, true);
  for (int sq = 0; sq < kSquares; ++sq) {
    Set& reach = g.reach_sets[std::size_t((index(side) * kTypes + type) * kSquares + sq)];
    for (int i = g.first[index(side)][type][sq]; i < g.first[index(side)][type][sq + 1]; ++i)
      if (g.atoms[static_cast<std::size_t>(i)].flags & kCaptureOk) reach |= bit(g.atoms[static_cast<std::size_t>(i)].to);
    for (int d = 0; d < 8; ++d)
      if (g.slides[index(side)][type] >> d & 1)
        for (int i = 0; i < g.ray_length[sq][d]; ++i) reach |= bit(g.ray[sq][d][i]);
    for (int i = 0; emperor && i < g.neighbours[sq]; ++i) {
      const int mid = g.neighbour[sq][i];
      reach |= bit(mid);
      for (int j = 0; j < g.neighbours[mid]; ++j) reach |= bit(g.neighbour[mid][j]);
    }
  }
}

Geometry build(bool lancer_queen) {
  Geometry g;
  g.reach_sets.assign(2 * kTypes * kSquares, 0);
  build_rays(g);
  for (Side side : {Side::south, Side::north}) {
    for (int type = 0; type < kTypes; ++type) {
      build_atoms(g, side, type, movement(type, lancer_queen));
      build_reach(g, side, type);
    }
  }
  return g;
}

}  // namespace

char kind_letter(Kind k) { return kLetters[static_cast<int>(k)]; }

std::string piece_text(Piece p) {
  std::string s = is_promoted(p) ? "+" : "";
  const char c = kind_letter(kind_of(p));
  return s + static_cast<char>(side_of(p) == Side::south ? c : std::tolower(static_cast<unsigned char>(c)));
}

std::string piece_name(Piece p) { return kNames[static_cast<std::size_t>(type_of(p))]; }

bool parse_kind(char c, Kind& k) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int i = 0; i < kKinds; ++i) {
    if (kLetters[i] == u) {
      k = static_cast<Kind>(i);
      return true;
    }
  }
  return false;
}

const Geometry& geometry(bool lancer_queen) {
  static const Geometry standard = build(false), queen = build(true);
  return lancer_queen ? queen : standard;
}

bool captures_passed_by(int type) { return type <= 5; }  // King, Emperor, Queen, Empress, Pawn, Veteran

}  // namespace gonu::jungi

// Jungi's move generator, read from the precomputed tables of pieces.cpp; the Emperor's two-steps
// are the one move shape built here, from its neighbours' neighbours.
#include "core/jungi/moves.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

#include "core/error.hpp"

namespace gonu::jungi {
namespace {

// Appends a move, twice under optional promotion when an unpromoted piece ends in its zone.
void push(const Rules& r, MoveList& out, Piece piece, int from, int to, int mid, MoveKind kind) {
  const bool promotes = !is_promoted(piece) && in_zone(side_of(piece), to);
  const Move m{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to), static_cast<std::int8_t>(mid), kind, promotes};
  if (promotes && r.optional_promotion) {
    Move stay = m;
    stay.promotes = false;
    out.moves[static_cast<std::size_t>(out.size++)] = stay;
  }
  out.moves[static_cast<std::size_t>(out.size++)] = m;
}

// Whether the position's en-passant field counts for the side to move (READING.md fine point 5).
bool field_counts(const Position& p) {
  if (!p.passed || p.passed_end < 0) return false;
  const Piece e = p.cell[p.passed_end];
  return e != kEmpty && side_of(e) != p.to_move;
}

void atom_moves(const Rules& r, const Geometry& g, const Position& p, int from, bool field, MoveList& out) {
  const Piece piece = p.cell[from];
  const Side side = side_of(piece);
  const auto& first = g.first[index(side)][type_of(piece)];
  for (int i = first[from]; i < first[from + 1]; ++i) {
    const Atom& a = g.atoms[static_cast<std::size_t>(i)];
    if (a.block >= 0 && r.hobbling && p.cell[a.block] != kEmpty) continue;
    const bool two = a.flags & kDoubleStep;
    if (two && (p.cell[a.middle] != kEmpty || ((a.flags & kFirstMove) && !has(p.first_move, from)))) continue;
    const MoveKind kind = two ? MoveKind::double_step : MoveKind::step;
    const Piece t = p.cell[a.to];
    if (t == kEmpty) {
      if ((a.flags & kPassedBy) && field && has(p.passed, a.to)) {
        push(r, out, piece, from, a.to, kNoSquare, MoveKind::passed_by);
      } else if (a.flags & kMoveOk) {
        push(r, out, piece, from, a.to, a.middle, kind);
      }
    } else if (side_of(t) != side && (a.flags & kCaptureOk)) {
      push(r, out, piece, from, a.to, a.middle, kind);
    }
  }
}

void slide_moves(const Rules& r, const Geometry& g, const Position& p, int from, bool field, MoveList& out) {
  const Piece piece = p.cell[from];
  const Side side = side_of(piece);
  const unsigned dirs = g.slides[index(side)][type_of(piece)];
  const bool by = captures_passed_by(type_of(piece)) && field;
  for (int d = 0; d < 8; ++d) {
    if (!(dirs >> d & 1)) continue;
    for (int i = 0; i < g.ray_length[from][d]; ++i) {
      const int sq = g.ray[from][d][i];
      const Piece t = p.cell[sq];
      if (t == kEmpty) {
        push(r, out, piece, from, sq, kNoSquare, i == 0 && by && has(p.passed, sq) ? MoveKind::passed_by : MoveKind::slide);
        continue;
      }
      if (side_of(t) != side) push(r, out, piece, from, sq, kNoSquare, MoveKind::slide);
      break;
    }
  }
}

// The Emperor's two King steps: the middle square empty or an enemy (captured), the second step
// onto an empty square or an enemy, or back to its own square only after a capture.
void two_step_moves(const Rules& r, const Geometry& g, const Position& p, int from, MoveList& out) {
  const Piece piece = p.cell[from];
  const Side side = side_of(piece);
  for (int i = 0; i < g.neighbours[from]; ++i) {
    const int mid = g.neighbour[from][i];
    const Piece tm = p.cell[mid];
    if (tm != kEmpty && side_of(tm) == side) continue;
    for (int j = 0; j < g.neighbours[mid]; ++j) {
      const int to = g.neighbour[mid][j];
      if (to == from) {
        if (tm != kEmpty) push(r, out, piece, from, from, mid, MoveKind::two_step);
        continue;
      }
      const Piece tt = p.cell[to];
      if (tt == kEmpty || side_of(tt) != side) push(r, out, piece, from, to, mid, MoveKind::two_step);
    }
  }
}

// Whether the piece on `from` (the side to move's) captures the enemy royal on `target` by one of
// its moves: atom_moves', slide_moves' and two_step_moves' conditions, for that one square.
bool piece_takes(const Rules& r, const Geometry& g, const Position& p, int from, int target) {
  const Piece piece = p.cell[from];
  const Side side = side_of(piece);
  const auto& first = g.first[index(side)][type_of(piece)];
  for (int i = first[from]; i < first[from + 1]; ++i) {
    const Atom& a = g.atoms[static_cast<std::size_t>(i)];
    if (a.to != target || !(a.flags & kCaptureOk)) continue;
    if (a.block >= 0 && r.hobbling && p.cell[a.block] != kEmpty) continue;
    if ((a.flags & kDoubleStep) && (p.cell[a.middle] != kEmpty || ((a.flags & kFirstMove) && !has(p.first_move, from)))) continue;
    return true;
  }
  const unsigned dirs = g.slides[index(side)][type_of(piece)];
  for (int d = 0; d < 8; ++d) {
    if (!(dirs >> d & 1)) continue;
    int i = 0;
    while (i < g.ray_length[from][d] && p.cell[g.ray[from][d][i]] == kEmpty) ++i;
    if (i < g.ray_length[from][d] && g.ray[from][d][i] == target) return true;
  }
  if (!is_royal(piece) || !is_promoted(piece)) return false;
  // The Emperor: the royal on its middle square, or next to a middle square not its own side's.
  for (int i = 0; i < g.neighbours[from]; ++i) {
    const int mid = g.neighbour[from][i];
    if (mid == target) return true;
    if (p.cell[mid] != kEmpty && side_of(p.cell[mid]) == side) continue;
    for (int j = 0; j < g.neighbours[mid]; ++j)
      if (g.neighbour[mid][j] == target) return true;
  }
  return false;
}

Set between(int from, int to) {
  const int df = (file_of(to) > file_of(from)) - (file_of(to) < file_of(from));
  const int dr = (rank_of(to) > rank_of(from)) - (rank_of(to) < rank_of(from));
  Set s = 0;
  for (int f = file_of(from) + df, k = rank_of(from) + dr; square_at(f, k) != to; f += df, k += dr) s |= bit(square_at(f, k));
  return s;
}

}  // namespace

bool operator==(const Move& a, const Move& b) {
  return a.from == b.from && a.to == b.to && a.mid == b.mid && a.kind == b.kind && a.promotes == b.promotes;
}

namespace {

// One piece's moves, with the tables and whether the en-passant field counts read once a position.
void piece_moves(const Rules& r, const Geometry& g, const Position& p, int from, bool field, MoveList& out) {
  atom_moves(r, g, p, from, field, out);
  slide_moves(r, g, p, from, field, out);
  const Piece piece = p.cell[from];
  if (is_royal(piece) && is_promoted(piece)) two_step_moves(r, g, p, from, out);
}

}  // namespace

void generate_piece_moves(const Rules& r, const Position& p, int from, MoveList& out) {
  piece_moves(r, geometry(r.lancer_queen), p, from, field_counts(p), out);
}

void generate_moves(const Rules& r, const Position& p, MoveList& out) {
  out.size = 0;
  if (p.royal[index(p.to_move)] < 0) return;
  const Geometry& g = geometry(r.lancer_queen);
  const bool field = field_counts(p);
  for (int sq = 0; sq < kSquares; ++sq) {
    const Piece x = p.cell[sq];
    if (x != kEmpty && side_of(x) == p.to_move) piece_moves(r, g, p, sq, field, out);
  }
}

bool piece_takes_royal(const Rules& r, const Position& p, int from) {
  const Piece x = p.cell[from];
  const int target = p.royal[index(other(side_of(x)))];
  const Geometry& g = geometry(r.lancer_queen);
  return target >= 0 && has(g.reach(side_of(x), type_of(x), from), target) && piece_takes(r, g, p, from, target);
}

bool takes_royal(const Rules& r, const Position& p) {
  const int target = p.royal[index(other(p.to_move))];
  if (target < 0 || p.royal[index(p.to_move)] < 0) return false;
  if (field_counts(p) && p.passed_end == target) {
    // The royal just moved past squares: a capture of what passed by may take it (rare, slow path).
    MoveList list;
    generate_moves(r, p, list);
    for (const Move& m : list)
      if (m.kind == MoveKind::passed_by) return true;
  }
  const auto takes = [&](int sq) {
    const Piece x = p.cell[sq];
    return x != kEmpty && side_of(x) == p.to_move && piece_takes_royal(r, p, sq);
  };
  // The board read 8 squares at a time (whole words: a shorter copy would go through memory), each
  // piece found by its nonzero byte: an ending's few pieces leave most words zero, and a table's
  // pass over every index calls this on each.
  constexpr int kWords = kSquares / 8;
  for (int w = 0; w < kWords; ++w) {
    std::uint64_t word;
    std::memcpy(&word, p.cell.data() + 8 * w, 8);
    while (word) {
      const int at = __builtin_ctzll(word) / 8;
      word &= ~(std::uint64_t{0xFF} << (8 * at));
      if (takes(8 * w + at)) return true;
    }
  }
  for (int sq = 8 * kWords; sq < kSquares; ++sq)
    if (takes(sq)) return true;
  return false;
}

std::vector<Move> legal_moves(const Rules& r, const Position& p) {
  MoveList list;
  generate_moves(r, p, list);
  return {list.begin(), list.end()};
}

namespace {

// take(sq) for each square whose piece `m` captures in p, in the order taken.
template <class Take>
void for_each_capture(const Position& p, const Move& m, Take&& take) {
  auto enemy = [&](int sq) { return p.cell[sq] != kEmpty && side_of(p.cell[sq]) != p.to_move; };
  switch (m.kind) {
    case MoveKind::passed_by:
      if (enemy(p.passed_end)) take(p.passed_end);
      break;
    case MoveKind::two_step:
      if (enemy(m.mid)) take(m.mid);
      if (m.to != m.from && enemy(m.to)) take(m.to);
      break;
    default:
      if (enemy(m.to)) take(m.to);
  }
}

}  // namespace

std::vector<int> captured_squares(const Position& p, const Move& m) {
  std::vector<int> out;
  for_each_capture(p, m, [&](int sq) { out.push_back(sq); });
  return out;
}

Position apply_move(const Position& p, const Move& m) {
  Position q = p;
  const Side side = p.to_move;
  const Piece piece = p.cell[m.from];
  for_each_capture(p, m, [&](int sq) {
    if (is_royal(q.cell[sq])) q.royal[index(other(side))] = kNoSquare;
    q.cell[sq] = kEmpty;
    q.first_move &= ~bit(sq);
  });
  q.cell[m.from] = kEmpty;
  q.first_move &= ~bit(m.from);
  q.cell[m.to] = m.promotes ? promote(piece) : piece;
  if (is_royal(piece)) q.royal[index(side)] = m.to;
  switch (m.kind) {
    case MoveKind::slide: q.passed = between(m.from, m.to); break;
    case MoveKind::double_step:
    case MoveKind::two_step: q.passed = bit(m.mid); break;
    default: q.passed = 0;
  }
  q.passed_end = q.passed ? m.to : kNoSquare;
  q.to_move = other(side);
  return q;
}

namespace {

// The squares of format_move: "e2-e3", "e2xe3", "e5xe6-e7".
std::string squares_text(const Position& p, const Move& m) {
  auto sep = [&](int sq) { return p.cell[sq] != kEmpty && side_of(p.cell[sq]) != p.to_move ? 'x' : '-'; };
  std::string out = square_name(m.from);
  if (m.kind == MoveKind::two_step) {
    out += sep(m.mid) + square_name(m.mid) + (m.to == m.from ? '-' : sep(m.to));
  } else {
    out += m.kind == MoveKind::passed_by ? 'x' : sep(m.to);
  }
  return out + square_name(m.to);
}

// A piece as a move names it: its kind's upper-case letter, '+' before a promoted one.
std::string san_letter(Piece x) {
  std::string out;
  if (is_promoted(x)) out += '+';
  out += kind_letter(kind_of(x));
  return out;
}

}  // namespace

std::string format_move(const Rules& r, const Position& p, const Move& m) {
  return squares_text(p, m) + (m.promotes && r.optional_promotion ? "+" : "");
}

std::string format_move_san(const Rules&, const Position& p, const Move& m) {
  const Piece x = p.cell[m.from];
  std::string out = san_letter(x);
  out += squares_text(p, m);
  if (m.promotes) out += '=', out += san_letter(promote(x));
  return out;
}

namespace {

std::string trimmed(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

// What a move's text says: the piece letter if written, the squares, the promotion if written.
struct Written {
  bool has_piece = false, piece_promoted = false;
  Kind piece{};
  std::vector<int> squares;
  std::string promotion;  // as written: "", "+" or "=+Q"
};

// The piece letter of format_move_san ("Q", "+K"), if the text starts with one (a square first
// is format_move's form: "e2-e3" is a square, "Ee2-e3" and "ee2-e3" an Elephant's move).
void read_piece(std::string_view& t, Written& w) {
  std::size_t used = 0;
  if (t.empty() || parse_square(t, used) != kNoSquare) return;
  const bool promoted = t[0] == '+';
  if (t.size() < 2u + promoted || !parse_kind(t[promoted], w.piece)) return;
  w.has_piece = true, w.piece_promoted = promoted;
  t.remove_prefix(1u + promoted);
}

// The promotion at the end: "=+Q" or '+'.
void read_promotion(std::string_view& t, Written& w) {
  Kind k;
  if (t.size() >= 3 && t.substr(t.size() - 3, 2) == "=+" && parse_kind(t.back(), k)) w.promotion = std::string(t.substr(t.size() - 3));
  else if (!t.empty() && t.back() == '+') w.promotion = '+';
  t.remove_suffix(w.promotion.size());
}

// Reads "Qa6-a7=+Q", "e2-e3", "e5xe6-e7", "e2e3+"; false if the text is not that.
bool read_written(std::string_view t, Written& w) {
  read_piece(t, w);
  read_promotion(t, w);
  std::size_t i = 0, used = 0;
  while (i < t.size()) {
    if (!w.squares.empty() && (t[i] == '-' || t[i] == 'x')) ++i;
    const int sq = parse_square(t.substr(i), used);
    if (sq == kNoSquare) return false;
    w.squares.push_back(sq);
    i += used;
  }
  return w.squares.size() == 2 || w.squares.size() == 3;
}

// Refuses a piece letter or a promotion letter that is not the piece's on the from-square.
void check_letters(const std::string& t, const Written& w, Piece piece) {
  if (w.has_piece && (w.piece != kind_of(piece) || w.piece_promoted != is_promoted(piece)))
    throw GonuError("move '" + t + "': the piece on " + square_name(w.squares[0]) + " is " + san_letter(piece) + " (" + piece_name(piece) +
                    "), not " + (w.piece_promoted ? "+" : "") + kind_letter(w.piece));
  if (w.promotion.size() == 3 && !is_promoted(piece) && w.promotion.back() != kind_letter(kind_of(piece)) &&
      w.promotion.back() != std::tolower(static_cast<unsigned char>(kind_letter(kind_of(piece)))))
    throw GonuError("move '" + t + "': the " + piece_name(piece) + " promotes to " + san_letter(promote(piece)) + " (" +
                    piece_name(promote(piece)) + "), not " + w.promotion.substr(1));
}

}  // namespace

Move parse_move(const Rules& r, const Position& p, std::string_view text) {
  const std::string t = trimmed(text);
  Written w;
  if (!read_written(t, w))
    throw GonuError("move '" + t + "': write from-to (e2-e3) or with the piece (Pe2-e3), an Emperor's two-step from-middle-to (+Ke5-e6-e7)");
  const std::vector<int>& sq = w.squares;
  const Piece piece = p.cell[sq[0]];
  const std::string side = p.to_move == Side::south ? "South" : "North";
  if (piece == kEmpty || side_of(piece) != p.to_move) throw GonuError("move '" + t + "': no piece of " + side + " (to move) on " + square_name(sq[0]));
  check_letters(t, w, piece);
  MoveList list;
  if (p.royal[index(p.to_move)] >= 0) generate_piece_moves(r, p, sq[0], list);
  const bool plus = !w.promotion.empty();
  std::string options;
  bool shape_seen = false;
  for (const Move& m : list) {
    if (!options.empty()) options += ' ';
    options += format_move(r, p, m);
    const bool shape = sq.size() == 3 ? m.kind == MoveKind::two_step && m.mid == sq[1] && m.to == sq[2]
                                      : m.kind != MoveKind::two_step && m.to == sq[1];
    if (!shape) continue;
    shape_seen = true;
    if (r.optional_promotion ? m.promotes == plus : (!plus || m.promotes)) return m;
  }
  if (shape_seen && plus) throw GonuError("move '" + t + "': it does not promote (drop the '" + w.promotion + "')");
  throw GonuError("move '" + t + "' is not legal: the " + piece_name(piece) + " on " + square_name(sq[0]) +
                  (options.empty() ? " has no legal move" : " can play " + options));
}

Outcome outcome(const Rules& r, const Position& p, std::string* reason) {
  const std::string side = p.to_move == Side::south ? "South" : "North";
  if (p.royal[index(p.to_move)] < 0) {
    if (reason) *reason = side + "'s royal has been captured: " + side + " loses";
    return Outcome::loss;
  }
  MoveList list;
  generate_moves(r, p, list);
  if (list.size) return Outcome::ongoing;
  if (reason) *reason = side + " has no legal move: " + (r.stalemate_draw ? "a draw (stalemate draw)" : side + " loses");
  return r.stalemate_draw ? Outcome::draw : Outcome::loss;
}

std::uint64_t perft(const Rules& r, const Position& p, int depth) {
  if (depth == 0) return 1;
  MoveList list;
  generate_moves(r, p, list);
  if (depth == 1) return static_cast<std::uint64_t>(list.size);
  std::uint64_t n = 0;
  for (const Move& m : list) n += perft(r, apply_move(p, m), depth - 1);
  return n;
}

}  // namespace gonu::jungi

namespace gonu::jungi {

Position play_history(const Rules& r, Position p, const std::string& history, const std::string& label) {
  std::istringstream moves(history);
  std::string word;
  for (int n = 1; moves >> word; ++n) {
    try {
      std::string over;
      if (outcome(r, p, &over) != Outcome::ongoing) throw GonuError("the game is over: " + over);
      p = apply_move(p, parse_move(r, p, word));
    } catch (const GonuError& e) {
      throw GonuError(label + " move " + std::to_string(n) + ": " + e.what());
    }
  }
  return p;
}

}  // namespace gonu::jungi

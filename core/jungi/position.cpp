// Jungi's position notation: parsing with one-line errors (GonuError makes the input they quote
// printable), formatting, the provisional start, and the en-passant field's possibility check.
#include "core/jungi/position.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/error.hpp"

namespace gonu::jungi {
namespace {

[[noreturn]] void fail(const std::string& what) { throw GonuError("jungi position: " + what); }

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

std::string side_name(Side s) { return s == Side::south ? "South" : "North"; }

void parse_rank(const Rules& r, std::string_view text, int rank0, Position& p) {
  int file = 0;
  const std::string label = "rank " + std::to_string(rank0 + 1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '1' && c <= '9') {
      file += c - '0';
    } else {
      const bool promoted = c == '+';
      if (promoted && ++i == text.size()) fail(label + ": '+' must be followed by a piece letter");
      const char letter = text[i];
      Kind k;
      const std::size_t length = std::max<std::size_t>(1, utf8_char_length(text, i));  // quote whole characters
      if (!parse_kind(letter, k)) fail(label + ": '" + std::string(text.substr(i, length)) + "' is not a piece letter (KQPNEMSCRLO, lower case for North, + before a promoted piece, 1-9 for empty squares)");
      if (file >= kFiles) fail(label + " has more than 9 squares: '" + std::string(text) + "'");
      const Side side = std::isupper(static_cast<unsigned char>(letter)) ? Side::south : Side::north;
      const Piece piece = make_piece(side, k, promoted);
      const int sq = square_at(file, rank0);
      if (!can_stand(r, piece, sq)) {
        fail(label + ": " + side_name(side) + "'s " + piece_name(piece) + " cannot stand on " + square_name(sq) +
             (kind_of(piece) == Kind::pawn && !promoted && !in_zone(side, sq) ? " (a Pawn never stands on its side's first two ranks)"
                                                                              : " (an unpromoted piece in its zone has promoted)"));
      }
      p.cell[static_cast<std::size_t>(sq)] = piece;
      ++file;
    }
    if (file > kFiles) fail(label + " has more than 9 squares: '" + std::string(text) + "'");
  }
  if (file < kFiles) fail(label + " has " + std::to_string(file) + " squares, not 9: '" + std::string(text) + "'");
}

void parse_board(const Rules& r, std::string_view text, Position& p) {
  std::vector<std::string_view> ranks;
  for (std::size_t start = 0;;) {
    const std::size_t slash = text.find('/', start);
    ranks.push_back(text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (ranks.size() != kRanks) fail(std::to_string(ranks.size()) + " ranks, not 9 (ranks 9 to 1 separated by '/')");
  for (int i = 0; i < kRanks; ++i) parse_rank(r, ranks[static_cast<std::size_t>(i)], kRanks - 1 - i, p);
}

void check_royals(const Position& p) {
  for (Side s : {Side::south, Side::north}) {
    std::vector<int> found;
    for (int sq = 0; sq < kSquares; ++sq) {
      const Piece x = p.cell[static_cast<std::size_t>(sq)];
      if (is_royal(x) && side_of(x) == s) found.push_back(sq);
    }
    if (found.empty()) fail(side_name(s) + " has no royal (a King K or Emperor +K)");
    if (found.size() > 1) fail(side_name(s) + " has two royals (" + square_name(found[0]) + " and " + square_name(found[1]) + ")");
  }
}

// "e4:e5", "a2a3a4:a5": the passed squares (any order, no repeats), the end square.
void parse_field(std::string_view text, Position& p) {
  if (text == "-") return;
  const std::size_t colon = text.find(':');
  const std::string quoted = "en-passant field '" + std::string(text) + "'";
  if (colon == std::string_view::npos || colon == 0) fail(quoted + ": write '-' or the passed squares, ':' and the end square (e4:e5)");
  std::size_t used = 0;
  for (std::size_t i = 0; i < colon; i += used) {
    const int sq = parse_square(text.substr(i, colon - i), used);
    if (sq == kNoSquare) fail(quoted + ": '" + std::string(text.substr(i, colon - i)) + "' is not a square list");
    if (has(p.passed, sq)) fail(quoted + ": " + square_name(sq) + " is listed twice");
    p.passed |= bit(sq);
  }
  const int end = parse_square(text.substr(colon + 1), used);
  if (end == kNoSquare || colon + 1 + used != text.size()) fail(quoted + ": the end square after ':' is not a square");
  p.passed_end = static_cast<std::int8_t>(end);
}

void parse_rights(std::string_view text, Position& p) {
  std::size_t used = 0;
  for (std::size_t i = 0; i < text.size(); i += used) {
    const int sq = parse_square(text.substr(i), used);
    if (sq == kNoSquare) fail("first-move rights '" + std::string(text) + "': not a list of squares (e1e2e8e9)");
    const Piece x = p.cell[static_cast<std::size_t>(sq)];
    if (x == kEmpty || is_promoted(x) || (kind_of(x) != Kind::king && kind_of(x) != Kind::queen)) {
      fail("first-move right on " + square_name(sq) + ": no unpromoted King or Queen stands there");
    }
    p.first_move |= bit(sq);
  }
}

}  // namespace

bool operator==(const Position& a, const Position& b) {
  return a.cell == b.cell && a.to_move == b.to_move && a.passed == b.passed && a.passed_end == b.passed_end &&
         a.first_move == b.first_move;
}

bool can_stand(const Rules& r, Piece p, int sq) {
  const Side s = side_of(p);
  if (!is_promoted(p) && kind_of(p) == Kind::pawn) {
    const int rank_from_home = s == Side::south ? rank_of(sq) : kRanks - 1 - rank_of(sq);
    if (rank_from_home < 2) return false;
  }
  return is_promoted(p) || r.optional_promotion || !in_zone(s, sq);
}

void find_royals(Position& p) {
  p.royal = {kNoSquare, kNoSquare};
  for (int sq = 0; sq < kSquares; ++sq) {
    const Piece x = p.cell[static_cast<std::size_t>(sq)];
    if (is_royal(x)) p.royal[static_cast<std::size_t>(index(side_of(x)))] = static_cast<std::int8_t>(sq);
  }
}

Position start_position() {
  const Rules r;
  Position p = parse_position(r, "rnemkmenr/scloqolcs/ppppppppp/9/9/9/PPPPPPPPP/SCLOQOLCS/RNEMKMENR s -");
  for (const char* sq : {"e1", "e2", "e8", "e9"}) {
    std::size_t used;
    p.first_move |= bit(parse_square(sq, used));
  }
  return p;
}

Position parse_position(const Rules& r, std::string_view text) {
  const auto fields = split_fields(text);
  if (fields.size() < 3 || fields.size() > 4) {
    fail("'" + std::string(text) + "' needs 3 fields (ranks, side to move s|n, en-passant field or '-') and optionally the first-move rights");
  }
  Position p;
  parse_board(r, fields[0], p);
  check_royals(p);
  find_royals(p);
  if (fields[1] != "s" && fields[1] != "n") fail("the side to move must be 's' or 'n', not '" + std::string(fields[1]) + "'");
  p.to_move = fields[1] == "s" ? Side::south : Side::north;
  parse_field(fields[2], p);
  if (fields.size() == 4) parse_rights(fields[3], p);
  if (p.passed && !field_is_possible(r, p)) {
    fail("en-passant field '" + std::string(fields[2]) + "': no last move of " + side_name(other(p.to_move)) + " could have left it");
  }
  return p;
}

std::string format_passed(const Position& p) {
  std::vector<int> squares;
  for (Set s = p.passed; s; s &= s - 1) squares.push_back(lowest(s));
  // Passed in order: the farthest from the end square first.
  std::sort(squares.begin(), squares.end(), [&](int a, int b) { return distance(a, p.passed_end) > distance(b, p.passed_end); });
  std::string out;
  for (int sq : squares) out += square_name(sq);
  return out;
}

std::string format_position(const Position& p) {
  std::string out;
  for (int rank0 = kRanks - 1; rank0 >= 0; --rank0) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const Piece x = p.cell[static_cast<std::size_t>(square_at(file, rank0))];
      if (x == kEmpty) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += piece_text(x);
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank0) out += '/';
  }
  out += p.to_move == Side::south ? " s " : " n ";
  out += p.passed ? format_passed(p) + ":" + square_name(p.passed_end) : "-";
  if (p.first_move) {
    out += ' ';
    for (Set s = p.first_move; s; s &= s - 1) out += square_name(lowest(s));
  }
  return out;
}

std::string draw_position(const Position& p) {
  std::string out;
  for (int rank0 = kRanks - 1; rank0 >= 0; --rank0) {
    out += static_cast<char>('1' + rank0);
    for (int file = 0; file < kFiles; ++file) {
      const Piece x = p.cell[static_cast<std::size_t>(square_at(file, rank0))];
      const std::string t = x == kEmpty ? "." : piece_text(x);
      out += std::string(t.size() == 1 ? 2 : 1, ' ') + t;
    }
    out += '\n';
  }
  out += "  ";
  for (int file = 0; file < kFiles; ++file) out += std::string("  ") + static_cast<char>('a' + file);
  return out + "\n";
}

namespace {

// The unpromoted form the piece on `end` may have had before a move from `from` promoted it.
bool may_have_promoted(const Rules& r, Piece after, Side mover, int from, int end) {
  return is_promoted(after) && in_zone(mover, end) && (r.optional_promotion || !in_zone(mover, from));
}

bool line_move_possible(const Rules& r, const Position& p, Side mover, int end, int d, int length) {
  const Geometry& g = geometry(r.lancer_queen);
  if (g.ray_length[end][d] <= length) return false;
  const int from = g.ray[end][d][length];
  if (p.cell[static_cast<std::size_t>(from)] != kEmpty) return false;
  const int motion = d ^ 2;  // opposite direction: from `from` toward `end`
  const Piece after = p.cell[static_cast<std::size_t>(end)];
  for (const Piece before : {after, demote(after)}) {
    if (before != after && !may_have_promoted(r, after, mover, from, end)) continue;
    if (!can_stand(r, before, from)) continue;
    if (g.slides[static_cast<std::size_t>(index(mover))][static_cast<std::size_t>(type_of(before))] >> motion & 1) return true;
    const bool straight_forward = kDirections[static_cast<std::size_t>(motion)][0] == 0 &&
                                  kDirections[static_cast<std::size_t>(motion)][1] == forward(mover);
    if (length != 1 || !straight_forward || is_promoted(before)) continue;
    if (kind_of(before) == Kind::king || kind_of(before) == Kind::queen) return true;  // a first-move 2-step
    if (kind_of(before) == Kind::pawn && rank_of(from) == pawn_home_rank(mover)) return true;
  }
  return false;
}

}  // namespace

bool field_is_possible(const Rules& r, const Position& p) {
  if (!p.passed) return true;
  const Side mover = other(p.to_move);
  const Piece end_piece = p.passed_end >= 0 ? p.cell[static_cast<std::size_t>(p.passed_end)] : kEmpty;
  if (end_piece == kEmpty || side_of(end_piece) != mover || has(p.passed, p.passed_end)) return false;
  for (Set s = p.passed; s; s &= s - 1) {
    if (p.cell[static_cast<std::size_t>(lowest(s))] != kEmpty) return false;
  }
  const int length = popcount(p.passed);
  if (length == 1 && is_royal(end_piece) && is_promoted(end_piece) && distance(lowest(p.passed), p.passed_end) == 1) {
    return true;  // an Emperor's two-step through that neighbour (from any of its neighbours, or back)
  }
  const Geometry& g = geometry(r.lancer_queen);
  for (int d = 0; d < 8; ++d) {
    if (g.ray_length[static_cast<std::size_t>(p.passed_end)][static_cast<std::size_t>(d)] < length) continue;
    Set line = 0;
    for (int i = 0; i < length; ++i) line |= bit(g.ray[static_cast<std::size_t>(p.passed_end)][static_cast<std::size_t>(d)][static_cast<std::size_t>(i)]);
    if (line == p.passed) return line_move_possible(r, p, mover, p.passed_end, d, length);
  }
  return false;
}

}  // namespace gonu::jungi

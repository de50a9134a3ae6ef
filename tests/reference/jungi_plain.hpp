// A deliberately plain reference move generator for Jungi, written apart from the fast generator in
// core/ (from the rule reading in docs/jungi.md only, without looking at any other Jungi
// code). The board is a plain 9x9 array of cells, every piece's moves are found with explicit loops
// over short lists of direction vectors, and each move is applied to a copy of the whole position,
// which is then written back as text. It is meant to be slow and obviously correct: the tests
// compare the fast generator's successors and perft counts with it.
//
// Interface: successors(position, options) lists every legal move as {move text, resulting
// position text}, sorted by move text; perft(position, depth, options) counts move sequences.
// Notation: see READING.md plus the fourth (first-move rights) field, described at parse().
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gonu::plain_jungi {

struct Options {
  bool hobbling = false;
  bool optional_promotion = false;
  bool lancer_queen = false;
};

namespace detail {

constexpr int SOUTH = 0;
constexpr int NORTH = 1;

// One square of the board. kind is the upper-case base letter (K Q P N E M S C R L O), 0 if empty.
struct Cell {
  char kind = 0;
  bool promoted = false;
  int side = SOUTH;
  bool empty() const { return kind == 0; }
};

struct Sq {
  int file = 0;  // 0 = file a
  int rank = 0;  // 0 = rank 1
  bool operator==(const Sq& o) const { return file == o.file && rank == o.rank; }
};

inline bool on_board(int file, int rank) { return file >= 0 && file < 9 && rank >= 0 && rank < 9; }
inline int index_of(Sq s) { return s.rank * 9 + s.file; }  // a1=0, b1=1, ..., i1=8, a2=9, ...
inline std::string name(Sq s) {
  std::string t;
  t += char('a' + s.file);
  t += char('1' + s.rank);
  return t;
}

struct Position {
  Cell cell[9][9];             // cell[rank][file], rank 0 = rank 1, file 0 = file a
  int to_move = SOUTH;
  std::vector<Sq> passed;      // en-passant field: passed squares in the order passed
  bool has_ep = false;         // whether the en-passant field is not '-'
  Sq ep_end;                   // en-passant field: the square the last move ended on
  std::set<int> rights;        // squares (index_of) of Kings/Queens that may still make the 2-step

  Cell& at(Sq s) { return cell[s.rank][s.file]; }
  const Cell& at(Sq s) const { return cell[s.rank][s.file]; }
};

inline bool is_piece_letter(char c) {
  const std::string letters = "KQPNEMSCRLO";
  return letters.find(c) != std::string::npos;
}

inline Sq parse_square(const std::string& text, std::size_t& i) {
  if (i + 2 > text.size()) throw std::runtime_error("jungi: bad square in '" + text + "'");
  char f = text[i], r = text[i + 1];
  if (f < 'a' || f > 'i' || r < '1' || r > '9') throw std::runtime_error("jungi: bad square in '" + text + "'");
  i += 2;
  return Sq{f - 'a', r - '1'};
}

// Position text: "<board> <s|n> <en-passant field> [<rights>]".
// Board: ranks 9..1 separated by '/', files a..i, digits for empty runs, '+' before a promoted piece.
// En-passant field: '-' or passed squares concatenated, ':' and the end square (e.g. "a2a3a4:a5").
// Rights (optional): squares of unmoved Kings/Queens, concatenated (e.g. "e1e2e8e9").
inline Position parse(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> fields;
  for (std::string w; in >> w;) fields.push_back(w);
  if (fields.size() != 3 && fields.size() != 4) throw std::runtime_error("jungi: expected 3 or 4 fields: '" + text + "'");

  Position p;
  // Board.
  int rank = 8, file = 0;
  const std::string& board = fields[0];
  for (std::size_t i = 0; i < board.size(); ++i) {
    char c = board[i];
    if (c == '/') {
      if (file != 9) throw std::runtime_error("jungi: rank without 9 files: '" + text + "'");
      --rank;
      file = 0;
      if (rank < 0) throw std::runtime_error("jungi: more than 9 ranks: '" + text + "'");
    } else if (c >= '1' && c <= '9') {
      file += c - '0';
      if (file > 9) throw std::runtime_error("jungi: rank too long: '" + text + "'");
    } else {
      bool promoted = false;
      if (c == '+') {
        promoted = true;
        ++i;
        if (i >= board.size()) throw std::runtime_error("jungi: '+' at end: '" + text + "'");
        c = board[i];
      }
      char upper = (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
      if (!is_piece_letter(upper)) throw std::runtime_error("jungi: bad piece letter: '" + text + "'");
      if (file >= 9) throw std::runtime_error("jungi: rank too long: '" + text + "'");
      Cell& cl = p.cell[rank][file];
      cl.kind = upper;
      cl.promoted = promoted;
      cl.side = (c >= 'a' && c <= 'z') ? NORTH : SOUTH;
      ++file;
    }
  }
  if (rank != 0 || file != 9) throw std::runtime_error("jungi: board does not have 9x9 squares: '" + text + "'");

  // Side to move.
  if (fields[1] == "s") p.to_move = SOUTH;
  else if (fields[1] == "n") p.to_move = NORTH;
  else throw std::runtime_error("jungi: bad side to move: '" + text + "'");

  // En-passant field.
  const std::string& ep = fields[2];
  if (ep != "-") {
    std::size_t colon = ep.find(':');
    if (colon == std::string::npos || colon % 2 != 0 || colon + 3 != ep.size())
      throw std::runtime_error("jungi: bad en-passant field: '" + text + "'");
    std::size_t i = 0;
    while (i < colon) p.passed.push_back(parse_square(ep, i));
    i = colon + 1;
    p.ep_end = parse_square(ep, i);
    p.has_ep = true;
  }

  // First-move rights.
  if (fields.size() == 4 && fields[3] != "-") {
    const std::string& r = fields[3];
    if (r.size() % 2 != 0) throw std::runtime_error("jungi: bad rights field: '" + text + "'");
    std::size_t i = 0;
    while (i < r.size()) p.rights.insert(index_of(parse_square(r, i)));
  }
  return p;
}

inline std::string write(const Position& p) {
  std::string t;
  for (int rank = 8; rank >= 0; --rank) {
    int run = 0;
    for (int file = 0; file < 9; ++file) {
      const Cell& c = p.cell[rank][file];
      if (c.empty()) {
        ++run;
        continue;
      }
      if (run > 0) t += char('0' + run);
      run = 0;
      if (c.promoted) t += '+';
      t += c.side == SOUTH ? c.kind : char(c.kind - 'A' + 'a');
    }
    if (run > 0) t += char('0' + run);
    if (rank > 0) t += '/';
  }
  t += p.to_move == SOUTH ? " s " : " n ";
  if (!p.has_ep) {
    t += '-';
  } else {
    for (const Sq& s : p.passed) t += name(s);
    t += ':';
    t += name(p.ep_end);
  }
  if (!p.rights.empty()) {
    t += ' ';
    for (int idx : p.rights) t += name(Sq{idx % 9, idx / 9});  // std::set iterates in ascending order
  }
  return t;
}

// A direction or leap in the mover's frame: dx sideways, fwd forward (negative = backward).
struct Vec {
  int dx, fwd;
};

inline const std::vector<Vec>& king8() {
  static const std::vector<Vec> v = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  return v;
}
inline const std::vector<Vec>& orth4() {
  static const std::vector<Vec> v = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
  return v;
}
inline const std::vector<Vec>& diag4() {
  static const std::vector<Vec> v = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
  return v;
}
inline const std::vector<Vec>& knight8() {
  static const std::vector<Vec> v = {{-1, -2}, {1, -2}, {-2, -1}, {2, -1}, {-2, 1}, {2, 1}, {-1, 2}, {1, 2}};
  return v;
}
inline std::vector<Vec> scaled(const std::vector<Vec>& v, int k) {
  std::vector<Vec> out;
  for (const Vec& d : v) out.push_back(Vec{d.dx * k, d.fwd * k});
  return out;
}
// The 16 squares at distance exactly 2 (the border of the 5x5 square around the piece).
inline std::vector<Vec> ring16() {
  std::vector<Vec> out;
  for (int dx = -2; dx <= 2; ++dx)
    for (int fwd = -2; fwd <= 2; ++fwd)
      if (std::max(std::abs(dx), std::abs(fwd)) == 2) out.push_back(Vec{dx, fwd});
  return out;
}
inline int sign(int x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

class Generator {
 public:
  Generator(const Position& p, const Options& o) : p_(p), o_(o) {}

  std::map<std::string, std::string> run() {
    bool has_royal = false;
    for (int r = 0; r < 9; ++r)
      for (int f = 0; f < 9; ++f)
        if (p_.cell[r][f].kind == 'K' && p_.cell[r][f].side == p_.to_move) has_royal = true;
    if (!has_royal) return out_;
    for (int r = 0; r < 9; ++r)
      for (int f = 0; f < 9; ++f)
        if (!p_.cell[r][f].empty() && p_.cell[r][f].side == p_.to_move) piece_moves(Sq{f, r});
    return out_;
  }

 private:
  const Position& p_;
  const Options& o_;
  std::map<std::string, std::string> out_;

  int me() const { return p_.to_move; }
  int forward() const { return me() == SOUTH ? 1 : -1; }  // rank direction of "forward"
  // The square reached from s by v in the mover's frame (may be off the board).
  Sq add(Sq s, Vec v) const { return Sq{s.file + v.dx, s.rank + v.fwd * forward()}; }
  bool inside(Sq s) const { return on_board(s.file, s.rank); }
  bool is_enemy(Sq s) const { return !p_.at(s).empty() && p_.at(s).side != me(); }
  bool is_own(Sq s) const { return !p_.at(s).empty() && p_.at(s).side == me(); }
  bool is_empty(Sq s) const { return p_.at(s).empty(); }
  bool in_zone(Sq s) const { return me() == SOUTH ? s.rank >= 6 : s.rank <= 2; }

  // The en-passant field counts only if its end square holds a piece of the side that just moved.
  bool ep_valid() const { return p_.has_ep && !p_.at(p_.ep_end).empty() && p_.at(p_.ep_end).side != me(); }
  bool ep_square(Sq s) const {
    if (!ep_valid() || !is_empty(s)) return false;
    for (const Sq& q : p_.passed)
      if (q == s) return true;
    return false;
  }

  void record(const std::string& text, const Position& q) {
    std::string after = write(q);
    auto it = out_.find(text);
    if (it != out_.end() && it->second != after)
      throw std::logic_error("jungi plain: one move text with two results: " + text);
    out_[text] = after;
  }

  // A one-destination move from -> to (the destination is empty or enemy; the caller checked).
  // ep_capture: the destination is an empty passed square and the piece on the en-passant end
  // square is captured. passed: the squares this move passes through (its en-passant field).
  void emit(Sq from, Sq to, const std::vector<Sq>& passed, bool ep_capture) {
    Position q = p_;
    Cell mover = q.at(from);
    bool captures = ep_capture || is_enemy(to);
    q.at(from) = Cell{};
    q.rights.erase(index_of(from));
    if (ep_capture) {
      q.at(p_.ep_end) = Cell{};
      q.rights.erase(index_of(p_.ep_end));
    }
    q.rights.erase(index_of(to));
    q.to_move = 1 - me();
    q.passed = passed;
    q.has_ep = !passed.empty();
    q.ep_end = passed.empty() ? Sq{} : to;
    std::string text = name(from) + (captures ? "x" : "-") + name(to);
    bool may_promote = !mover.promoted && in_zone(to);
    if (!may_promote) {
      q.at(to) = mover;
      record(text, q);
      return;
    }
    Cell promoted = mover;
    promoted.promoted = true;
    if (o_.optional_promotion) {
      q.at(to) = mover;
      record(text, q);
      q.at(to) = promoted;
      record(text + "+", q);
    } else {
      q.at(to) = promoted;
      record(text, q);
    }
  }

  // A step by v: onto an empty square or an enemy; with ep_ok, onto an empty passed square it
  // captures what passed by.
  void step(Sq from, Vec v, bool ep_ok) {
    Sq to = add(from, v);
    if (!inside(to) || is_own(to)) return;
    emit(from, to, {}, ep_ok && ep_square(to));
  }

  // The square whose occupation blocks a leap by v under hobbling: for a straight leap (orthogonal
  // or diagonal) its first square; for a knight-shaped leap the orthogonal step along the long side.
  Vec hobble_square(Vec v) const {
    int ax = std::abs(v.dx), af = std::abs(v.fwd);
    if (ax == 0 || af == 0 || ax == af) return Vec{sign(v.dx), sign(v.fwd)};
    if (af > ax) return Vec{0, sign(v.fwd)};
    return Vec{sign(v.dx), 0};
  }

  void leap(Sq from, Vec v) {
    Sq to = add(from, v);
    if (!inside(to) || is_own(to)) return;
    if (o_.hobbling) {
      Sq block = add(from, hobble_square(v));
      if (!is_empty(block)) return;
    }
    emit(from, to, {}, false);
  }

  // A slide along v; with ep_first_step, a one-square slide onto an empty passed square captures
  // what passed by (the Empress's step).
  void slide(Sq from, Vec v, bool ep_first_step) {
    std::vector<Sq> between;
    Sq to = add(from, v);
    bool first = true;
    while (inside(to)) {
      if (is_own(to)) return;
      if (is_enemy(to)) {
        emit(from, to, between, false);
        return;
      }
      emit(from, to, between, first && ep_first_step && ep_square(to));
      between.push_back(to);
      to = add(to, v);
      first = false;
    }
  }

  // The King's and Queen's first-move 2-step straight forward (the square between empty; it may
  // capture on arrival), and the Pawn's (move only).
  void double_step(Sq from, bool move_only) {
    Sq mid = add(from, Vec{0, 1});
    Sq to = add(from, Vec{0, 2});
    if (!inside(to) || !is_empty(mid) || is_own(to)) return;
    if (move_only && !is_empty(to)) return;
    emit(from, to, {mid}, false);
  }

  // The Emperor's two-step: first step to mid (empty or enemy, captured), second step to a square
  // adjacent to mid (empty or enemy), back to the start only if the first step captured.
  void emperor_two_steps(Sq from) {
    for (const Vec& v1 : king8()) {
      Sq mid = add(from, v1);
      if (!inside(mid) || is_own(mid)) continue;
      bool takes_mid = is_enemy(mid);
      for (const Vec& v2 : king8()) {
        Sq to = add(mid, v2);
        if (!inside(to)) continue;
        bool takes_to = false;
        if (to == from) {
          if (!takes_mid) continue;  // returns to its (now empty) start: only after a capture
        } else {
          if (is_own(to)) continue;
          takes_to = is_enemy(to);
        }
        Position q = p_;
        Cell mover = q.at(from);
        q.at(from) = Cell{};
        q.rights.erase(index_of(from));
        q.at(mid) = Cell{};
        q.rights.erase(index_of(mid));
        q.rights.erase(index_of(to));
        q.at(to) = mover;  // already promoted: nothing to promote
        q.to_move = 1 - me();
        q.passed = {mid};
        q.has_ep = true;
        q.ep_end = to;
        std::string text = name(from) + (takes_mid ? "x" : "-") + name(mid) + (takes_to ? "x" : "-") + name(to);
        record(text, q);
      }
    }
  }

  void pawn_moves(Sq from) {
    Sq ahead = add(from, Vec{0, 1});
    if (inside(ahead) && is_empty(ahead)) emit(from, ahead, {}, false);  // move only, never captures
    for (int dx : {-1, 1}) {
      Sq to = add(from, Vec{dx, 1});
      if (!inside(to)) continue;
      if (is_enemy(to)) emit(from, to, {}, false);      // capture only
      else if (ep_square(to)) emit(from, to, {}, true);  // what passed by
    }
    int home_rank = me() == SOUTH ? 2 : 6;
    if (from.rank == home_rank) double_step(from, true);
  }

  void piece_moves(Sq from) {
    const Cell& c = p_.at(from);
    bool has_right = p_.rights.count(index_of(from)) > 0;
    if (!c.promoted) {
      switch (c.kind) {
        case 'K':
        case 'Q':
          for (const Vec& v : king8()) step(from, v, true);
          if (has_right) double_step(from, false);
          break;
        case 'P':
          pawn_moves(from);
          break;
        case 'N':
          for (const Vec& v : knight8()) leap(from, v);
          break;
        case 'E': {
          for (const Vec& v : orth4()) step(from, v, false);
          for (const Vec& v : scaled(diag4(), 2)) leap(from, v);
          int back_rank = me() == SOUTH ? 0 : 8;
          if (from.rank == back_rank) leap(from, Vec{0, 3});
          break;
        }
        case 'M':
          for (const Vec& v : orth4()) step(from, v, false);
          for (const Vec& v : scaled(orth4(), 2)) leap(from, v);
          break;
        case 'S':
          slide(from, Vec{0, 1}, false);
          slide(from, Vec{-1, -1}, false);
          slide(from, Vec{1, -1}, false);
          break;
        case 'C':
          for (const Vec& v : diag4()) slide(from, v, false);
          break;
        case 'R':
          for (const Vec& v : orth4()) slide(from, v, false);
          break;
        case 'L':
          for (const Vec& v : diag4()) step(from, v, false);
          step(from, Vec{0, 1}, false);
          break;
        case 'O':
          for (const Vec& v : orth4()) step(from, v, false);
          step(from, Vec{-1, 1}, false);
          step(from, Vec{1, 1}, false);
          break;
        default:
          throw std::logic_error("jungi plain: unknown piece");
      }
      return;
    }
    switch (c.kind) {
      case 'K':  // Emperor
        for (const Vec& v : king8()) step(from, v, true);
        emperor_two_steps(from);
        for (const Vec& v : ring16()) leap(from, v);
        break;
      case 'Q':  // Empress
        for (const Vec& v : king8()) slide(from, v, true);
        break;
      case 'P':  // Veteran
        for (const Vec& v : king8()) step(from, v, true);
        break;
      case 'N':  // Unicorn
        for (const Vec& v : king8()) step(from, v, false);
        for (const Vec& v : knight8()) leap(from, v);
        break;
      case 'E':  // Grutslaeng
        for (const Vec& v : king8()) step(from, v, false);
        for (const Vec& v : scaled(diag4(), 2)) leap(from, v);
        for (const Vec& v : scaled(orth4(), 3)) leap(from, v);
        break;
      case 'M':  // Archmagister
        for (const Vec& v : king8()) step(from, v, false);
        for (const Vec& v : scaled(orth4(), 2)) leap(from, v);
        for (const Vec& v : scaled(diag4(), 3)) leap(from, v);
        break;
      case 'S':  // Lancer
        if (o_.lancer_queen) {
          for (const Vec& v : king8()) slide(from, v, false);
        } else {
          for (const Vec& v : orth4()) slide(from, v, false);
          slide(from, Vec{-1, -1}, false);
          slide(from, Vec{1, -1}, false);
        }
        break;
      case 'C':  // Kirin
        for (const Vec& v : king8()) step(from, v, false);
        for (const Vec& v : diag4()) slide(from, v, false);
        break;
      case 'R':  // Dragon
        for (const Vec& v : king8()) step(from, v, false);
        for (const Vec& v : orth4()) slide(from, v, false);
        break;
      case 'L':  // Lord
        for (const Vec& v : king8()) step(from, v, false);
        leap(from, Vec{0, -2});
        for (const Vec& v : scaled(diag4(), 2)) leap(from, v);
        break;
      case 'O':  // Commander
        for (const Vec& v : king8()) step(from, v, false);
        for (const Vec& v : scaled(orth4(), 2)) leap(from, v);
        leap(from, Vec{-2, -2});
        leap(from, Vec{2, -2});
        break;
      default:
        throw std::logic_error("jungi plain: unknown piece");
    }
  }
};

}  // namespace detail

// Every legal move of the position, each as {move text, resulting position text}, sorted by move
// text. A position whose side to move has no royal (King or Emperor) has no moves.
inline std::vector<std::pair<std::string, std::string>> successors(const std::string& position, const Options& o = {}) {
  detail::Position p = detail::parse(position);
  detail::Generator g(p, o);
  std::map<std::string, std::string> moves = g.run();  // std::map: sorted by move text
  return std::vector<std::pair<std::string, std::string>>(moves.begin(), moves.end());
}

// The number of move sequences of length depth (perft); depth 0 is 1.
inline std::uint64_t perft(const std::string& position, int depth, const Options& o = {}) {
  if (depth <= 0) return 1;
  std::uint64_t n = 0;
  for (const auto& m : successors(position, o)) n += depth == 1 ? 1 : perft(m.second, depth - 1, o);
  return n;
}

}  // namespace gonu::plain_jungi

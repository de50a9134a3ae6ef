// A deliberately plain reference for the rules of Jul-gonu, written from the rule text and not
// from core/: the board is a 2D array of characters ('x' Black, 'w' White, '.' empty), moves are
// found with straightforward loops, and captures are computed square by square. The tests compare
// core's bitboard generator, repetition tags and game record with it.
//
// The only thing shared with core is the documented square numbering (square = rank0 * cols +
// file, file 0 = 'a', rank0 0 = rank 1), needed to convert between the two representations.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/julgonu/board.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/position.hpp"
#include "core/julgonu/rules.hpp"

namespace ref {

// cell[rank0][file]
struct Grid {
  int rows = 0, cols = 0;
  std::vector<std::vector<char>> cell;
  char to_move = 'x';
  bool operator==(const Grid& o) const {
    return rows == o.rows && cols == o.cols && cell == o.cell && to_move == o.to_move;
  }
  bool same_board(const Grid& o) const { return rows == o.rows && cols == o.cols && cell == o.cell; }
};

inline char enemy_of(char side) { return side == 'x' ? 'w' : 'x'; }

// A move: from, to (squares as rank0 * cols + file) and the sorted list of captured squares.
using MoveKey = std::tuple<int, int, std::vector<int>>;

inline Grid empty_grid(int rows, int cols, char to_move) {
  Grid g;
  g.rows = rows;
  g.cols = cols;
  g.cell.assign(rows, std::vector<char>(cols, '.'));
  g.to_move = to_move;
  return g;
}

inline Grid from_position(const gonu::Board& b, const gonu::Position& p) {
  Grid g = empty_grid(b.rows, b.cols, p.to_move == gonu::Side::black ? 'x' : 'w');
  for (int r = 0; r < b.rows; ++r)
    for (int f = 0; f < b.cols; ++f) {
      const int sq = r * b.cols + f;
      if ((p.black >> sq) & 1) g.cell[r][f] = 'x';
      if ((p.white >> sq) & 1) g.cell[r][f] = 'w';
    }
  return g;
}

inline gonu::Position to_position(const Grid& g) {
  gonu::Position p;
  for (int r = 0; r < g.rows; ++r)
    for (int f = 0; f < g.cols; ++f) {
      const int sq = r * g.cols + f;
      if (g.cell[r][f] == 'x') p.black |= std::uint64_t{1} << sq;
      if (g.cell[r][f] == 'w') p.white |= std::uint64_t{1} << sq;
    }
  p.to_move = g.to_move == 'x' ? gonu::Side::black : gonu::Side::white;
  return p;
}

inline int count(const Grid& g, char side) {
  int n = 0;
  for (const auto& row : g.cell)
    for (char c : row) n += c == side;
  return n;
}

inline bool inside(const Grid& g, int r, int f) { return r >= 0 && r < g.rows && f >= 0 && f < g.cols; }

inline bool is_corner(const Grid& g, int r, int f) {
  return (r == 0 || r == g.rows - 1) && (f == 0 || f == g.cols - 1);
}

// Every move of the side to move, with no repetition rule: each own piece steps to an orthogonally
// adjacent empty point; then the captures of the rules (single / line, corner) are taken.
inline std::vector<MoveKey> plain_moves(const Grid& g, bool single, bool corner) {
  const int dr[4] = {1, 0, -1, 0};
  const int df[4] = {0, 1, 0, -1};
  const char me = g.to_move;
  const char foe = enemy_of(me);
  std::vector<MoveKey> out;
  for (int r = 0; r < g.rows; ++r) {
    for (int f = 0; f < g.cols; ++f) {
      if (g.cell[r][f] != me) continue;
      for (int d = 0; d < 4; ++d) {
        const int tr = r + dr[d], tf = f + df[d];
        if (!inside(g, tr, tf) || g.cell[tr][tf] != '.') continue;
        // The board after the step, before captures.
        auto after_at = [&](int rr, int ff) {
          if (rr == tr && ff == tf) return me;
          if (rr == r && ff == f) return '.';
          return g.cell[rr][ff];
        };
        const int from = r * g.cols + f, to = tr * g.cols + tf;

        std::set<int> line_caps;    // line: everything captured at once
        std::set<int> single_caps;  // single: each one a separate choice
        for (int e = 0; e < 4; ++e) {
          // Walk from the arrival point over enemy pieces.
          std::vector<int> run;
          int cr = tr + dr[e], cf = tf + df[e];
          while (inside(g, cr, cf) && after_at(cr, cf) == foe) {
            run.push_back(cr * g.cols + cf);
            cr += dr[e];
            cf += df[e];
          }
          const bool closed = inside(g, cr, cf) && after_at(cr, cf) == me;
          if (!run.empty() && closed) {
            for (int s : run) line_caps.insert(s);
            if (run.size() == 1) single_caps.insert(run[0]);
          }
        }
        if (corner) {
          const int cr_list[2] = {0, g.rows - 1};
          const int cf_list[2] = {0, g.cols - 1};
          for (int cr : cr_list) {
            for (int cf : cf_list) {
              if (after_at(cr, cf) != foe) continue;
              // The moved piece must be one of the corner's neighbours.
              const int dist = (cr > tr ? cr - tr : tr - cr) + (cf > tf ? cf - tf : tf - cf);
              if (dist != 1) continue;
              bool all_mine = true;
              for (int e = 0; e < 4; ++e) {
                const int nr = cr + dr[e], nf = cf + df[e];
                if (inside(g, nr, nf) && after_at(nr, nf) != me) all_mine = false;
              }
              if (all_mine) {
                line_caps.insert(cr * g.cols + cf);
                single_caps.insert(cr * g.cols + cf);
              }
            }
          }
        }
        if (!single) {
          out.emplace_back(from, to, std::vector<int>(line_caps.begin(), line_caps.end()));
        } else if (single_caps.empty()) {
          out.emplace_back(from, to, std::vector<int>{});
        } else {
          for (int s : single_caps) out.emplace_back(from, to, std::vector<int>{s});
        }
      }
    }
  }
  return out;
}

inline std::vector<MoveKey> plain_moves(const Grid& g, const gonu::Rules& r) {
  return plain_moves(g, r.capture == gonu::Capture::single, r.corner);
}

inline Grid plain_apply(const Grid& g, const MoveKey& m) {
  Grid n = g;
  const auto& [from, to, caps] = m;
  n.cell[to / g.cols][to % g.cols] = g.to_move;
  n.cell[from / g.cols][from % g.cols] = '.';
  for (int s : caps) n.cell[s / g.cols][s % g.cols] = '.';
  n.to_move = enemy_of(g.to_move);
  return n;
}

inline MoveKey key_of(const gonu::Move& m) {
  std::vector<int> caps;
  for (int s = 0; s < 64; ++s)
    if ((m.captured >> s) & 1) caps.push_back(s);
  return MoveKey{int(m.from), int(m.to), caps};
}

inline std::set<MoveKey> key_set(const std::vector<gonu::Move>& moves) {
  std::set<MoveKey> s;
  for (const auto& m : moves) s.insert(key_of(m));
  return s;
}

inline std::set<MoveKey> key_set(const std::vector<MoveKey>& moves) {
  return std::set<MoveKey>(moves.begin(), moves.end());
}

// A random placement: `nb` Black and `nw` White pieces on distinct random points.
inline gonu::Position random_placement(const gonu::Board& b, int nb, int nw, gonu::Side to_move,
                                       std::mt19937_64& rng) {
  std::vector<int> squares(b.n);
  for (int i = 0; i < b.n; ++i) squares[i] = i;
  std::shuffle(squares.begin(), squares.end(), rng);
  gonu::Position p;
  for (int i = 0; i < nb; ++i) p.black |= std::uint64_t{1} << squares[i];
  for (int i = 0; i < nw; ++i) p.white |= std::uint64_t{1} << squares[nb + i];
  p.to_move = to_move;
  return p;
}

// A random position with at least `min_each` pieces of each side (two by default) and at least one
// empty point.
inline gonu::Position random_position(const gonu::Board& b, std::mt19937_64& rng, int min_each = 2) {
  const int max_total = b.n - 1;
  std::uniform_int_distribution<int> total_d(2 * min_each, max_total);
  const int total = total_d(rng);
  std::uniform_int_distribution<int> nb_d(min_each, total - min_each);
  const int nb = nb_d(rng);
  const gonu::Side side = (rng() & 1) ? gonu::Side::white : gonu::Side::black;
  return random_placement(b, nb, total - nb, side, rng);
}

inline std::string key_name(const gonu::Board& b, const MoveKey& m) {
  const auto& [from, to, caps] = m;
  std::string s = gonu::square_name(b, from) + "-" + gonu::square_name(b, to);
  for (int c : caps) {
    s += 'x';
    s += gonu::square_name(b, c);
  }
  return s;
}

inline std::string keys_text(const gonu::Board& b, const std::set<MoveKey>& keys) {
  std::string s;
  for (const auto& k : keys) {
    if (!s.empty()) s += ' ';
    s += key_name(b, k);
  }
  return s;
}

}  // namespace ref

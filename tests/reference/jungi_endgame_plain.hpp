// A deliberately plain reference solver for Jungi endgames, written apart from the generator in
// solver/jungi/generator/: no indexing, no mirror fold, no rule for en-passant fields. Every position of the
// materials asked for (every placement of their pieces where each may stand, both sides to move)
// is a record in a std::map keyed by the position's text; so is every position with an
// en-passant field that a move reaches (a field that gives the side to move no capture of what
// passed by is dropped, since the moves are then those of the same board without it). The
// values are found by forward fixed-point iteration: each pass recomputes every record from its
// successors (a WIN one ply longer than its shortest LOSS successor, a LOSS one ply longer than
// its longest WIN successor when every successor is a WIN) until a pass changes nothing; what is
// left is a DRAW. Moves come from core/jungi's generator, itself checked against the plain
// reference generator (jungi_plain.hpp). Positions outside the materials (after a capture or a
// promotion) are valued by the caller's `outside` function.
#pragma once
#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/jungi/moves.hpp"

namespace gonu::plain_jungi_endgame {

struct Value {
  char result = '?';  // 'W', 'L', 'D' for the side to move
  int dist = 0;       // plies to the end (0 for a draw)
  bool operator==(const Value&) const = default;
};

// The pieces of a position as sorted text ("K k +R"), to tell which material it belongs to.
inline std::string pieces_key(const jungi::Position& p) {
  std::vector<std::string> names;
  for (const jungi::Piece x : p.cell)
    if (x != jungi::kEmpty) names.push_back(jungi::piece_text(x));
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += n + " ";
  return out;
}

// "KRvK" as piece codes; promoted pieces with '+'. Only what the tests write.
inline std::vector<jungi::Piece> material_pieces(const std::string& text) {
  std::vector<jungi::Piece> out;
  jungi::Side side = jungi::Side::south;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == 'v') {
      side = jungi::Side::north;
      continue;
    }
    const bool promoted = text[i] == '+';
    if (promoted) ++i;
    jungi::Kind k{};
    if (!jungi::parse_kind(text[i], k)) throw std::runtime_error("bad material " + text);
    out.push_back(jungi::make_piece(side, k, promoted));
  }
  return out;
}

class Solver {
 public:
  using Outside = std::function<Value(const jungi::Position&)>;

  Solver(const jungi::Rules& rules, const std::vector<std::string>& materials, Outside outside)
      : rules_(rules), outside_(std::move(outside)) {
    for (const auto& m : materials) {
      const auto pieces = material_pieces(m);
      jungi::Position p;
      place(pieces, 0, p);
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) expand(i);  // grows nodes_ with field positions
    iterate();
  }

  // Every record's value by the position's text.
  std::map<std::string, Value> values() const {
    std::map<std::string, Value> out;
    for (const auto& n : nodes_) out[n.text] = n.value;
    return out;
  }
  std::size_t size() const { return nodes_.size(); }

 private:
  struct Node {
    jungi::Position position;
    std::string text;
    std::vector<std::size_t> next;  // successors among the records
    std::vector<Value> fixed;       // successors' values known from the start (outside, or the royal taken)
    bool terminal = false;
    Value value;
  };

  void place(const std::vector<jungi::Piece>& pieces, std::size_t i, jungi::Position& p) {
    if (i == pieces.size()) {
      for (const jungi::Side s : {jungi::Side::south, jungi::Side::north}) {
        jungi::Position q = p;
        q.to_move = s;
        jungi::find_royals(q);
        record(q);
      }
      return;
    }
    for (int sq = 0; sq < jungi::kSquares; ++sq) {
      if (p.cell[std::size_t(sq)] != jungi::kEmpty || !jungi::can_stand(rules_, pieces[i], sq)) continue;
      p.cell[std::size_t(sq)] = pieces[i];
      place(pieces, i + 1, p);
      p.cell[std::size_t(sq)] = jungi::kEmpty;
    }
  }

  // The record of p (added if new), its field dropped when it allows no capture of what passed by.
  std::size_t record(jungi::Position p) {
    if (p.passed) {
      bool captures = false;
      for (const jungi::Move& m : jungi::legal_moves(rules_, p)) captures = captures || m.kind == jungi::MoveKind::passed_by;
      if (!captures) p.passed = 0, p.passed_end = jungi::kNoSquare;
    }
    const std::string text = jungi::format_position(p);
    const auto [it, added] = ids_.emplace(text, nodes_.size());
    if (added) nodes_.push_back(Node{p, text, {}, {}, false, {}});
    return it->second;
  }

  void expand(std::size_t i) {
    const jungi::Position p = nodes_[i].position;
    const auto moves = jungi::legal_moves(rules_, p);
    if (moves.empty()) {
      nodes_[i].terminal = true;
      nodes_[i].value = rules_.stalemate_draw ? Value{'D', 0} : Value{'L', 0};
      return;
    }
    for (const jungi::Move& m : moves) {
      const jungi::Position q = jungi::apply_move(p, m);
      if (q.royal[std::size_t(jungi::index(q.to_move))] < 0) {
        nodes_[i].fixed.push_back({'L', 0});
      } else if (pieces_key(q) == pieces_key(p)) {
        const std::size_t j = record(q);
        nodes_[i].next.push_back(j);
      } else {
        nodes_[i].fixed.push_back(outside_(q));
      }
    }
  }

  // One record's value from its successors' current values ('?' while unknown).
  static Value from_successors(const std::vector<Value>& successors) {
    int shortest_loss = -1, longest_win = -1;
    bool all_win = true;
    for (const Value& v : successors) {
      if (v.result == 'L' && (shortest_loss < 0 || v.dist < shortest_loss)) shortest_loss = v.dist;
      if (v.result == 'W') longest_win = std::max(longest_win, v.dist);
      else all_win = false;
    }
    if (shortest_loss >= 0) return {'W', shortest_loss + 1};
    if (all_win) return {'L', longest_win + 1};
    return {};
  }

  void iterate() {
    for (bool changed = true; changed;) {
      changed = false;
      for (Node& n : nodes_) {
        if (n.terminal) continue;
        std::vector<Value> successors = n.fixed;
        for (const std::size_t j : n.next) successors.push_back(nodes_[j].value);
        const Value v = from_successors(successors);
        if (!(v == n.value)) n.value = v, changed = true;
      }
    }
    for (Node& n : nodes_)
      if (n.value.result == '?') n.value = {'D', 0};
  }

  jungi::Rules rules_;
  Outside outside_;
  std::vector<Node> nodes_;
  std::map<std::string, std::size_t> ids_;
};

}  // namespace gonu::plain_jungi_endgame

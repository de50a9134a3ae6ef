// Capture-entry values layer by layer (solver/julgonu/superko/entry_layers.hpp, SUPERKO.md F10; certificate
// format 6): a sample of the values the pass proves against the plain full-history negamax of the
// state entered fresh (memoized by the exact set of boards), or, where that runs past its budget (the
// 2-2 races of 3x3), the depth-first search without strategies; the format-6 certificate accepted by
// the checker, and refused when corrupted; and from two chosen 3x3 starts, strategies that capture
// onto proven entries (F10's exits), counted alike by the solver and the checker, refused when the
// record of an exit's target is corrupted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "core/julgonu/game.hpp"
#include "core/julgonu/moves.hpp"
#include "checker/certificate_check.hpp"
#include "solver/julgonu/superko/banfree.hpp"
#include "solver/julgonu/superko/entry_layers.hpp"
#include "solver/julgonu/superko/strategy.hpp"
#include "solver/julgonu/superko/superko.hpp"
#include "tests/test_support.hpp"

namespace gonu {
namespace {

using test::join;
using test::start_game;
using test::tokens;

CertificateCheck check_text(const std::string& text) {
  std::istringstream in(text);
  return check_certificate(in);
}

// The reference: the plain full-history negamax (every legal move under superko with core's Game
// record), memoized only by the exact state and set of boards since the last capture, on which
// the value depends (F1). No pruning, no ban-free values, no strategies.
struct Negamax {
  std::map<std::vector<std::uint64_t>, bool> memo;
  std::uint64_t budget = 0;

  static std::vector<std::uint64_t> key(const Game& g) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> earlier;  // the side to move follows from the board (F1)
    for (std::size_t i = 0; i + 1 < g.since_capture.size(); ++i)
      earlier.push_back({g.since_capture[i].black, g.since_capture[i].white});
    std::sort(earlier.begin(), earlier.end());
    const Position& p = current(g);
    std::vector<std::uint64_t> k{p.black, p.white, std::uint64_t(p.to_move == Side::white)};
    for (const auto& [b, w] : earlier) {
      k.push_back(b);
      k.push_back(w);
    }
    return k;
  }
  std::optional<bool> value(const Game& g) {
    const std::vector<std::uint64_t> k = key(g);
    if (const auto it = memo.find(k); it != memo.end()) return it->second;
    if (budget == 0) return std::nullopt;
    --budget;
    bool win = false;
    for (const Move& m : legal_moves(g)) {
      Game next = g;
      play(next, m);
      const std::optional<bool> child = value(next);
      if (!child) return std::nullopt;
      if (!*child) {
        win = true;
        break;
      }
    }
    memo.emplace(k, win);
    return win;
  }
};

// Every proven entry value against the negamax from the state with no history; returns
// (proven, compared).
std::pair<int, int> compare_entry_values(const Game& root, StrategyMethod method) {
  const BanFreeOracle o = make_banfree_oracle(root);
  EntryOptions opt;
  opt.instance_seconds = 5;
  opt.budget_seconds = 0;
  opt.method = method;
  const EntryPass pass = solve_entry_layers(o, opt);
  int proven = 0, compared = 0, tried = 0;
  for (std::size_t id = 0; id < pass.fresh.entry.size(); ++id) {
    if (pass.fresh.entry[id] == SkValue::unknown) continue;
    ++proven;
    if (++tried > 20) continue;  // the reference is exponential: a sample keeps the test short
    Position p;
    Tag t;
    decode_key(o.solution.codec, o.solution.keys[id], p, t);
    Negamax ref_search;
    ref_search.budget = 5'000;
    std::optional<bool> ref = ref_search.value(new_game(root.rules, p));
    if (!ref) {  // the races of a 2-2 layer are beyond it: the depth-first search (F1-F5, no strategies),
      SuperkoOptions so;  // itself checked against this negamax in test_superko_solver.cpp
      so.strategy = false;
      so.max_nodes = 2'000'000;
      const SuperkoResult sr = solve_superko(new_game(root.rules, p), so);
      if (sr.value != SkValue::unknown) ref = sr.value == SkValue::win;
    }
    if (!ref) continue;
    ++compared;
    INFO(format_position(root.board, p));
    REQUIRE(pass.fresh.entry[id] == (*ref ? SkValue::win : SkValue::loss));
  }
  std::uint64_t win = 0, loss = 0;
  for (const EntryLayer& l : pass.layers) {
    REQUIRE(l.win + l.loss + l.still_open == l.open);
    REQUIRE(l.open <= l.capture_entry);
    win += l.win;
    loss += l.loss;
  }
  REQUIRE(win + loss == std::uint64_t(proven));
  return {proven, compared};
}

SuperkoResult solve_with_entries(const Game& g, StrategyMethod method = StrategyMethod::injective) {
  SuperkoOptions o;
  o.search = false;
  o.strategy_depth = 0;
  o.certificate = true;
  o.entry_layers = true;
  o.entry_seconds = 5;
  o.entry_budget = 0;
  o.strategy_method = method;
  return solve_superko(g, o);
}

// The index of the token after the first "entry" line whose block takes `word` at its position.
std::size_t find_token(const std::vector<std::string>& t, const std::string& word, std::size_t from = 0) {
  for (std::size_t i = from; i < t.size(); ++i)
    if (t[i] == word) return i;
  return t.size();
}

// A game from a chosen start (not the rule set's own) on a small board.
Game game_from(const std::string& rules, int rows, int cols, const std::string& start) {
  const Rules r = test::named_on(rules, rows, cols);
  return new_game(r, parse_position(make_board(rows, cols), start));
}

// The reference value for the side to move at p entered fresh (no history): the depth-first search
// without strategies (F1-F5), itself checked against the plain full-history negamax in
// test_superko_solver.cpp. (The negamax alone does not finish here: from x2/1xw/wwx x on 3x3
// corner it ran past 3,000,000 nodes in 100 s; the 2-2 races below make the set of boards large.)
std::optional<bool> reference_fresh(const Rules& rules, const Position& p) {
  SuperkoOptions so;
  so.strategy = false;
  so.max_nodes = 1'000'000;
  const SuperkoResult sr = solve_superko(new_game(rules, p), so);
  if (sr.value == SkValue::unknown) return std::nullopt;
  return sr.value == SkValue::win;
}

// One format-6 certificate read as lines: the entry records (position, winner, the lines of the
// block) and the root's block.
struct CertBlock {
  std::string position;  // "BOARD SIDE", as written; empty for the root's
  std::string winner;
  std::vector<std::string> lines;  // "strategy K", "ranked J" and the move lines
};

std::vector<CertBlock> read_blocks(const std::string& cert, std::string& root_winner) {
  std::istringstream in(cert);
  std::vector<CertBlock> out;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> t = tokens(line);
    if (t.empty()) continue;
    if (t[0] == "winner") root_winner = t.at(1);
    if (t[0] == "entry") {
      out.push_back({t.at(1) + " " + t.at(2), t.at(4), {}});
      inside = true;
    } else if (t[0] == "root" && t.at(1) != "none") {
      out.push_back({"", root_winner, {}});
      inside = true;
    } else if (t[0] == "end-entry" || t[0] == "end-certificate") {
      inside = false;
    } else if (inside) {
      out.back().lines.push_back(line);
    }
  }
  return out;
}

// A winner's capture written in a block onto another entry of the same winner: the exit F10 lets
// the strategies take (found by reading the blocks with core's move generator, not the solver's).
struct ExitMove {
  std::size_t from_block;  // index in read_blocks' list
  std::string target;      // the entry's position
};

std::vector<ExitMove> winner_exits(const Board& board, const Rules& rules, const std::vector<CertBlock>& blocks) {
  std::map<std::string, std::string> entry_winner;
  for (const CertBlock& b : blocks)
    if (!b.position.empty()) entry_winner[b.position] = b.winner;
  std::vector<ExitMove> out;
  for (std::size_t i = 0; i < blocks.size(); ++i)
    for (const std::string& line : blocks[i].lines) {
      const std::vector<std::string> t = tokens(line);
      if (t[0] == "strategy" || t[0] == "ranked" || t.back() == "-") continue;
      const Position p = parse_position(board, t[0] + " " + t[1]);
      const Move m = parse_move(board, rules, p, t.back(), generate_moves(board, rules, p));
      const std::string y = format_position(board, apply_move(p, m));
      if (m.captured && entry_winner.count(y) && entry_winner.at(y) == blocks[i].winner) out.push_back({i, y});
    }
  return out;
}

// The certificate text with `target`'s entry record changed by `edit` (its tokens from "entry" to
// "end-entry"; an empty result removes the record and lowers the count).
template <typename Edit>
std::string with_entry_edited(const std::string& cert, const std::string& target, Edit edit) {
  std::vector<std::string> t = tokens(cert);
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (t[i] != "entry" || t[i + 1] + " " + t[i + 2] != target) continue;
    std::size_t end = i;
    while (t.at(end) != "end-entry") ++end;
    std::vector<std::string> record(t.begin() + long(i), t.begin() + long(end) + 1);
    record = edit(record);
    if (record.empty()) {
      const std::size_t c = find_token(t, "entries");
      t.at(c + 1) = std::to_string(std::stol(t.at(c + 1)) - 1);
    }
    t.erase(t.begin() + long(i), t.begin() + long(end) + 1);
    t.insert(t.begin() + long(i), record.begin(), record.end());
    return join(t);
  }
  FAIL("no entry record for " << target);
  return "";
}

}  // namespace

TEST_CASE("entry layers: proven capture-entry values agree with the full-history negamax or search",
          "[superko][entry]") {
  int proven = 0, compared = 0;
  for (StrategyMethod m : {StrategyMethod::injective, StrategyMethod::lazy}) {
    const auto [p, c] = compare_entry_values(start_game("corner", 3, 3), m);
    proven += p;
    compared += c;
  }
  INFO(proven << " proven, " << compared << " compared");
  REQUIRE(proven >= 100);
  REQUIRE(compared >= 20);
}

TEST_CASE("entry layers: the format-6 certificate is checked, a corrupted one is a FLAW", "[superko][entry][certificate]") {
  const Game g = start_game("corner", 3, 3);
  for (StrategyMethod m : {StrategyMethod::injective, StrategyMethod::lazy}) {
    const SuperkoResult r = solve_with_entries(g, m);
    REQUIRE(r.value == SkValue::win);
    REQUIRE(r.certificate_version == 6);
    const CertificateCheck ok = check_text(r.certificate);
    INFO(ok.message);
    REQUIRE(ok.ok);
    REQUIRE(ok.sections > (m == StrategyMethod::injective ? 100u : 0u));  // the proven entry values
    std::vector<std::string> t = tokens(r.certificate);
    REQUIRE(t.at(1) == "6");
    const std::size_t e = find_token(t, "entry");
    REQUIRE(e < t.size());
    // An entry's value flipped (the winner kept): refused.
    std::vector<std::string> bad = t;
    bad.at(e + 3) = bad.at(e + 3) == "WIN" ? "LOSS" : "WIN";
    REQUIRE(!check_text(join(bad)).ok);
    // An entry's winner and value both flipped: its strategy is then the loser's.
    bad = t;
    bad.at(e + 3) = bad.at(e + 3) == "WIN" ? "LOSS" : "WIN";
    bad.at(e + 4) = bad.at(e + 4) == "black" ? "white" : "black";
    REQUIRE(!check_text(join(bad)).ok);
    // The first paired move of an entry's block replaced by another of its moves: refused (or, if
    // the other move also wins, still a valid proof — never a crash). Here: a move that is no move.
    bad = t;
    const std::size_t s = find_token(t, "strategy", e);
    REQUIRE(s < t.size());
    if (std::stol(t.at(s + 1)) > 0) {
      bad.at(s + 4) = "z9-z8";
      const CertificateCheck c = check_text(join(bad));
      REQUIRE(!c.ok);
      REQUIRE(c.message.find("entry ") == 0);
    }
    // Truncated, and an entry repeated.
    REQUIRE(!check_text(r.certificate.substr(0, r.certificate.size() / 2)).ok);
    REQUIRE(!check_text(join(t) + " extra").ok);
  }
}

TEST_CASE("entry layers: the table alone (root not proven) is a format-6 certificate", "[superko][entry][certificate]") {
  Game g = start_game("corner", 3, 3);
  SuperkoOptions o;
  o.search = false;
  o.strategy = false;
  o.certificate = true;
  o.entry_layers = true;
  o.entry_seconds = 5;
  o.entry_budget = 0;
  const SuperkoResult r = solve_superko(g, o);
  REQUIRE(r.value == SkValue::unknown);
  REQUIRE(r.certificate_version == 6);
  const CertificateCheck c = check_text(r.certificate);
  INFO(c.message);
  REQUIRE(c.ok);
  REQUIRE(c.value == "UNKNOWN");
  // Claiming a value for the root without its strategy is malformed.
  std::vector<std::string> t = tokens(r.certificate);
  const std::size_t v = find_token(t, "value");
  t.at(v + 1) = "WIN";
  t.at(v + 3) = "black";
  REQUIRE(!check_text(join(t)).ok);
}

}  // namespace gonu

namespace gonu {

// Captures onto PROVEN entries (F10's exits): on these starts the pass proves capture-entry states
// by strategies, and a strategy above (the root's, or an upper layer's entry) captures onto them.
// 3x3 corner from x2/1xw/wwx x (3-3): the root's strategy captures onto a proven 2-2 entry; from
// xw1/xww/1xx x (4-3): the 3-3 layer's entry strategies capture onto proven entries below, and the
// root's loser may. Neither start is its own file-mirror image: the solution is not closed under the
// mirror, so the pass searches such states alone (entry_layers.cpp, pair_mirror_images).
TEST_CASE("entry layers: captures onto proven entries are taken, agree with the search, and are checked",
          "[superko][entry][certificate]") {
  struct Start {
    const char* rules;
    int rows, cols;
    const char* position;
    bool root_captures;  // the root's winner captures onto a proven entry (else only its loser does)
    bool layer_exits;    // an upper layer's entry strategies take exits too
    std::size_t compare;  // at most this many exit targets, and entries taking exits, against the reference
  };
  for (const Start& s : {Start{"corner", 3, 3, "x2/1xw/wwx x", true, false, 12},
                         Start{"corner", 3, 3, "xw1/xww/1xx x", false, true, 12}}) {
    INFO(s.rules << " " << s.rows << "x" << s.cols << " from " << s.position);
    const Game g = game_from(s.rules, s.rows, s.cols, s.position);
    const BanFreeOracle o = make_banfree_oracle(g);
    EntryOptions opt;
    opt.instance_seconds = 5;
    opt.budget_seconds = 0;
    opt.certificate = true;
    const EntryPass pass = solve_entry_layers(o, opt);
    std::uint64_t layer_exits = 0;
    for (const EntryLayer& l : pass.layers) layer_exits += l.exits;
    if (s.layer_exits) REQUIRE(layer_exits > 0);

    // The root's strategy over the proven values: it takes exits (the winner's are ranked moves).
    const Side to_move = current(g).to_move;
    StrategySearch root;
    for (Side w : {to_move, other(to_move)}) {
      root = find_strategy(o, pass.fresh, g, w, 5, true);
      if (root.status == StrategyStatus::found) break;
    }
    REQUIRE(root.status == StrategyStatus::found);
    REQUIRE(root.exits > 0);
    REQUIRE((root.exits_winner > 0) == s.root_captures);
    const std::optional<bool> root_ref = reference_fresh(g.rules, current(g));
    REQUIRE(root_ref);
    REQUIRE(*root_ref == (root.winner == to_move));

    // The checker walks the same exits as the solver read off (each block from its own root).
    const std::string cert = entry_certificate(o, pass, g, root.winner, root.block, root.version);
    const CertificateCheck ok = check_text(cert);
    INFO(ok.message);
    REQUIRE(ok.ok);
    REQUIRE(ok.exits == layer_exits + root.exits);

    // The exit targets, found by the checker alone: the entries whose record, removed, makes it
    // refuse the certificate (a capture onto one is then walked into, where no block has a move).
    std::string root_winner;
    const std::vector<CertBlock> blocks = read_blocks(cert, root_winner);
    const auto remove = [](const std::vector<std::string>&) { return std::vector<std::string>{}; };
    std::vector<std::string> targets;
    for (const CertBlock& b : blocks)
      if (!b.position.empty() && !check_text(with_entry_edited(cert, b.position, remove)).ok) targets.push_back(b.position);
    REQUIRE(!targets.empty());
    // The winner's captures onto entries written in the blocks, read with core alone: the root's
    // (ranked) moves here, and among the targets.
    const std::vector<ExitMove> exits = winner_exits(g.board, g.rules, blocks);
    REQUIRE(!exits.empty() == s.root_captures);
    for (const ExitMove& e : exits) {
      REQUIRE(blocks[e.from_block].position.empty());
      REQUIRE(std::find(targets.begin(), targets.end(), e.target) != targets.end());
    }

    // The targets' values, and those of the entries of the layers whose strategies take exits,
    // against the reference.
    std::vector<std::string> sources;
    for (const EntryBlock& eb : pass.blocks) {
      Position p;
      Tag t;
      decode_key(o.solution.codec, o.solution.keys[eb.id], p, t);
      for (const EntryLayer& l : pass.layers)
        if (l.exits && l.black == popcount(p.black) && l.white == popcount(p.white))
          sources.push_back(format_position(g.board, p));
    }
    if (s.layer_exits) REQUIRE(!sources.empty());
    int compared = 0;
    for (const std::vector<std::string>* list : {&targets, &sources})
      for (std::size_t i = 0; i < list->size() && i < s.compare; ++i) {
        const Position p = parse_position(g.board, (*list)[i]);
        const std::optional<bool> ref = reference_fresh(g.rules, p);
        INFO((*list)[i]);
        REQUIRE(ref);
        REQUIRE(pass.fresh.entry.at(*find_state(o.solution, o.key(p))) == (*ref ? SkValue::win : SkValue::loss));
        ++compared;
      }
    REQUIRE(compared > 0);

    // FLAW: a target's record (removed: above) with its value and winner flipped, or holding no
    // strategy, or the block of another entry (same winner and side to move, no line for the
    // target) where the winner is to move at the target: each refused.
    const std::string target = targets.front();
    const auto with_block = [&](const std::string& at, const std::vector<std::string>& lines) {
      return with_entry_edited(cert, at, [&](const std::vector<std::string>& r) {
        std::vector<std::string> w(r.begin(), r.begin() + 6);  // "entry" POSITION(2) VALUE WINNER CONDITION
        for (const std::string& line : lines)
          for (const std::string& tok : tokens(line)) w.push_back(tok);
        w.push_back("end-entry");
        return w;
      });
    };
    const CertificateCheck flipped = check_text(with_entry_edited(cert, target, [](std::vector<std::string> r) {
      r.at(3) = r.at(3) == "WIN" ? "LOSS" : "WIN";
      r.at(4) = r.at(4) == "black" ? "white" : "black";
      return r;
    }));
    INFO(flipped.message);
    REQUIRE(!flipped.ok);
    const CertificateCheck empty = check_text(with_block(target, {"strategy 0", "ranked 0"}));
    INFO(empty.message);
    REQUIRE(!empty.ok);
    auto block_of = [&](const std::string& at) -> const CertBlock& {
      return *std::find_if(blocks.begin(), blocks.end(), [&](const CertBlock& b) { return b.position == at; });
    };
    auto moving = [](const std::string& position) { return position.back() == 'x' ? "black" : "white"; };
    int swapped = 0;
    for (const std::string& t : targets) {
      const CertBlock& tb = block_of(t);
      if (tb.winner != moving(t)) continue;
      const auto other = std::find_if(blocks.begin(), blocks.end(), [&](const CertBlock& b) {
        return !b.position.empty() && b.position != t && b.winner == tb.winner && moving(b.position) == moving(t) &&
               std::none_of(b.lines.begin(), b.lines.end(), [&](const std::string& l) { return l.rfind(t + " ", 0) == 0; });
      });
      REQUIRE(other != blocks.end());
      const CertificateCheck wrong = check_text(with_block(t, other->lines));
      INFO(wrong.message);
      REQUIRE(!wrong.ok);
      ++swapped;
      break;
    }
    if (s.layer_exits) REQUIRE(swapped > 0);  // the 4-3 start has a target with the winner to move
  }
}

}  // namespace gonu

// The strategy tree (see strategy_tree.hpp).
#include "solver/julgonu/superko/strategy_tree.hpp"

#include <chrono>

#include <memory>
#include <optional>
#include <sstream>

#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/strategy.hpp"

namespace gonu {

namespace {

struct Node {
  char kind = 'T';  // W (one move), L (every move), T (the loser is done), S (a strategy)
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> kids;
  std::string block;  // S: the strategy's format-2 block
};

struct Proof {
  Side winner;
  std::unique_ptr<Node> node;
  std::uint32_t depth = 0;
};

class TreeSearch {
 public:
  TreeSearch(const BanFreeOracle& o, const FreshValues& f, double seconds, bool cert, int layers, StrategyMethod method,
             StrategySolverKind solver, double max_seconds, const ProgressFn& progress, StrategyTree& out)
      : o_(o), f_(f), seconds_(seconds), cert_(cert), layers_(layers), method_(method), solver_(solver),
        max_seconds_(max_seconds), progress_(progress), out_(out), t0_(std::chrono::steady_clock::now()) {}

  std::chrono::steady_clock::time_point until() const {
    if (max_seconds_ <= 0) return std::chrono::steady_clock::time_point::max();
    return t0_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(max_seconds_));
  }

  // This search's budget: seconds_ (0: none) capped by what is left of max_seconds_; nullopt
  // once that is spent.
  std::optional<double> budget() {
    if (max_seconds_ <= 0) return seconds_;
    const double left = max_seconds_ - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (left <= 0) {
      out_.out_of_time = true;
      return std::nullopt;
    }
    return seconds_ > 0 ? std::min(seconds_, left) : left;
  }

  std::optional<Proof> prove(const Game& g, int depth, bool tried = false) {
    ++out_.nodes;
    const Position& p = current(g);
    const std::vector<Move> legal = legal_moves(g);  // empty when the side to move has lost
    if (legal.empty()) return Proof{other(p.to_move), std::make_unique<Node>(), 0};
    for (Side w : {p.to_move, other(p.to_move)}) {
      if (tried) break;
      const std::optional<double> seconds = budget();
      if (!seconds) return std::nullopt;
      ++out_.sat_calls;
      if (progress_) progress_("strategy tree (searches)", out_.sat_calls, 0);
      StrategySearch s = find_strategy(o_, f_, g, w, *seconds, cert_, layers_, method_, solver_, until());
      if (s.status != StrategyStatus::found) continue;
      auto n = std::make_unique<Node>();
      n->kind = 'S';
      n->block = std::move(s.block);
      return Proof{w, std::move(n), 0};
    }
    if (depth == 0) return std::nullopt;
    std::vector<std::pair<std::string, Proof>> lost;  // children won by the opponent
    bool all = true;
    for (const Move& m : legal) {
      if (out_.out_of_time) return std::nullopt;
      Game next = g;
      play(next, m);
      std::optional<Proof> c = prove(next, depth - 1);
      const std::string name = format_move(g.board, g.rules, m);
      if (c && c->winner == p.to_move) {
        auto n = std::make_unique<Node>();
        n->kind = 'W';
        const std::uint32_t d = c->depth + 1;
        n->kids.emplace_back(name, std::move(c->node));
        return Proof{p.to_move, std::move(n), d};
      }
      if (c) lost.emplace_back(name, std::move(*c));
      else all = false;
    }
    if (!all) return std::nullopt;
    auto n = std::make_unique<Node>();
    n->kind = 'L';
    std::uint32_t d = 0;
    for (auto& [name, c] : lost) {
      d = std::max(d, c.depth + 1);
      n->kids.emplace_back(name, std::move(c.node));
    }
    return Proof{other(p.to_move), std::move(n), d};
  }

 private:
  const BanFreeOracle& o_;
  const FreshValues& f_;
  double seconds_;
  bool cert_;
  int layers_;
  StrategyMethod method_;
  StrategySolverKind solver_;
  double max_seconds_;
  const ProgressFn& progress_;
  StrategyTree& out_;
  std::chrono::steady_clock::time_point t0_;
};

void write_tree(const Node& n, std::ostringstream& tree, std::vector<const std::string*>& blocks) {
  switch (n.kind) {
    case 'T':
      tree << "T\n";
      return;
    case 'S':
      tree << "S " << blocks.size() << "\n";
      blocks.push_back(&n.block);
      return;
    case 'W':
      tree << "W " << n.kids[0].first << "\n";
      write_tree(*n.kids[0].second, tree, blocks);
      return;
    default:
      tree << "L " << n.kids.size() << "\n";
      for (const auto& [name, kid] : n.kids) {
        tree << name << "\n";
        write_tree(*kid, tree, blocks);
      }
  }
}

}  // namespace

StrategyTree prove_by_strategy_tree(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, int depth,
                                    double seconds_per_search, bool certificate, bool root_tried, int layers,
                                    StrategyMethod method, StrategySolverKind solver, double max_seconds,
                                    const ProgressFn& progress) {
  StrategyTree out;
  TreeSearch search(oracle, fresh, seconds_per_search, certificate, layers, method, solver, max_seconds, progress, out);
  std::optional<Proof> proof = search.prove(g, depth, root_tried);
  if (!proof) return out;
  const Side to_move = current(g).to_move;
  out.value = proof->winner == to_move ? SkValue::win : SkValue::loss;
  out.depth = proof->depth;
  std::ostringstream tree;
  std::vector<const std::string*> blocks;
  write_tree(*proof->node, tree, blocks);
  out.leaves = blocks.size();
  if (!certificate) return out;
  std::ostringstream c;
  c << certificate_header(g, method == StrategyMethod::injective ? 3 : 5, proof->winner);
  c << "tree\n" << tree.str() << "strategies " << blocks.size() << "\n";
  for (std::size_t i = 0; i < blocks.size(); ++i) c << "block " << i << "\n" << *blocks[i];
  c << "end-certificate\n";
  out.certificate = c.str();
  return out;
}

}  // namespace gonu

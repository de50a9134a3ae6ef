// Cube and conquer (see cube.hpp): the tree's nodes, the level loop, the parallel searches with the
// resume file, the combination, and the certificate.
#include "solver/julgonu/superko/cube.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <deque>
#include <memory>
#include <optional>
#include <sstream>

#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/strategy.hpp"

namespace gonu {

namespace {

constexpr std::size_t kNone = std::size_t(-1);

struct TreeNode {
  std::size_t parent = kNone;
  std::string path = "-";  // the tree's moves from the root, joined by ','
  std::string move;        // the move from the parent, in notation
  Game game;               // with the full history of the tree's moves
  std::vector<std::size_t> kids;
  bool expanded = false;
  std::optional<Side> winner;            // settled: who wins here
  char kind = 0;                         // settled by itself: T (no legal move) or S (a strategy)
  const CubeRecord* strategy = nullptr;  // S: the found search
};

Side mover(const TreeNode& n) { return current(n.game).to_move; }

class Cube {
 public:
  Cube(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const CubeOptions& o,
       const ProgressFn& progress)
      : oracle_(oracle), fresh_(fresh), g_(g), o_(o), progress_(progress) {
    if (!o.resume.empty()) resume_ = std::make_unique<ResumeFile>(o.resume, resume_header(g, o.method, o.layers));
  }

  CubeResult run() {
    nodes_.push_back(TreeNode{});
    nodes_[0].game = g_;
    settle_if_over(nodes_[0]);
    out_.nodes_per_depth = {1};
    std::vector<std::size_t> level{0};
    for (int d = 0;; ++d) {
      search_level(level, d);
      if (out_.stopped) return out_;  // a partial level settles nothing: the rest is left to a rerun
      combine();
      if (nodes_[0].winner || d == o_.depth) break;
      level = expand(level);
      if (level.empty()) break;
      out_.nodes_per_depth.push_back(level.size());
      combine();  // children without a legal move settle their parents at once
      if (nodes_[0].winner) break;
    }
    if (nodes_[0].winner) write_proof();
    return out_;
  }

 private:
  static void settle_if_over(TreeNode& n) {
    if (!legal_moves(n.game).empty()) return;
    n.kind = 'T';
    n.winner = other(mover(n));
  }

  bool live(std::size_t i) const {
    for (; i != kNone; i = nodes_[i].parent)
      if (nodes_[i].winner) return false;
    return true;
  }

  // The internal nodes' values from their children, bottom-up (children come after their parents).
  void combine() {
    for (std::size_t i = nodes_.size(); i-- > 0;) {
      TreeNode& n = nodes_[i];
      if (n.kind || !n.expanded) continue;
      const Side m = mover(n);
      bool all = true;
      n.winner.reset();
      for (std::size_t k : n.kids) {
        if (nodes_[k].winner == m) {
          n.winner = m;
          break;
        }
        all &= nodes_[k].winner.has_value();
      }
      if (!n.winner && all) n.winner = other(m);
    }
  }

  // The next level: the legal moves of every live node of this one, in generate_moves order.
  std::vector<std::size_t> expand(const std::vector<std::size_t>& level) {
    std::vector<std::size_t> next;
    for (std::size_t i : level) {
      if (!live(i)) continue;
      nodes_[i].expanded = true;
      for (const Move& m : legal_moves(nodes_[i].game)) {
        TreeNode c;
        c.parent = i;
        c.game = nodes_[i].game;
        c.move = format_move(c.game.board, c.game.rules, m);
        c.path = nodes_[i].path == "-" ? c.move : nodes_[i].path + "," + c.move;
        play(c.game, m);
        settle_if_over(c);
        nodes_[i].kids.push_back(nodes_.size());
        next.push_back(nodes_.size());
        nodes_.push_back(std::move(c));
      }
    }
    return next;
  }

  CubeRecord search(const TreeNode& n, Side side) const {
    const StrategySearch s = find_strategy(oracle_, fresh_, n.game, side, o_.seconds, true, o_.layers, o_.method);
    CubeRecord r;
    r.path = n.path;
    r.side = side;
    r.status = s.status;
    r.seconds = s.seconds;
    r.budget = o_.seconds;
    r.variables = s.variables;
    r.clauses = s.clauses;
    r.reach = s.reach;
    r.paired = s.paired;
    r.ranked = s.ranked;
    r.version = s.version;
    r.note = s.note;
    if (s.status == StrategyStatus::found) r.block = s.block;
    return r;
  }

  void account(const CubeRecord& r, bool resumed) {
    ++(resumed ? out_.resumed : out_.run);
    if (!resumed) out_.search_seconds += r.seconds;
    switch (r.status) {
      case StrategyStatus::found: ++out_.found; break;
      case StrategyStatus::none: ++out_.none; break;
      case StrategyStatus::budget: ++out_.budget; break;
      default: ++out_.not_applicable;
    }
    if (r.variables > out_.largest_variables) {
      out_.largest_variables = r.variables;
      out_.largest_clauses = r.clauses;
    }
  }

  // Both sides' searches at every live node of the level (the side to move first): answered by
  // the resume file where it can, the rest run in parallel; then the found ones settle their nodes.
  void search_level(const std::vector<std::size_t>& level, int d) {
    struct Task {
      std::size_t node;
      Side side;
    };
    std::vector<Task> tasks;
    for (std::size_t i : level)
      if (live(i))
        for (Side s : {mover(nodes_[i]), other(mover(nodes_[i]))}) tasks.push_back({i, s});
    std::vector<std::optional<CubeRecord>> done(tasks.size());
    std::vector<std::size_t> pending;
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      const CubeRecord* r = resume_ ? resume_->find(nodes_[tasks[t].node].path, tasks[t].side) : nullptr;
      if (r && record_answers(*r, o_.seconds)) {
        done[t] = *r;
        account(*r, true);
      } else {
        pending.push_back(t);
      }
    }
    if (o_.max_searches && pending.size() > o_.max_searches - out_.run) {
      pending.resize(o_.max_searches - out_.run);
      out_.stopped = true;
    }
    if (progress_) {
      const std::string phase = "cube: depth " + std::to_string(d) + ", " + std::to_string(pending.size()) + " searches";
      progress_(phase.c_str(), 0, 0);
    }
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, pending.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t k = r.begin(); k < r.end(); ++k) {
            const Task& t = tasks[pending[k]];
            done[pending[k]] = search(nodes_[t.node], t.side);
            if (resume_) resume_->append(*done[pending[k]]);
          }
        },
        tbb::simple_partitioner());
    for (std::size_t k : pending) account(*done[k], false);
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      if (!done[t]) continue;
      if (d == 0) out_.root.push_back(*done[t]);
      TreeNode& n = nodes_[tasks[t].node];
      if (done[t]->status != StrategyStatus::found || n.winner) continue;
      records_.push_back(std::move(*done[t]));
      n.kind = 'S';
      n.winner = tasks[t].side;
      n.strategy = &records_.back();
    }
  }

  // The proof below node i in format 3's tree syntax; returns its plies.
  std::uint32_t tree_text(std::size_t i, std::ostringstream& t, std::vector<const CubeRecord*>& blocks) const {
    const TreeNode& n = nodes_[i];
    if (n.kind == 'T') {
      t << "T\n";
      return 0;
    }
    if (n.kind == 'S') {
      t << "S " << blocks.size() << "\n";
      blocks.push_back(n.strategy);
      return 0;
    }
    if (n.winner == mover(n)) {
      for (std::size_t k : n.kids)
        if (nodes_[k].winner == mover(n)) {
          t << "W " << nodes_[k].move << "\n";
          return tree_text(k, t, blocks) + 1;
        }
    }
    t << "L " << n.kids.size() << "\n";
    std::uint32_t depth = 0;
    for (std::size_t k : n.kids) {
      t << nodes_[k].move << "\n";
      depth = std::max(depth, tree_text(k, t, blocks) + 1);
    }
    return depth;
  }

  // The value; the certificate: the root's strategy alone (format 2/4), else the tree (3/5).
  void write_proof() {
    const Side w = *nodes_[0].winner;
    out_.value = w == mover(nodes_[0]) ? SkValue::win : SkValue::loss;
    std::ostringstream tree;
    std::vector<const CubeRecord*> blocks;
    out_.depth = tree_text(0, tree, blocks);
    out_.leaves = blocks.size();
    out_.root_strategy = nodes_[0].kind == 'S';
    if (out_.root_strategy) {
      out_.certificate_version = nodes_[0].strategy->version;
      if (o_.certificate)
        out_.certificate = certificate_header(g_, out_.certificate_version, w) + nodes_[0].strategy->block +
                           "end-certificate\n";
      return;
    }
    out_.certificate_version = o_.method == StrategyMethod::injective ? 3 : 5;
    if (!o_.certificate) return;
    std::ostringstream c;
    c << certificate_header(g_, out_.certificate_version, w);
    c << "tree\n" << tree.str() << "strategies " << blocks.size() << "\n";
    for (std::size_t i = 0; i < blocks.size(); ++i) c << "block " << i << "\n" << blocks[i]->block;
    c << "end-certificate\n";
    out_.certificate = c.str();
  }

  const BanFreeOracle& oracle_;
  const FreshValues& fresh_;
  const Game& g_;
  const CubeOptions& o_;
  const ProgressFn& progress_;
  std::unique_ptr<ResumeFile> resume_;
  std::vector<TreeNode> nodes_;
  std::deque<CubeRecord> records_;  // the found searches the tree's S nodes point to (stable addresses)
  CubeResult out_;
};

}  // namespace

CubeResult solve_by_cube(const BanFreeOracle& oracle, const FreshValues& fresh, const Game& g, const CubeOptions& o,
                         const ProgressFn& progress) {
  return Cube(oracle, fresh, g, o, progress).run();
}

}  // namespace gonu

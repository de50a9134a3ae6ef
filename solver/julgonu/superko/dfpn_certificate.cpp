// The proof graph of df-pn's proofs (see dfpn_certificate.hpp). Phases: the walk (DfpnProofBuilder,
// a friend of DfpnSearch: it reads the table and replays the lines with their history), which
// makes one node per position written, children first, and reuses a node wherever its condition
// holds; then the text, where a node used once is written inside its parent's tree and every other
// node (and the root and the entries) is a block of its own, in the nodes' order (children first,
// so a reference always names an earlier block).
#include "solver/julgonu/superko/dfpn_certificate.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"
#include "solver/julgonu/superko/certificate.hpp"
#include "util/large_stack.hpp"

namespace gonu {

namespace {

struct TooLarge {};

constexpr std::uint64_t kNoThreshold = std::uint64_t(1) << 40;  // df-pn's infinity (dfpn.cpp): until decided

void normalize(std::vector<Key>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

class DfpnProofBuilder {
 public:
  using Child = DfpnSearch::Child;
  using Kind = DfpnSearch::Kind;

  DfpnProofBuilder(DfpnProofGraph& g, DfpnSearch& s, std::uint64_t max_nodes) : g_(g), s_(s), max_(max_nodes) {}

  // The walk names the positions the game reaches and uses F3's leaves alone.
  static bool certifiable(const DfpnSearch& s) { return !s.fresh_ && !s.options_.symmetry; }

  // The node for p, the top of the search's current segment; `win`: the side to move wins.
  int build(const Position& p, bool win) {
    if (++made_ > max_) throw TooLarge{};
    std::vector<Key> excluded;
    const std::vector<Child> kids = s_.children(p, excluded);
    DfpnProofGraph::Node n;
    n.pos = p;
    if (kids.empty()) {
      if (win) throw DfpnContradiction("df-pn proof graph: a node proven won has no move (internal error)");
      n.kind = 'T';
    } else if (win) {
      n.kind = 'W';
      const std::size_t pick = winning_child(p, kids);
      add_edge(n, kids[pick], child_node(kids[pick], false), true);
    } else {
      n.kind = 'L';
      for (const Child& c : kids) {
        if (s_.ensure(c).pn != 0) throw DfpnContradiction("df-pn proof graph: a loser's move is not proven lost (internal error)");
        add_edge(n, c, child_node(c, true), false);
      }
    }
    if (!win) n.visited.insert(n.visited.end(), excluded.begin(), excluded.end());  // they must stay barred
    const Key k = s_.oracle_.key(p);
    normalize(n.unvisited);
    normalize(n.visited);
    n.visited.erase(std::remove(n.visited.begin(), n.visited.end(), k), n.visited.end());
    if (std::binary_search(n.unvisited.begin(), n.unvisited.end(), k))
      throw DfpnContradiction("df-pn proof graph: a proof needs its own board unvisited (internal error)");
    g_.nodes_.push_back(std::move(n));
    return int(g_.nodes_.size()) - 1;
  }

 private:
  // The first child proven lost for its mover, from the table, one whose proof rests on no file's
  // hint (DfpnSource) before the others; where the table forgot them all (it keeps a few proofs a
  // state), the node p is proven again (df-pn picks its most proving child) and its children
  // looked up once more.
  std::size_t winning_child(const Position& p, const std::vector<Child>& kids) {
    for (int round = 0; round < 2; ++round) {
      std::size_t hint = kids.size();
      for (std::size_t i = 0; i < kids.size(); ++i) {
        const DfpnSearch::Numbers n = s_.lookup(kids[i]);
        if (n.dn == 0 && n.source == DfpnSource::proven) return i;
        if (n.dn == 0 && hint == kids.size()) hint = i;
      }
      if (hint < kids.size()) return hint;
      if (round == 0) s_.mid(p, s_.oracle_.key(p), kNoThreshold, kNoThreshold);
    }
    for (std::size_t i = 0; i < kids.size(); ++i)
      if (s_.ensure(kids[i]).dn == 0) return i;
    throw DfpnContradiction("df-pn proof graph: a node proven won has no losing child (internal error)");
  }

  // F5's rule for one edge: a capture restarts the history (nothing passes up); otherwise the
  // child's condition less the child's board, plus that board unvisited for the winner's move.
  void add_edge(DfpnProofGraph::Node& n, const Child& c, int child, bool winner_moves) {
    n.next.push_back({c.move, child});
    if (c.captured) return;
    const DfpnProofGraph::Node& x = g_.nodes_[std::size_t(child)];
    n.unvisited.insert(n.unvisited.end(), x.unvisited.begin(), x.unvisited.end());
    for (Key v : x.visited)
      if (v != c.key) n.visited.push_back(v);
    n.threshold = std::max(n.threshold, x.threshold);
    if (winner_moves) n.unvisited.push_back(c.key);
  }

  int leaf(const Child& c, bool win) {
    DfpnProofGraph::Node n;
    n.pos = c.pos;
    std::uint16_t d = 0;
    if (!lost_by_material(c.pos)) s_.oracle_.value(c.key, d);
    if (lost_by_material(c.pos) || d == 0) {
      if (win) throw DfpnContradiction("df-pn proof graph: a terminal leaf won for its mover (internal error)");
      n.kind = 'T';
    } else {
      n.kind = 'B';  // F3 (after a capture: with its own board as the history)
      n.threshold = d;
      g_.seeds_.push_back(c.pos);
    }
    g_.nodes_.push_back(std::move(n));
    return int(g_.nodes_.size()) - 1;
  }

  // Whether node i's condition holds where child c is about to be pushed on the current segment.
  bool holds(const DfpnProofGraph::Node& x, const Child& c) const {
    const auto& seg = s_.segs_.back();
    const auto visited = [&](Key b) { return b == c.key || seg.keys.count(b) > 0; };
    if (x.threshold > int(s_.pmin_top())) return false;
    return std::none_of(x.unvisited.begin(), x.unvisited.end(), visited) &&
           std::all_of(x.visited.begin(), x.visited.end(), visited);
  }

  int child_node(const Child& c, bool win) {
    int id = -1;
    if (c.kind == Kind::leaf) return leaf(c, win);
    if (c.kind == Kind::capture) {
      const auto it = g_.fresh_.find(c.key);
      if (it != g_.fresh_.end()) {
        id = it->second;
      } else {
        s_.enter_segment({c.pos});  // a new segment: no earlier board matters (F2)
        id = build(c.pos, win);
        s_.segs_.pop_back();
        g_.fresh_.emplace(c.key, id);
      }
    } else {
      for (int i : g_.by_key_[c.key])
        if ((g_.nodes_[std::size_t(i)].kind == 'W') == win && holds(g_.nodes_[std::size_t(i)], c)) id = i;
      if (id < 0) {
        s_.push(c);
        id = build(c.pos, win);
        s_.pop(c);
        g_.by_key_[c.key].push_back(id);
      }
    }
    ++g_.nodes_[std::size_t(id)].uses;
    return id;
  }

  DfpnProofGraph& g_;
  DfpnSearch& s_;
  std::uint64_t max_, made_ = 0;
};

DfpnProofGraph::DfpnProofGraph(const BanFreeOracle& oracle)
    : oracle_(oracle), board_(make_board(oracle.rules.rows, oracle.rules.cols)) {}

namespace {

// Runs f (which builds with a DfpnProofBuilder) through the search's walk hook: the message of why
// it stopped, else empty; `stop` gets the reason in brief.
template <class F>
std::string walk(DfpnSearch& search, const std::vector<Position>& history, std::uint64_t max_nodes, std::string& stop,
                 F&& f) {
  stop = "not certifiable";
  if (!DfpnProofBuilder::certifiable(search)) return "df-pn proof graph: the search must run without fresh values and symmetry";
  stop.clear();
  std::string error;
  const std::string budget = search.walk(history, [&] {
    try {
      f();
    } catch (const TooLarge&) {
      stop = "certificate size";
      error = "the certificate would exceed " + std::to_string(max_nodes) + " nodes";
    }
  });
  if (budget.empty()) return error;
  stop = budget;
  return "re-proving what the table forgot ran past the " + budget;
}

}  // namespace

std::string DfpnProofGraph::add_root(DfpnSearch& search, const Game& g, SkValue value, std::uint64_t max_nodes) {
  if (value == SkValue::unknown) return "the value is not proven";
  const Position& p0 = current(g);
  const Key k0 = oracle_.key(p0);
  const bool fresh = g.since_capture.size() == 1;  // shared with the entries only when entered fresh
  int id = -1;
  const std::string error = walk(search, g.since_capture, max_nodes, stop_, [&] {
    const auto it = fresh_.find(k0);
    id = fresh && it != fresh_.end() ? it->second : DfpnProofBuilder(*this, search, max_nodes).build(p0, value == SkValue::win);
    if (fresh) fresh_.emplace(k0, id);
  });
  if (!error.empty()) return error;
  nodes_[std::size_t(id)].block = true;
  root_ = Entry{p0, value, id};
  return {};
}

std::string DfpnProofGraph::add_entry(DfpnSearch& search, const Position& p, SkValue value, std::uint64_t max_nodes) {
  if (value == SkValue::unknown) return "the value is not proven";
  const Key k = oracle_.key(p);
  int id = -1;
  const std::string error = walk(search, {p}, max_nodes, stop_, [&] {
    const auto it = fresh_.find(k);
    id = it != fresh_.end() ? it->second : DfpnProofBuilder(*this, search, max_nodes).build(p, value == SkValue::win);
    fresh_.emplace(k, id);
  });
  if (!error.empty()) return error;
  nodes_[std::size_t(id)].block = true;
  entries_.push_back({p, value, id});
  return {};
}

namespace {

// A node's tree: blocks by reference, the rest inline (a node used once has one parent).
void write_tree(const std::vector<DfpnProofGraph::Node>& nodes, const std::vector<int>& block_of, const Board& b,
                const Rules& r, int id, bool top, std::string& out) {
  const DfpnProofGraph::Node& n = nodes[std::size_t(id)];
  if (!top && block_of[std::size_t(id)] >= 0) {
    out += "R " + std::to_string(block_of[std::size_t(id)]) + "\n";
    return;
  }
  if (n.kind == 'T' || n.kind == 'B') {
    out += n.kind;
    out += "\n";
    return;
  }
  out += n.kind == 'W' ? "W " : "L " + std::to_string(n.next.size()) + "\n";
  for (const auto& [m, child] : n.next) {
    out += format_move(b, r, m);
    out += n.kind == 'W' ? "\n" : " ";
    write_tree(nodes, block_of, b, r, child, false, out);
  }
}

}  // namespace

std::string DfpnProofGraph::text(const Game& g) const {
  std::vector<int> block_of(nodes_.size(), -1);
  int blocks = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].block || nodes_[i].uses > 1) block_of[i] = blocks++;
  std::string body;
  run_with_large_stack([&] {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (block_of[i] < 0) continue;
      body += "block " + format_position(board_, nodes_[i].pos) + "\n";
      write_tree(nodes_, block_of, board_, oracle_.rules, int(i), true, body);
    }
  });
  std::string header;
  if (root_) {
    const Side winner = root_->value == SkValue::win ? root_->pos.to_move : other(root_->pos.to_move);
    header = certificate_header(g, 8, winner);
  } else {
    header = certificate_header(g, 8, Side::black);
    header.erase(header.rfind("value "));
    header += "value UNKNOWN\nwinner none\n";
  }
  std::uint64_t table_entries = 0;
  const std::string table = banfree_table(oracle_, board_, oracle_.rules, seeds_, table_entries, true);
  std::ostringstream o;
  o << header << "blocks " << blocks << "\n" << body << "entries " << entries_.size() << "\n";
  for (const Entry& e : entries_)
    o << "entry " << format_position(board_, e.pos) << " " << (e.value == SkValue::win ? "WIN" : "LOSS") << " "
      << block_of[std::size_t(e.node)] << "\n";
  if (root_) o << "root " << block_of[std::size_t(root_->node)] << "\n";
  else o << "root none\n";
  o << "strategy " << table_entries << "\n" << table << "end-certificate\n";
  return o.str();
}

}  // namespace gonu

// The certificate writer (format 1): walks the proof again through the search (its memo and table
// answer almost every question), writing one move at the winner's nodes and every legal move at
// the loser's, section by section; then the table of the ban-free strategy below the ban-free
// leaves; then the whole file.
#include "solver/julgonu/superko/certificate.hpp"

#include <deque>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"

namespace gonu {

namespace {

struct TooLarge {};

class Writer {
 public:
  Writer(SuperkoSearch& s, Side winner, std::uint64_t max_nodes) : s_(s), winner_(winner), max_(max_nodes) {}

  // p is the top of the search's current segment.
  void node(const Position& p, std::string& out) {
    if (++nodes_ > max_) throw TooLarge{};
    const std::vector<SuperkoSearch::Child> kids = s_.children(p);
    if (kids.empty()) {
      out += "T\n";
      return;
    }
    if (p.to_move == winner_) {
      for (int i : s_.order(kids)) {
        const SkOutcome o = s_.child_value(kids[i]);
        if (o.value != SkValue::loss) continue;
        out += "W " + format_move(s_.board(), s_.rules(), kids[i].move) + "\n";
        child(kids[i], out);
        return;
      }
      throw GonuError("certificate: a node proven won has no losing child (internal error)");
    }
    out += "L " + std::to_string(kids.size()) + "\n";
    for (const auto& c : kids) {
      out += format_move(s_.board(), s_.rules(), c.move) + " ";
      child(c, out);
    }
  }

  void child(const SuperkoSearch::Child& c, std::string& out) {
    using Kind = SuperkoSearch::Kind;
    const bool loser_to_move = c.pos.to_move != winner_;
    if (c.kind == Kind::leaf) {
      const bool ok = loser_to_move ? c.bf == Value::loss : c.bf == Value::win;
      if (!ok) throw GonuError("certificate: a leaf is not won for the winner (internal error)");
      if (c.bfd == 0) {
        out += "T\n";
      } else {
        out += "B\n";
        seeds_.push_back(c.pos);
      }
    } else if (c.kind == Kind::capture) {
      auto [it, fresh] = ids_.emplace(c.key, int(sections_.size()));
      if (fresh) sections_.push_back(c.pos);
      out += "R " + std::to_string(it->second) + "\n";
    } else {
      s_.push(c);
      node(c.pos, out);
      s_.pop(c);
    }
  }

  SuperkoSearch& s_;
  Side winner_;
  std::uint64_t max_, nodes_ = 0;
  std::unordered_map<Key, int> ids_;
  std::vector<Position> sections_;  // 0 is the root
  std::vector<Position> seeds_;     // ban-free leaves
};

}  // namespace

std::string certificate_header(const Game& g, int version, Side winner) {
  std::ostringstream o;
  o << "gonu-superko-certificate " << version << "\n";
  o << "rules " << rules_id(g.rules) << "\n";
  o << "start " << format_position(g.board, g.start) << "\n";
  o << "history " << g.moves.size();
  for (const Move& m : g.moves) o << " " << format_move(g.board, g.rules, m);
  o << "\n";
  o << "value " << (current(g).to_move == winner ? "WIN" : "LOSS") << "\n";
  o << "winner " << to_string(winner) << "\n";
  return o.str();
}

namespace {

// The tree of every section, the root's first (with its history) and then every capture-entry
// state the trees refer to, as they are met; false when they would exceed the writer's budget.
bool write_trees(Writer& w, SuperkoSearch& search, const Game& g, std::vector<std::string>& trees) {
  const Position& p0 = current(g);
  w.sections_.push_back(p0);
  w.ids_.emplace(search.oracle().key(p0), 0);  // only shared when entered with no history
  try {
    std::string t;
    search.enter_segment(g.since_capture);
    w.node(p0, t);
    search.leave_segment();
    trees.push_back(std::move(t));
    for (std::size_t i = 1; i < w.sections_.size(); ++i) {
      std::string s;
      search.enter_segment({w.sections_[i]});
      w.node(w.sections_[i], s);
      search.leave_segment();
      trees.push_back(std::move(s));
    }
  } catch (const TooLarge&) {
    return false;
  }
  if (g.since_capture.size() != 1) w.ids_.erase(search.oracle().key(p0));
  return true;
}

}  // namespace

std::string banfree_table(const BanFreeOracle& bf, const Board& b, const Rules& r, Side winner,
                          const std::vector<Position>& seeds, std::uint64_t& entries) {
  for (const Position& s : seeds) {
    std::uint16_t d;
    if ((bf.value(bf.key(s), d) == Value::win) != (s.to_move == winner))
      throw GonuError("certificate: a ban-free leaf is not won for the winner (internal error)");
  }
  return banfree_table(bf, b, r, seeds, entries);  // the roles alternate from the seeds on
}

std::string banfree_table(const BanFreeOracle& bf, const Board& b, const Rules& r, const std::vector<Position>& seeds,
                          std::uint64_t& entries, bool winner_only) {
  std::unordered_set<Key> seen;
  std::deque<Position> queue;
  for (const Position& s : seeds)
    if (seen.insert(bf.key(s)).second) queue.push_back(s);
  std::ostringstream table;
  entries = 0;
  while (!queue.empty()) {
    const Position x = queue.front();
    queue.pop_front();
    std::uint16_t d;
    const Value v = bf.value(bf.key(x), d);
    const std::vector<Move> moves = lost_by_material(x) ? std::vector<Move>{} : generate_moves(b, r, x);
    std::string move_text = "-";
    auto visit = [&](const Position& y) {
      std::uint16_t dy;
      bf.value(bf.key(y), dy);
      if (dy == 0) return;  // terminal: needs no entry
      if (seen.insert(bf.key(y)).second) queue.push_back(y);
    };
    if (v == Value::draw) throw GonuError("certificate: ban-free strategy state drawn (internal error)");
    if (v == Value::win) {
      bool found = false;
      for (const Move& m : moves) {
        const Position y = apply_move(x, m);
        std::uint16_t dy;
        if (bf.value(bf.key(y), dy) == Value::loss && dy + 1 == d) {
          move_text = format_move(b, r, m);
          visit(y);
          found = true;
          break;
        }
      }
      if (!found) throw GonuError("certificate: no ban-free winning move (internal error)");
    } else {
      for (const Move& m : moves) visit(apply_move(x, m));
    }
    if (winner_only && v != Value::win) continue;
    table << format_position(b, x) << " ";
    if (!winner_only) table << d << " ";
    table << move_text << "\n";
    ++entries;
  }
  return table.str();
}

std::string format1_text(const Game& g, const BanFreeOracle& bf, Side winner, std::uint32_t depth,
                         const std::vector<Position>& sections, const std::vector<std::string>& trees,
                         const std::vector<Position>& seeds) {
  std::uint64_t entries = 0;
  const std::string table = banfree_table(bf, g.board, g.rules, winner, seeds, entries);
  std::ostringstream o;
  o << certificate_header(g, 1, winner);
  o << "depth " << depth << "\n";
  o << "sections " << trees.size() << "\n";
  for (std::size_t i = 0; i < trees.size(); ++i)
    o << "section " << i << " " << format_position(g.board, sections[i]) << "\n" << trees[i] << "end-section\n";
  o << "table " << entries << "\n" << table;
  o << "end-certificate\n";
  return o.str();
}

CertificateText write_certificate(SuperkoSearch& search, const Game& g, const SkOutcome& root,
                                  std::uint64_t max_nodes) {
  CertificateText out;
  if (root.value == SkValue::unknown) {
    out.error = "the value is not proven";
    return out;
  }
  const Position& p0 = current(g);
  const Side winner = root.value == SkValue::win ? p0.to_move : other(p0.to_move);
  Writer w(search, winner, max_nodes);
  std::vector<std::string> trees;
  if (!write_trees(w, search, g, trees)) {
    out.error = "the certificate would exceed " + std::to_string(max_nodes) + " nodes";
    return out;
  }
  out.text = format1_text(g, search.oracle(), winner, root.depth, w.sections_, trees, w.seeds_);
  out.nodes = w.nodes_;
  return out;
}

}  // namespace gonu

// Capture-entry values, layer by layer (see entry_layers.hpp; proof: SUPERKO.md, F10). Phases: the
// capture targets of the whole solution; then, as a hook after each layer's attractor, the
// strategy searches from the layer's open capture-entry states; the certificate (format 6).
#include "solver/julgonu/superko/entry_layers.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "core/error.hpp"
#include "core/julgonu/moves.hpp"
#include "core/julgonu/symmetry.hpp"
#include "solver/julgonu/superko/certificate.hpp"
#include "solver/julgonu/superko/strategy.hpp"
#include "solver/julgonu/superko/strategy_cnf.hpp"

namespace gonu {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A strategy block's lines mapped by the file mirror: the same strategy for the image's root.
std::string mirror_block(const Board& board, const Rules& rules, const std::string& block) {
  std::istringstream in(block);
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string a, b;
    ls >> a >> b;
    if (a == "strategy" || a == "ranked") {
      out << line << "\n";
      continue;
    }
    const Position p = parse_position(board, a + " " + b);
    std::vector<std::string> rest;
    for (std::string w; ls >> w;) rest.push_back(w);
    out << format_position(board, map_position(board, 1, p));
    for (std::size_t i = 0; i < rest.size(); ++i) {
      if (i + 1 < rest.size() || rest[i] == "-") {  // a rank, or the loser's "-"
        out << ' ' << rest[i];
        continue;
      }
      const std::vector<Move> moves = generate_moves(board, rules, p);
      out << ' ' << format_move(board, rules, map_move(board, 1, parse_move(board, rules, p, rest[i], moves)));
    }
    out << "\n";
  }
  return out.str();
}

class Pass {
 public:
  Pass(const BanFreeOracle& o, const EntryOptions& opt, EntryPass& out, const ProgressFn& progress)
      : o_(o), opt_(opt), out_(out), progress_(progress) {
    decode_states();
    mark_capture_targets();
    t0_ = std::chrono::steady_clock::now();
  }

  // After the attractor of the layer `ids`: the searches from its open capture-entry states.
  void layer(FreshValues& fv, const std::vector<std::uint32_t>& ids) {
    if (fv.entry.empty()) fv.entry.assign(st_.pos.size(), SkValue::unknown);
    st_.fresh = &fv;
    const FreshLayer& f = fv.layers.back();
    EntryLayer rep;
    rep.black = f.black;
    rep.white = f.white;
    rep.attractor_win = f.attractor_win;
    rep.attractor_loss = f.attractor_loss;
    rep.attractor_open = f.open;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint32_t id : ids) {
      if (!target_[id]) continue;
      ++rep.capture_entry;
      if (fv.method[id] != FreshMethod::none) continue;
      ++rep.open;
      const std::size_t m = mirror_id(id);
      if (m < id || fv.entry[id] != SkValue::unknown) continue;  // its image's search decides it
      if (budget_left() <= 0) {
        rep.complete = false;
        out_.budget_out = true;
        continue;
      }
      prove(fv, id, m, rep);
    }
    rep.still_open = rep.open - rep.win - rep.loss;
    rep.seconds = seconds_since(t0);
    out_.layers.push_back(rep);
    if (progress_) progress_("entry layers", out_.layers.size(), 0);
  }

 private:
  void decode_states() {
    const Solution& sol = o_.solution;
    st_.oracle = &o_;
    st_.board = make_board(o_.rules.rows, o_.rules.cols);
    st_.pos.resize(sol.keys.size());
    for (std::size_t i = 0; i < sol.keys.size(); ++i) {
      Tag t;
      decode_key(sol.codec, sol.keys[i], st_.pos[i], t);
    }
    st_.within.assign(sol.keys.size(), 0);
  }

  void mark_capture_targets() {
    target_.assign(st_.pos.size(), 0);
    std::vector<Move> buf(kMaxMoves);
    for (const Position& p : st_.pos) {
      if (lost_by_material(p)) continue;
      const int m = generate_moves(st_.board, o_.rules, p, buf.data());
      for (int k = 0; k < m; ++k)
        if (buf[k].captured) target_[st_.id_of(apply_move(p, buf[k]))] = 1;
    }
  }

  // The id of the state's file-mirror image; its own id when the image is not in the solution (the
  // oracle's root is not its own image): then it is searched alone.
  std::size_t mirror_id(std::size_t id) const {
    return st_.find_id(map_position(st_.board, 1, st_.pos[id])).value_or(id);
  }

  double budget_left() const {
    return opt_.budget_seconds > 0 ? opt_.budget_seconds - seconds_since(t0_) : 1e300;
  }

  // The open states of s's layer that s reaches by non-capturing moves through open states: the
  // strategy's scope (st_.within). Returns them, to be cleared after.
  std::vector<std::size_t> mark_within(const FreshValues& fv, std::size_t s) {
    std::vector<std::size_t> marked{s}, stack{s};
    st_.within[s] = 1;
    std::vector<Move> buf(kMaxMoves);
    while (!stack.empty()) {
      const Position p = st_.pos[stack.back()];
      stack.pop_back();
      if (lost_by_material(p)) continue;
      const int m = generate_moves(st_.board, o_.rules, p, buf.data());
      for (int k = 0; k < m; ++k) {
        if (buf[k].captured) continue;
        const std::size_t v = st_.id_of(apply_move(p, buf[k]));
        if (fv.method[v] != FreshMethod::none || st_.within[v]) continue;
        st_.within[v] = 1;
        marked.push_back(v);
        stack.push_back(v);
      }
    }
    return marked;
  }

  // The side to move's strategy from s, then the other side's; a strategy found sets s's entry
  // value and its mirror image m's.
  void prove(FreshValues& fv, std::size_t s, std::size_t m, EntryLayer& rep) {
    const std::vector<std::size_t> marked = mark_within(fv, s);
    const Side to_move = st_.pos[s].to_move;
    int none = 0;
    for (Side w : {to_move, other(to_move)}) {
      const double left = budget_left();
      if (left <= 0) break;
      st_.root = s;
      st_.winner = w;
      const double secs = opt_.instance_seconds > 0 ? std::min(opt_.instance_seconds, left)
                                                    : (opt_.budget_seconds > 0 ? left : 0);
      const StrategySearch ss = find_strategy_in(st_, secs, opt_.certificate, opt_.method);
      ++rep.searches;
      if (ss.variables > rep.largest_variables) {
        rep.largest_variables = ss.variables;
        rep.largest_seconds = ss.seconds;
      }
      if (ss.status == StrategyStatus::none) ++none;
      if (ss.status != StrategyStatus::found) continue;
      const SkValue v = w == to_move ? SkValue::win : SkValue::loss;
      const std::uint64_t count = m == s ? 1 : 2;
      fv.entry[s] = fv.entry[m] = v;
      (v == SkValue::win ? rep.win : rep.loss) += count;
      rep.exits += ss.exits * count;
      if (opt_.certificate) {
        out_.blocks.push_back({s, w, ss.version, ss.block});
        if (m != s) out_.blocks.push_back({m, w, ss.version, mirror_block(st_.board, o_.rules, ss.block)});
      }
      break;
    }
    if (none == 2) rep.none += m == s ? 1 : 2;
    for (std::size_t v : marked) st_.within[v] = 0;
  }

  const BanFreeOracle& o_;
  const EntryOptions& opt_;
  EntryPass& out_;
  ProgressFn progress_;
  StrategyStates st_;
  std::vector<std::uint8_t> target_;  // by id: entered by some capture of the solution
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace

EntryPass solve_entry_layers(const BanFreeOracle& oracle, const EntryOptions& opt, const ProgressFn& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  EntryPass out;
  Pass pass(oracle, opt, out, progress);
  out.fresh = solve_fresh_values(oracle, progress,
                                 [&](FreshValues& fv, const std::vector<std::uint32_t>& ids) { pass.layer(fv, ids); },
                                 opt.deadline);
  std::sort(out.blocks.begin(), out.blocks.end(), [](const EntryBlock& a, const EntryBlock& b) { return a.id < b.id; });
  out.seconds = seconds_since(t0);
  return out;
}

std::string entry_certificate(const BanFreeOracle& oracle, const EntryPass& pass, const Game& game, Side winner,
                              const std::string& root_block, int root_version) {
  std::string header = certificate_header(game, 6, winner);
  if (root_block.empty()) {  // the root unproven: the table alone
    header.erase(header.rfind("value "));
    header += "value UNKNOWN\nwinner none\n";
  }
  const Board board = make_board(oracle.rules.rows, oracle.rules.cols);
  auto condition = [](int version) { return version == 2 ? "injective" : "scc"; };
  std::ostringstream c;
  c << header << "entries " << pass.blocks.size() << "\n";
  for (const EntryBlock& b : pass.blocks) {
    Position p;
    Tag t;
    decode_key(oracle.solution.codec, oracle.solution.keys[b.id], p, t);
    c << "entry " << format_position(board, p) << ' ' << (p.to_move == b.winner ? "WIN" : "LOSS") << ' '
      << to_string(b.winner) << ' ' << condition(b.version) << "\n"
      << b.block << "end-entry\n";
  }
  if (root_block.empty()) c << "root none\n";
  else c << "root " << condition(root_version) << "\n" << root_block;
  c << "end-certificate\n";
  return c.str();
}

}  // namespace gonu

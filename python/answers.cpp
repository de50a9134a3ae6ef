// The module's answers, computed as the gonu program computes them (tools/cmd_query.cpp,
// tools/cmd_solve.cpp, tools/cmd_moves.cpp); python/tests/test_gonu.py checks that both give the
// same fields for the same input.
#include "python/answers.hpp"

#include <tbb/global_control.h>

#include <memory>

#include "core/error.hpp"
#include "solver/solve.hpp"
#include "solver/state/successors.hpp"
#include "solver/table/query.hpp"
#include "solver/verify.hpp"

namespace gonu::pymod {

namespace {

std::string board_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

std::vector<std::string> square_list(const Board& b, Bits squares) {
  std::vector<std::string> names;
  for (Bits s = squares; s; s &= s - 1) names.push_back(square_name(b, lowest(s)));
  return names;
}

std::vector<std::string> move_texts(const Board& b, const Rules& r, const std::vector<Move>& moves) {
  std::vector<std::string> texts;
  for (const Move& m : moves) texts.push_back(format_move(b, r, m));
  return texts;
}

// The game a probe answers for, as `gonu query` builds it: POSITION (of the table's board size)
// or the table's root with the tag it was solved with, then the history.
Game probe_game(const Table& t, const std::optional<std::string>& position, const std::string& history) {
  const Board& b = t.board();
  Game g;
  if (position) {
    const ParsedPosition pp = parse_position_text(*position);
    if (pp.rows != b.rows || pp.cols != b.cols)
      throw GonuError("position '" + *position + "' is " + board_text(pp.rows, pp.cols) + ", but the table " +
                      t.path() + " is for a " + board_text(b.rows, b.cols) + " board");
    g = new_game(t.rules(), pp.position);
  } else {
    g = new_game(t.rules(), t.header().root);
    g.tag = t.header().root_tag;
  }
  try {
    play_history(g, history);
  } catch (const GonuError& e) {
    throw GonuError(std::string("illegal history: ") + e.what());
  }
  return g;
}

std::string history_note(const Table& t, const Game& g, bool from_position) {
  return "under repetition " + to_string(t.rules().repetition) +
         " the history decides the state (which moves are banned now and later); this answer is for " +
         (g.moves.empty() ? (from_position ? "the position with no earlier moves"
                                           : "the table's root with the history it was solved from")
                          : "the position reached by the given history");
}

void fill_probe_moves(ProbeAnswer& p, const Board& board, const Rules& rules, const QueryAnswer& a) {
  for (const MoveAnswer& m : a.moves) {
    const std::string name = format_move(board, rules, m.move);
    p.moves.push_back({name, square_list(board, m.move.captured), to_string(m.value), m.dist, m.best});
    if (m.best) p.best.push_back(name);
  }
  if (a.best >= 0) p.engine_move = format_move(board, rules, a.moves[std::size_t(a.best)].move);
}

}  // namespace

Rules choose_rules(const RuleChoice& c, const std::optional<std::string>& position) {
  Rules r = rules_by_name(c.name);
  const Rules named = r;
  if (c.capture) r.capture = parse_capture(*c.capture);
  if (c.corner) r.corner = *c.corner;
  if (c.repetition) r.repetition = parse_repetition(*c.repetition);
  if (c.first) r.first = parse_side(*c.first);
  if (c.board) parse_board_size(*c.board, r.rows, r.cols);
  if (position) {
    const ParsedPosition p = parse_position_text(*position);
    if (c.board && (p.rows != r.rows || p.cols != r.cols))
      throw GonuError("position '" + *position + "' is " + board_text(p.rows, p.cols) + ", but board says " +
                      *c.board);
    r.rows = p.rows;
    r.cols = p.cols;
  }
  const bool same_parts = r.capture == named.capture && r.corner == named.corner &&
                          r.repetition == named.repetition && r.first == named.first;
  if (!same_parts) r.name = "custom";
  return r;
}

RulesInfo rules_info(const Rules& r) {
  return {r.name, rules_id(r), board_text(r.rows, r.cols), to_string(r.capture), r.corner,
          to_string(r.repetition), to_string(r.first)};
}

std::vector<MoveInfo> legal_move_list(const RuleChoice& choice, const std::string& position,
                                      const std::string& history) {
  const Rules rules = choose_rules(choice, position);
  const Board board = make_board(rules.rows, rules.cols);
  Game g = new_game(rules, parse_position(board, position));
  play_history(g, history);
  std::vector<MoveInfo> moves;
  for (const Move& m : legal_moves(g)) moves.push_back({format_move(board, rules, m), square_list(board, m.captured)});
  return moves;
}

ProbeAnswer probe(const Table& t, const std::optional<std::string>& position, const std::string& history) {
  const Board& board = t.board();
  const Rules& rules = t.rules();
  const Game g = probe_game(t, position, history);
  const QueryAnswer a = query_game(t, g);
  const Position& now = current(g);
  ProbeAnswer p;
  p.table = t.path();
  p.rules = rules_info(rules);
  p.start = format_position(board, g.start);
  p.history = move_texts(board, rules, g.moves);
  p.position = format_position(board, now);
  p.side_to_move = to_string(now.to_move);
  p.history_decides_state = uses_tag(rules);
  if (p.history_decides_state) p.note = history_note(t, g, position.has_value());
  p.value = to_string(a.value);
  p.distance = a.dist;
  const std::string over = game_over_reason(g);
  if (!over.empty()) p.game_over = over;
  fill_probe_moves(p, board, rules, a);
  p.pv = move_texts(board, rules, a.pv);
  // How the principal variation ends, replayed on the rules engine (as gonu query does).
  Game end = g;
  for (const Move& m : a.pv) play(end, m);
  if (!a.pv.empty()) {
    const std::string pv_end = game_over_reason(end);
    if (pv_end.empty())
      throw GonuError(t.path() + ": the principal variation does not end the game (the table is wrong; run gonu verify)");
    p.pv_end = pv_end;
  }
  return p;
}

namespace {

Engine engine_named(const std::string& name) {
  if (name == "auto") return Engine::automatic;
  if (name == "dense") return Engine::dense;
  if (name == "graph") return Engine::graph;
  throw GonuError("engine must be auto, dense or graph, not '" + name + "'");
}

// The first moves from the root with their values for the mover, as gonu solve reports them.
std::vector<RootMove> root_moves(const Solution& s, const Rules& rules, const Board& board) {
  Successor succ[kMaxMoves];
  const int k = expand_key(s.codec, s.root_key, succ);
  std::vector<RootMove> moves;
  for (int i = 0; i < k; ++i) {
    const std::size_t t = *find_state(s, succ[i].key);
    const Value v = mover_value(s.value[t]);
    moves.push_back({format_move(board, rules, succ[i].move), to_string(v), v == Value::draw ? 0 : s.dist[t] + 1});
  }
  return moves;
}

void count_by_distance(const Solution& s, SolveAnswer& a) {
  a.wins_by_distance.assign(std::size_t(s.max_dist) + 1, 0);
  a.losses_by_distance.assign(std::size_t(s.max_dist) + 1, 0);
  for (std::size_t i = 0; i < s.keys.size(); ++i) {
    if (s.value[i] == Value::win) ++a.wins_by_distance[s.dist[i]];
    else if (s.value[i] == Value::loss) ++a.losses_by_distance[s.dist[i]];
  }
}

}  // namespace

SolveAnswer solve_rules(const SolveRequest& q) {
  if (q.threads < 0) throw GonuError("threads must be >= 0");
  const Rules rules = choose_rules(q.rules, q.from);
  const Board board = make_board(rules.rows, rules.cols);
  Game game = new_game(rules, q.from ? parse_position(board, *q.from) : start_position(board, rules.first));
  if (q.history) play_history(game, *q.history);
  if (rules.repetition == Repetition::superko)
    throw GonuError("superko rule sets have no finite state set; solve them with the gonu program (gonu solve)");
  SolveOptions options;
  options.engine = engine_named(q.engine);
  options.max_states = q.max_states;
  if (q.out) check_table_writable(*q.out);
  std::unique_ptr<tbb::global_control> limit;
  if (q.threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, std::size_t(q.threads));
  const Solution s = solve(game, options);
  SolveAnswer a;
  a.rules = rules_info(rules);
  a.root = format_position(board, s.root);
  a.history = q.history;
  a.states = s.keys.size();
  a.edges = s.edges;
  a.wins = s.wins;
  a.losses = s.losses;
  a.draws = s.draws;
  a.max_distance = s.max_dist;
  const std::size_t root = *find_state(s, s.root_key);
  a.value = to_string(s.value[root]);
  a.distance = s.dist[root];
  a.moves = root_moves(s, rules, board);
  if (q.verify) a.verified = verify_values(s.codec, s.keys.data(), s.value.data(), s.dist.data(), s.keys.size()).ok;
  if (q.out) {
    a.table_file = q.out;
    a.table_bytes = write_table(*q.out, s);
  }
  count_by_distance(s, a);
  return a;
}

std::string value_text(const std::string& value, int distance) {
  return value == "DRAW" ? value : value + " in " + std::to_string(distance);
}

}  // namespace gonu::pymod

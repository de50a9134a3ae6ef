// check_certificate (see certificate_check.hpp), in phases: the header every format opens with
// (rules, start, history, claimed value and winner), then per format version the rest of the file
// read whole (certificate_read.cpp) before anything is checked, the check (strategy_check.cpp for
// formats 2 and 4, memory_check.cpp for format 7, tree_check.cpp for formats 1, 3 and 5,
// graph_check.cpp for format 8), and the
// one-line summary.
#include "checker/certificate_check.hpp"

#include <unistd.h>

#include <fstream>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/julgonu/game.hpp"
#include "checker/certificate_read.hpp"
#include "checker/graph_check.hpp"
#include "checker/memory_check.hpp"
#include "checker/strategy_check.hpp"
#include "checker/tree_check.hpp"
#include "util/large_stack.hpp"
#include "util/regular_file.hpp"

namespace gonu {

namespace {

using namespace checker;

// What the header says: the format version, the rules, the game at the root, and the winner.
struct Header {
  std::string version;
  Rules rules;
  Board board;
  Game game;
  Side winner = Side::black;
  bool root_claimed = true;  // format 6 may hold an entry table alone (value UNKNOWN, winner none)
};

// Fills out's rules_id, value and winner as they are read (they are reported even on a flaw).
Header read_header(Reader& rd, CertificateCheck& out) {
  Header h;
  const std::string magic = rd.word("the header");
  if (magic != "gonu-superko-certificate") throw Flaw{"not a gonu superko certificate (no 'gonu-superko-certificate' header)"};
  h.version = rd.word("the format version");
  if (h.version != "1" && h.version != "2" && h.version != "3" && h.version != "4" && h.version != "5" &&
      h.version != "6" && h.version != "7" && h.version != "8")
    throw Flaw{"unsupported certificate format version " + h.version};
  rd.expect("rules");
  out.rules_id = rd.word("the rules");
  h.rules = parse_rules_id(out.rules_id);
  h.board = make_board(h.rules.rows, h.rules.cols);
  rd.expect("start");
  const Position start = read_position(rd, h.board, "the start position");
  rd.expect("history");
  const long hn = rd.number("the history length");
  h.game = new_game(h.rules, start);
  for (long i = 0; i < hn; ++i) {
    const std::string mv = rd.word("a history move");
    try {
      play(h.game, mv);
    } catch (const GonuError& e) {
      throw Flaw{"history move " + std::to_string(i + 1) + ": " + e.what()};
    }
  }
  rd.expect("value");
  out.value = rd.word("the value");
  rd.expect("winner");
  out.winner = rd.word("the winner");
  if ((h.version == "6" || h.version == "8") && out.value == "UNKNOWN" && out.winner == "none") {  // entries alone
    h.root_claimed = false;
    return h;
  }
  if (out.value != "WIN" && out.value != "LOSS") throw Flaw{"malformed certificate: value '" + out.value + "'"};
  try {
    h.winner = parse_side(out.winner);
  } catch (const GonuError& e) {
    throw Flaw{std::string("malformed certificate: ") + e.what()};
  }
  const Side to_move = current(h.game).to_move;
  if ((out.value == "WIN") != (h.winner == to_move))
    throw Flaw{"the claimed value " + out.value + " for " + to_string(to_move) + " does not match winner " + out.winner};
  return h;
}

// "OK: black wins (WIN for black to move at ...), " and what was checked.
std::string ok_message(const Header& h, const CertificateCheck& out, const std::string& checked) {
  const Position root = current(h.game);
  return "OK: " + out.winner + " wins (" + out.value + " for " + to_string(root.to_move) + " to move at " +
         format_position(h.board, root) + "), " + checked;
}

StrategyBlock empty_block(const Header& h) {
  StrategyBlock b;
  b.rules = h.rules;
  b.board = h.board;
  b.winner = h.winner;
  return b;
}

// The condition a strategy block of this version is checked under: the injective one of F7 for
// formats 2 and 3, the strongly connected parts of F9 for formats 4 and 5.
StrategyCondition condition_of(const Header& h) {
  return h.version == "4" || h.version == "5" ? StrategyCondition::scc : StrategyCondition::injective;
}

// Formats 2 and 4: one memoryless strategy from the root.
void check_format2(Reader& rd, const Header& h, CertificateCheck& out) {
  StrategyBlock b = empty_block(h);
  read_strategy_block(rd, b);
  read_end(rd);
  StrategyChecker sc(std::move(b), condition_of(h));
  sc.check(h.game);
  out.ok = true;
  out.nodes = sc.reached;
  out.table_entries = sc.block.entries.size();
  out.message = ok_message(h, out, "memoryless strategy: " + std::to_string(sc.reached) + " states reachable, " +
                                       std::to_string(sc.paired) + " paired and " + std::to_string(sc.ranked) +
                                       " ranked checked");
}

// Format 7: one strategy with memory from the root.
void check_format7(Reader& rd, const Header& h, CertificateCheck& out) {
  MemoryBlock b;
  b.ranked = empty_block(h);
  read_memory_block(rd, b);
  read_end(rd);
  const MemoryCheck c = check_memory_strategy(b, h.game);
  out.ok = true;
  out.nodes = c.reached;
  out.table_entries = b.paired.size() + b.ranked.entries.size();
  out.message = ok_message(h, out, "strategy with memory (the winner's moves since the last capture mod " +
                                       std::to_string(b.m) + "): " + std::to_string(c.reached) + " (state, label) nodes and " +
                                       std::to_string(c.states) + " states reachable, " + std::to_string(c.paired) +
                                       " paired and " + std::to_string(c.ranked) + " ranked checked");
}

// Formats 3 and 5: a tree whose leaves may be strategies.
void check_format3(Reader& rd, Header& h, CertificateCheck& out) {
  TreeChecker c(h.rules, h.board, h.winner);
  rd.expect("tree");
  const int root = read_tree(rd, true, c.nodes);
  rd.expect("strategies");
  const long ns = rd.number("the number of strategies");
  for (long i = 0; i < ns; ++i) {
    rd.expect("block");
    if (rd.number("a strategy number") != i) throw Flaw{"malformed certificate: strategies out of order"};
    StrategyBlock b = empty_block(h);
    read_strategy_block(rd, b);
    c.strategies.emplace_back(std::move(b), condition_of(h));
  }
  read_end(rd);
  run_with_large_stack([&] { c.check_node(h.game, root); });
  std::uint64_t reached = 0;
  for (const StrategyChecker& sc : c.strategies) reached += sc.reached;
  out.ok = true;
  out.nodes = c.replayed;
  out.sections = c.strategies.size();
  out.message = ok_message(h, out, "a tree of " + std::to_string(c.replayed) + " nodes with " +
                                       std::to_string(c.strategies.size()) + " strategies (" +
                                       std::to_string(reached) + " states reachable under them) checked");
}

// Format 1: the winner's tree per section, with ban-free leaves and their table.
void check_format1(Reader& rd, Header& h, CertificateCheck& out) {
  SectionsCertificate s;
  read_sections_certificate(rd, h.board, s);
  if (!(s.section_pos[0] == current(h.game))) throw Flaw{"section 0 does not start at the position after the history"};
  TreeChecker c(h.rules, h.board, h.winner);
  c.nodes = std::move(s.nodes);
  c.section_pos = std::move(s.section_pos);
  c.table = std::move(s.table);
  run_with_large_stack([&] {
    c.check_table();
    c.section = 0;
    c.check_node(h.game, s.section_root[0]);
    for (std::size_t i = 1; i < c.section_pos.size(); ++i) {
      c.section = int(i);
      Game g = new_game(c.rules, c.section_pos[i]);
      c.check_node(g, s.section_root[i]);
    }
  });
  out.ok = true;
  out.nodes = c.replayed;
  out.sections = c.section_pos.size();
  out.table_entries = c.table.size();
  out.message = ok_message(h, out, std::to_string(out.nodes) + " nodes in " + std::to_string(out.sections) +
                                       " sections and " + std::to_string(out.table_entries) + " table entries checked");
}

// Format 6's blocks: the proven entry states (position, winner, condition, strategy) and, when the
// root is claimed, the root's strategy.
struct EntryCertificate {
  std::vector<Position> pos;
  std::vector<StrategyChecker> blocks;
  std::unordered_set<Position, PosHash> exits[2];  // entry roots by winner
  std::optional<StrategyChecker> root;
};

StrategyCondition read_condition(Reader& rd) {
  const std::string c = rd.word("a block's condition");
  if (c != "injective" && c != "scc") throw Flaw{"malformed certificate: condition '" + c + "'"};
  return c == "scc" ? StrategyCondition::scc : StrategyCondition::injective;
}

// "entry POSITION VALUE WINNER CONDITION" and its block, K times; then "root none" or "root CONDITION"
// and the root's block; then the end.
EntryCertificate read_format6(Reader& rd, const Header& h) {
  EntryCertificate c;
  rd.expect("entries");
  const long k = rd.number("the number of entries");
  std::unordered_set<Position, PosHash> seen;
  for (long i = 0; i < k; ++i) {
    rd.expect("entry");
    const Position p = read_position(rd, h.board, "an entry position");
    const std::string value = rd.word("an entry's value");
    StrategyBlock b = empty_block(h);
    try {
      b.winner = parse_side(rd.word("an entry's winner"));
    } catch (const GonuError& e) {
      throw Flaw{std::string("malformed certificate: ") + e.what()};
    }
    if ((value != "WIN" && value != "LOSS") || (value == "WIN") != (b.winner == p.to_move))
      throw Flaw{"entry " + format_position(h.board, p) + ": the value " + value + " does not match winner " +
                 to_string(b.winner)};
    const StrategyCondition cond = read_condition(rd);
    read_strategy_block(rd, b);
    rd.expect("end-entry");
    if (!seen.insert(p).second) throw Flaw{"two entries for " + format_position(h.board, p)};
    c.pos.push_back(p);
    c.blocks.emplace_back(std::move(b), cond);
  }
  for (std::size_t i = 0; i < c.pos.size(); ++i) c.exits[int(c.blocks[i].block.winner)].insert(c.pos[i]);
  rd.expect("root");
  if (h.root_claimed) {
    const StrategyCondition cond = read_condition(rd);
    StrategyBlock b = empty_block(h);
    read_strategy_block(rd, b);
    c.root.emplace(std::move(b), cond);
  } else {
    rd.expect("none");
  }
  read_end(rd);
  return c;
}

// Format 6: every entry block from its position with no history, a capture onto another entry of
// the same winner ending the walk (that block is checked too, and has lower material: no cycles);
// then the root's block with the game's history.
void check_format6(Reader& rd, const Header& h, CertificateCheck& out) {
  EntryCertificate c = read_format6(rd, h);
  std::uint64_t reached = 0, exits = 0;
  for (std::size_t i = 0; i < c.blocks.size(); ++i) {
    StrategyChecker& sc = c.blocks[i];
    sc.exits = &c.exits[int(sc.block.winner)];
    try {
      sc.check(new_game(h.rules, c.pos[i]));
    } catch (const Flaw& f) {
      throw Flaw{"entry " + format_position(h.board, c.pos[i]) + ": " + f.what};
    }
    reached += sc.reached;
    exits += sc.exits_taken;
  }
  std::string root = "no root claimed";
  if (c.root) {
    c.root->exits = &c.exits[int(h.winner)];
    c.root->check(h.game);
    reached += c.root->reached;
    exits += c.root->exits_taken;
    root = "the root's strategy (" + std::to_string(c.root->reached) + " states reachable)";
  }
  out.ok = true;
  out.nodes = reached;
  out.sections = c.blocks.size();
  out.exits = exits;
  const std::string checked = std::to_string(c.blocks.size()) + " capture-entry values and " + root + " checked: " +
                              std::to_string(reached) + " states reachable, " + std::to_string(exits) +
                              " captures onto proven entries";
  out.message = h.root_claimed ? ok_message(h, out, checked) : "OK: " + checked;
}

// Format 8: the blocks of a proof graph, each checked once under the condition it computes, the
// capture-entry states' proofs from their own boards, the root's against the game's history.
void check_format8(Reader& rd, const Header& h, CertificateCheck& out) {
  GraphCertificate g;
  read_graph_certificate(rd, h.board, h.root_claimed, g);
  GraphChecker c(h.rules, h.board, std::move(g));
  run_with_large_stack([&] {
    c.check();
    if (h.root_claimed) c.check_root(h.game, h.winner == current(h.game).to_move);
  });
  std::uint64_t won = 0;
  for (const auto& e : c.cert.entries) {
    won += e.win;
    const Side w = e.win ? e.pos.to_move : other(e.pos.to_move);
    out.entry_lines.push_back("entry " + format_position(h.board, e.pos) + ": " + (e.win ? "WIN" : "LOSS") + " for " +
                              to_string(e.pos.to_move) + " to move, " + to_string(w) + " wins (block " +
                              std::to_string(e.block) + ", checked from this state with no history before it)");
  }
  out.ok = true;
  out.nodes = c.replayed;
  out.sections = c.cert.block_pos.size();
  out.table_entries = c.cert.strategy.size();
  out.entries = c.cert.entries.size();
  const std::string graph = "a proof graph of " + std::to_string(c.cert.block_pos.size()) + " blocks (" +
                            std::to_string(c.replayed) + " nodes, " + std::to_string(c.reuses) + " reuses), " +
                            std::to_string(c.cert.entries.size()) + " capture-entry values (" + std::to_string(won) +
                            " won, " + std::to_string(c.cert.entries.size() - won) + " lost) and " +
                            std::to_string(c.cert.strategy.size()) + " ban-free strategy states checked";
  out.message = h.root_claimed ? ok_message(h, out, graph) : "OK: no root claimed, " + graph;
}

}  // namespace

CertificateCheck check_certificate(std::istream& in) {
  CertificateCheck out;
  try {
    Reader rd(in);
    Header h = read_header(rd, out);
    if (h.version == "2" || h.version == "4") check_format2(rd, h, out);
    else if (h.version == "3" || h.version == "5") check_format3(rd, h, out);
    else if (h.version == "6") check_format6(rd, h, out);
    else if (h.version == "7") check_format7(rd, h, out);
    else if (h.version == "8") check_format8(rd, h, out);
    else check_format1(rd, h, out);
  } catch (const Flaw& f) {
    out.ok = false;
    out.message = f.what;
  } catch (const GonuError& e) {
    out.ok = false;
    out.message = e.what();
  }
  return out;
}

CertificateCheck check_certificate_file(const std::string& path) {
  std::string why;  // a FIFO would block the stream's open: refused first
  const int fd = open_regular_file(path, why);
  if (fd >= 0) ::close(fd);
  std::ifstream in;
  if (fd >= 0) in.open(path);
  if (fd < 0 || !in) {
    CertificateCheck c;
    c.message = "cannot open certificate '" + path + "'" + (why.empty() ? "" : ": " + why);
    return c;
  }
  return check_certificate(in);
}

}  // namespace gonu

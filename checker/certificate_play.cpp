// CertificatePlayer (certificate_play.hpp): the certificate read as the checker reads it, and a
// cursor into the proof that follows a game's moves from the root.
#include "checker/certificate_play.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "checker/certificate_check.hpp"
#include "checker/certificate_read.hpp"
#include "checker/graph_check.hpp"
#include "checker/memory_check.hpp"
#include "core/error.hpp"
#include "util/large_stack.hpp"

namespace gonu {

using namespace checker;

struct CertificateData {
  int version = 0;
  Rules rules;
  Board board;
  Game root;
  Side winner = Side::black;
  std::string message;
  std::vector<TreeNode> nodes;           // formats 1, 3, 5
  int tree_root = -1;                    // formats 3, 5
  std::vector<Position> section_pos;     // format 1
  std::vector<int> section_root;         // format 1; format 8: the blocks' trees
  checker::Table table;                  // formats 1 and 8: the ban-free table
  std::vector<StrategyBlock> blocks;     // formats 3, 5: strategies; format 6: entries
  std::vector<Position> entry_pos;       // format 6
  std::optional<StrategyBlock> root_block;  // formats 2, 4, 6
  std::optional<MemoryBlock> memory;     // format 7
};

namespace {

StrategyBlock empty_block(const CertificateData& d) {
  StrategyBlock b;
  b.rules = d.rules;
  b.board = d.board;
  b.winner = d.winner;
  return b;
}

// The header (already checked by check_certificate, so read without its checks).
void read_header(Reader& rd, CertificateData& d) {
  rd.expect("gonu-superko-certificate");
  d.version = int(rd.number("the format version"));
  rd.expect("rules");
  d.rules = parse_rules_id(rd.word("the rules"));
  d.board = make_board(d.rules.rows, d.rules.cols);
  rd.expect("start");
  d.root = new_game(d.rules, read_position(rd, d.board, "the start position"));
  rd.expect("history");
  const long n = rd.number("the history length");
  for (long i = 0; i < n; ++i) play(d.root, rd.word("a history move"));
  rd.expect("value");
  rd.word("the value");
  rd.expect("winner");
  const std::string winner = rd.word("the winner");
  if (winner == "none") throw GonuError("the certificate holds capture-entry values only, no proof for its root");
  d.winner = parse_side(winner);
}

void read_body(Reader& rd, CertificateData& d) {
  if (d.version == 8) {  // played as a tree whose references go to the blocks' trees
    GraphCertificate g;
    read_graph_certificate(rd, d.board, true, g);
    d.nodes = std::move(g.nodes);
    d.section_root = std::move(g.block_root);
    d.tree_root = d.section_root[std::size_t(g.root)];
    for (const auto& [p, m] : g.strategy) d.table.emplace(p, TableEntry{0, m});  // by position, the ranks unused
    return;
  }
  if (d.version == 1) {
    SectionsCertificate s;
    read_sections_certificate(rd, d.board, s);
    d.nodes = std::move(s.nodes);
    d.section_pos = std::move(s.section_pos);
    d.section_root = std::move(s.section_root);
    d.table = std::move(s.table);
    return;
  }
  if (d.version == 2 || d.version == 4) {
    d.root_block = empty_block(d);
    read_strategy_block(rd, *d.root_block);
  } else if (d.version == 3 || d.version == 5) {
    rd.expect("tree");
    d.tree_root = read_tree(rd, true, d.nodes);
    rd.expect("strategies");
    const long k = rd.number("the number of strategies");
    for (long i = 0; i < k; ++i) {
      rd.expect("block");
      rd.number("a strategy number");
      d.blocks.push_back(empty_block(d));
      read_strategy_block(rd, d.blocks.back());
    }
  } else if (d.version == 6) {
    rd.expect("entries");
    const long k = rd.number("the number of entries");
    for (long i = 0; i < k; ++i) {
      rd.expect("entry");
      d.entry_pos.push_back(read_position(rd, d.board, "an entry position"));
      rd.word("an entry's value");
      StrategyBlock b = empty_block(d);
      b.winner = parse_side(rd.word("an entry's winner"));
      rd.word("a block's condition");
      read_strategy_block(rd, b);
      rd.expect("end-entry");
      d.blocks.push_back(std::move(b));
    }
    rd.expect("root");
    rd.word("a block's condition");
    d.root_block = empty_block(d);
    read_strategy_block(rd, *d.root_block);
  } else {
    d.memory.emplace();
    d.memory->ranked = empty_block(d);
    read_memory_block(rd, *d.memory);
  }
  read_end(rd);
}

// The move a certificate names at g, resolved against the legal moves; nullopt if it names none.
std::optional<Move> named_move(const CertificateData& d, const Game& g, const std::string& text) {
  if (text == "-") return std::nullopt;
  try {
    return parse_move(d.board, d.rules, current(g), text, legal_moves(g));
  } catch (const GonuError&) {
    return std::nullopt;
  }
}

}  // namespace

struct CertificatePlayer::Cursor {
  enum class Mode : std::uint8_t { tree, table, block, memory, off } mode = Mode::off;
  int node = -1;
  int block = -1;  // -1: the root block
  int label = 0;
};

namespace {

using Cursor = CertificatePlayer::Cursor;

// A tree cursor at a reference or a leaf goes on where it points: a section, the table, a block.
void settle(const CertificateData& d, Cursor& c) {
  while (c.mode == Cursor::Mode::tree) {
    const TreeNode& n = d.nodes[std::size_t(c.node)];
    if (n.kind == 'R') {
      c.node = d.section_root[std::size_t(n.ref)];
    } else if (n.kind == 'B') {
      c.mode = Cursor::Mode::table;
    } else if (n.kind == 'S') {
      c.mode = Cursor::Mode::block;
      c.block = n.ref;
    } else {
      return;
    }
  }
}

Cursor start_cursor(const CertificateData& d) {
  Cursor c;
  if (d.version == 1 || d.version == 3 || d.version == 5 || d.version == 8) {
    c.mode = Cursor::Mode::tree;
    c.node = d.version == 1 ? d.section_root[0] : d.tree_root;
    settle(d, c);
  } else {
    c.mode = d.version == 7 ? Cursor::Mode::memory : Cursor::Mode::block;
  }
  return c;
}

std::optional<Move> move_at(const CertificateData& d, const Cursor& c, const Game& g) {
  const Position& p = current(g);
  if (p.to_move != d.winner || !game_over_reason(g).empty()) return std::nullopt;
  switch (c.mode) {
    case Cursor::Mode::tree: {
      const TreeNode& n = d.nodes[std::size_t(c.node)];
      return n.kind == 'W' ? named_move(d, g, n.next[0].first) : std::nullopt;
    }
    case Cursor::Mode::table: {
      const auto it = d.table.find(p);
      return it == d.table.end() ? std::nullopt : named_move(d, g, it->second.move);
    }
    case Cursor::Mode::block: {
      const StrategyBlock& b = c.block < 0 ? *d.root_block : d.blocks[std::size_t(c.block)];
      const auto it = b.entries.find(p);
      return it == b.entries.end() ? std::nullopt : named_move(d, g, it->second.move);
    }
    case Cursor::Mode::memory: {
      const auto r = d.memory->ranked.entries.find(p);
      if (r != d.memory->ranked.entries.end()) return named_move(d, g, r->second.move);
      const auto it = d.memory->paired.find(MemoryBlock::Key{p, c.label});
      return it == d.memory->paired.end() ? std::nullopt : named_move(d, g, it->second);
    }
    case Cursor::Mode::off:
      break;
  }
  return std::nullopt;
}

// The cursor after m is played at g (g before the move).
Cursor step(const CertificateData& d, Cursor c, const Game& g, const Move& m) {
  const bool by_winner = current(g).to_move == d.winner;
  if (c.mode == Cursor::Mode::tree) {
    const TreeNode& n = d.nodes[std::size_t(c.node)];
    const auto was = [&](const std::string& text) {
      const std::optional<Move> x = named_move(d, g, text);
      return x && *x == m;
    };
    c.mode = Cursor::Mode::off;
    for (const auto& [text, child] : n.next)
      if ((n.kind == 'W' || n.kind == 'L') && was(text)) {
        c.mode = Cursor::Mode::tree;
        c.node = child;
        settle(d, c);
        break;
      }
  } else if (c.mode == Cursor::Mode::block && d.version == 6 && m.captured) {
    // A capture onto a proven entry of the same winner: that entry's block plays on.
    const Position after = apply_move(current(g), m);
    for (std::size_t i = 0; i < d.entry_pos.size(); ++i)
      if (d.entry_pos[i] == after && d.blocks[i].winner == d.winner) c.block = int(i);
  } else if (c.mode == Cursor::Mode::memory) {
    c.label = m.captured ? 0 : by_winner ? (c.label + 1) % d.memory->m : c.label;
  }
  return c;
}

}  // namespace

CertificatePlayer::CertificatePlayer(std::unique_ptr<CertificateData> d) : d_(std::move(d)) {}
CertificatePlayer::CertificatePlayer(CertificatePlayer&&) noexcept = default;
CertificatePlayer::~CertificatePlayer() = default;

namespace {

std::unique_ptr<CertificateData> read_data(std::istream& in, const std::string& name, std::string message) {
  auto d = std::make_unique<CertificateData>();
  d->message = std::move(message);
  try {
    Reader rd(in);
    read_header(rd, *d);
    read_body(rd, *d);
  } catch (const Flaw& f) {
    throw GonuError("certificate " + name + ": " + f.what);
  }
  return d;
}

}  // namespace

CertificatePlayer CertificatePlayer::load(const std::string& path) {
  const CertificateCheck check = check_certificate_file(path);
  if (!check.ok) throw GonuError("certificate " + path + ": " + check.message);
  std::ifstream in(path);
  if (!in) throw GonuError("cannot open certificate '" + path + "'");
  return CertificatePlayer(read_data(in, path, check.message));
}

CertificatePlayer CertificatePlayer::read(const std::string& text, bool check) {
  std::string message = "not checked";
  if (check) {
    std::istringstream in(text);
    const CertificateCheck c = check_certificate(in);
    if (!c.ok) throw GonuError("certificate: " + c.message);
    message = c.message;
  }
  std::istringstream in(text);
  return CertificatePlayer(read_data(in, "text", message));
}

const Game& CertificatePlayer::root() const { return d_->root; }
Side CertificatePlayer::winner() const { return d_->winner; }
int CertificatePlayer::format() const { return d_->version; }
const std::string& CertificatePlayer::check_message() const { return d_->message; }

std::uint64_t CertificatePlayer::size() const {
  std::uint64_t n = d_->nodes.size() + d_->table.size();
  for (const StrategyBlock& b : d_->blocks) n += b.entries.size();
  if (d_->root_block) n += d_->root_block->entries.size();
  if (d_->memory) n += d_->memory->paired.size() + d_->memory->ranked.entries.size();
  return n;
}

CertificatePlayer::Cursor CertificatePlayer::cursor_for(const Game& g) const {
  Cursor c = start_cursor(*d_);
  Game replay = d_->root;
  for (std::size_t i = d_->root.moves.size(); i < g.moves.size() && c.mode != Cursor::Mode::off; ++i) {
    const Move& m = g.moves[i];
    if (current(replay).to_move == d_->winner) {
      const std::optional<Move> want = move_at(*d_, c, replay);
      if (!want || !(*want == m)) return Cursor{};
    }
    c = step(*d_, c, replay, m);
    play(replay, m);
  }
  return c;
}

std::optional<Move> CertificatePlayer::winner_move(const Game& g) const { return move_at(*d_, cursor_for(g), g); }

bool CertificatePlayer::follows(const Game& g) const { return cursor_for(g).mode != Cursor::Mode::off; }

namespace {

struct ReachWalk {
  const CertificateData& d;
  const Position& target;
  std::uint64_t max_nodes, nodes = 0;
  std::unordered_set<std::string> seen;  // position and cursor, as text
  std::optional<Game> found;

  void walk(const Game& g, const Cursor& c) {
    if (found || ++nodes > max_nodes || c.mode == Cursor::Mode::off) return;
    const Position& p = current(g);
    if (p == target) {
      found = g;
      return;
    }
    const std::string key = std::to_string(p.black) + ' ' + std::to_string(p.white) + ' ' +
                            std::to_string(int(p.to_move)) + ' ' + std::to_string(int(c.mode)) + ' ' +
                            std::to_string(c.node) + ' ' + std::to_string(c.block) + ' ' + std::to_string(c.label);
    if (!seen.insert(key).second || !game_over_reason(g).empty()) return;
    std::vector<Move> moves;
    if (p.to_move == d.winner) {
      if (const std::optional<Move> m = move_at(d, c, g)) moves.push_back(*m);
    } else {
      moves = legal_moves(g);
    }
    for (const Move& m : moves) {
      Game next = g;
      const Cursor nc = step(d, c, g, m);
      play(next, m);
      walk(next, nc);
    }
  }
};

// The longest game (CertificatePlayer::longest_game): plies left from a game, valued once per
// (position, cursor, set of boards since the last capture), what the rest of the game depends on.
struct LongestWalk {
  const CertificateData& d;
  std::uint64_t max_nodes, nodes = 0;
  std::unordered_map<std::string, std::uint64_t> memo;
  bool over = false;  // past max_nodes: the answer is not counted

  static std::string key(const Game& g, const Cursor& c) {
    std::vector<std::pair<Bits, Bits>> boards;
    for (const Position& p : g.since_capture) boards.emplace_back(p.black, p.white);
    std::sort(boards.begin(), boards.end());
    const Position& p = current(g);
    const std::int64_t head[] = {std::int64_t(p.to_move), std::int64_t(c.mode), c.node, c.block, c.label};
    std::string k(reinterpret_cast<const char*>(head), sizeof head);
    k.append(reinterpret_cast<const char*>(boards.data()), boards.size() * sizeof boards[0]);
    return k;  // the current board is the last of since_capture, so among the boards
  }

  std::uint64_t walk(Game& g, const Cursor& c) {
    if (over || ++nodes > max_nodes) {
      over = true;
      return 0;
    }
    // The game is over when the mover has at most one piece or no legal move (game_over_reason).
    const std::vector<Move> legal = lost_by_material(current(g)) ? std::vector<Move>{} : legal_moves(g);
    if (legal.empty()) return 0;
    const std::string k = key(g, c);
    if (const auto it = memo.find(k); it != memo.end()) return it->second;
    std::vector<Move> moves;
    if (current(g).to_move == d.winner) {
      const std::optional<Move> m = move_at(d, c, g);
      if (!m) throw GonuError("the proof's strategy has no move at " + format_position(d.board, current(g)));
      moves.push_back(*m);
    } else {
      moves = legal;
    }
    std::uint64_t longest = 0;
    for (const Move& m : moves) {
      const Cursor nc = step(d, c, g, m);
      longest = std::max(longest, 1 + walk_after(g, m, nc));
    }
    memo.emplace(k, longest);
    return longest;
  }

  // walk() after the legal move m, played on g in place and taken back (a copy of the whole game
  // at every state would cost its length each time). Superko keeps no tag.
  std::uint64_t walk_after(Game& g, const Move& m, const Cursor& c) {
    const std::vector<Position> before = m.captured ? g.since_capture : std::vector<Position>{};
    const Position next = apply_move(current(g), m);
    if (m.captured) g.since_capture.clear();
    g.since_capture.push_back(next);
    g.moves.push_back(m);
    g.positions.push_back(next);
    const std::uint64_t plies = walk(g, c);
    g.moves.pop_back();
    g.positions.pop_back();
    if (m.captured) g.since_capture = before;
    else g.since_capture.pop_back();
    return plies;
  }
};

}  // namespace

std::optional<std::uint64_t> CertificatePlayer::longest_game(std::uint64_t max_nodes) const {
  if (d_->rules.repetition != Repetition::superko) throw GonuError("a superko proof under other rules");
  LongestWalk w{*d_, max_nodes, 0, {}, false};
  std::uint64_t plies = 0;
  Game g = d_->root;
  run_with_large_stack([&] { plies = w.walk(g, start_cursor(*d_)); });
  if (w.over) return std::nullopt;
  return plies;
}

std::optional<Game> CertificatePlayer::reach(const Position& p, std::uint64_t max_nodes) const {
  ReachWalk w{*d_, p, max_nodes, 0, {}, std::nullopt};
  run_with_large_stack([&] { w.walk(d_->root, start_cursor(*d_)); });
  return w.found;
}

}  // namespace gonu

// Reading a superko certificate (see certificate_read.hpp). Trees are read iteratively: they can
// be deeper than the stack.
#include "checker/certificate_read.hpp"

#include <sstream>
#include <string>

#include "core/error.hpp"

namespace gonu::checker {

namespace {

// Longer than any word of a certificate (a position of the largest board, a move, a rules id), so
// that a file of one huge word (a sparse file's zeros) is refused after this many bytes, not read
// into memory whole.
constexpr std::size_t kMaxWord = 4096;
constexpr int kEof = std::char_traits<char>::eof();

bool is_space(int c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The next whitespace-separated word (empty at the end of the stream), at most kMaxWord bytes.
std::string next_word(std::istream& in) {
  std::string w;
  std::streambuf* b = in.rdbuf();
  if (!b) return w;
  int c = b->sgetc();
  while (c != kEof && is_space(c)) c = b->snextc();
  while (c != kEof && !is_space(c)) {
    if (w.size() == kMaxWord)
      throw Flaw{"malformed certificate: a word of over " + std::to_string(kMaxWord) + " bytes (is it a certificate?)"};
    w.push_back(char(c));
    c = b->snextc();
  }
  return w;
}

}  // namespace

std::string Reader::word(const char* expecting) {
  std::string w = next_word(in_);
  if (w.empty()) throw Flaw{std::string("truncated certificate: end of file where ") + expecting + " was expected"};
  return w;
}

void Reader::expect(const std::string& w) {
  const std::string got = word(("'" + w + "'").c_str());
  if (got != w) throw Flaw{"malformed certificate: expected '" + w + "', found '" + got + "'"};
}

long Reader::number(const char* what) {
  const std::string w = word(what);
  if (w.empty() || w.size() > 12 || w.find_first_not_of("0123456789") != std::string::npos)
    throw Flaw{std::string("malformed certificate: ") + what + " '" + w + "' is not a number"};
  return std::stol(w);
}

bool Reader::at_end() { return next_word(in_).empty(); }

std::string flaw_place(std::string where, const std::vector<std::string>& moves) {
  if (moves.empty()) return where;
  where += ", after";
  const std::size_t from = moves.size() > 12 ? moves.size() - 12 : 0;
  if (from > 0) where += " ... (" + std::to_string(from) + " moves)";
  for (std::size_t i = from; i < moves.size(); ++i) where += " " + moves[i];
  return where;
}

Rules parse_rules_id(const std::string& id) {
  std::vector<std::string> parts;
  std::stringstream ss(id);
  std::string part;
  while (std::getline(ss, part, '/')) parts.push_back(part);
  if (parts.size() != 5) throw Flaw{"malformed certificate: rules '" + id + "' is not RxC/capture/corner/repetition/first"};
  Rules r;
  r.name = "certificate";
  try {
    parse_board_size(parts[0], r.rows, r.cols);
    r.capture = parse_capture(parts[1]);
    if (parts[2] != "corner" && parts[2] != "nocorner") throw GonuError("corner part '" + parts[2] + "'");
    r.corner = parts[2] == "corner";
    r.repetition = parse_repetition(parts[3]);
    r.first = parse_side(parts[4]);
  } catch (const GonuError& e) {
    throw Flaw{"malformed certificate: rules '" + id + "': " + e.what()};
  }
  if (r.repetition != Repetition::superko)
    throw Flaw{"the certificate is for repetition " + parts[3] + ", not superko: nothing to check"};
  return r;
}

Position read_position(Reader& rd, const Board& board, const char* what) {
  const std::string a = rd.word(what), b = rd.word(what);
  try {
    return parse_position(board, a + " " + b);
  } catch (const GonuError& e) {
    throw Flaw{std::string("malformed certificate: ") + what + ": " + e.what()};
  }
}

namespace {

// One node's own fields (not its children); *want: how many children follow.
TreeNode read_node(Reader& rd, bool strategy_leaves, long* want) {
  const std::string k = rd.word("a tree node (W, L, T, B, R or S)");
  TreeNode n;
  if (k == "W" || k == "L" || k == "T" || k == "B" || k == "R" || (strategy_leaves && k == "S")) n.kind = k[0];
  else throw Flaw{"malformed certificate: '" + k + "' is not a tree node"};
  *want = 0;
  if (n.kind == 'R') {
    n.ref = int(rd.number("a section number"));
  } else if (n.kind == 'S') {
    n.ref = int(rd.number("a strategy number"));
  } else if (n.kind == 'W') {
    *want = 1;
    n.next.push_back({rd.word("the winner's move"), -1});
  } else if (n.kind == 'L') {
    *want = rd.number("the number of the loser's moves");
    if (*want > 4096) throw Flaw{"malformed certificate: too many moves at a node"};
  }
  return n;
}

}  // namespace

int read_tree(Reader& rd, bool strategy_leaves, std::vector<TreeNode>& nodes) {
  // A stack of (node, children still to read).
  struct Open {
    int node;
    long left;
  };
  std::vector<Open> stack;
  auto add = [&]() -> int {
    long want = 0;
    nodes.push_back(read_node(rd, strategy_leaves, &want));
    const int id = int(nodes.size()) - 1;
    if (want > 0) stack.push_back({id, want});
    return id;
  };
  const int root = add();
  while (!stack.empty()) {
    Open& top = stack.back();
    if (top.left == 0) {
      stack.pop_back();
      continue;
    }
    const int parent = top.node;
    const bool is_w = nodes[parent].kind == 'W';
    std::string mv;
    if (!is_w) mv = rd.word("the loser's move");
    --top.left;
    const int child = add();  // may push onto the stack: `top` is not used after this
    if (is_w) nodes[parent].next[0].second = child;
    else nodes[parent].next.push_back({mv, child});
  }
  return root;
}

void read_sections_certificate(Reader& rd, const Board& board, SectionsCertificate& c) {
  rd.expect("depth");
  rd.number("the depth");
  rd.expect("sections");
  const long ns = rd.number("the number of sections");
  if (ns < 1) throw Flaw{"malformed certificate: no sections"};
  for (long i = 0; i < ns; ++i) {
    rd.expect("section");
    if (rd.number("a section number") != i) throw Flaw{"malformed certificate: sections out of order"};
    c.section_pos.push_back(read_position(rd, board, "a section's position"));
    c.section_root.push_back(read_tree(rd, false, c.nodes));
    rd.expect("end-section");
  }
  read_table(rd, board, c.table);
  read_end(rd);
}

void read_table(Reader& rd, const Board& board, Table& table) {
  rd.expect("table");
  const long nt = rd.number("the number of table entries");
  for (long i = 0; i < nt; ++i) {
    const Position p = read_position(rd, board, "a table position");
    TableEntry e;
    e.rank = rd.number("a table rank");
    e.move = rd.word("a table move");
    if (!table.emplace(p, e).second) throw Flaw{"malformed certificate: table state listed twice"};
  }
}

void read_strategy_block(Reader& rd, StrategyBlock& b) {
  rd.expect("strategy");
  const long np = rd.number("the number of strategy entries");
  for (long i = 0; i < np; ++i) {
    const Position p = read_position(rd, b.board, "a strategy position");
    if (p.to_move != b.winner)
      throw Flaw{"malformed certificate: strategy entry " + format_position(b.board, p) + " is not the winner's turn"};
    StrategyEntry e;
    e.move = rd.word("a strategy move");
    if (!b.entries.emplace(p, e).second) throw Flaw{"malformed certificate: strategy state listed twice"};
  }
  rd.expect("ranked");
  const long nr = rd.number("the number of ranked entries");
  for (long i = 0; i < nr; ++i) {
    const Position p = read_position(rd, b.board, "a ranked position");
    StrategyEntry e;
    e.ranked = true;
    e.rank = rd.number("a rank");
    e.move = rd.word("a ranked move");
    if ((e.move == "-") == (p.to_move == b.winner))
      throw Flaw{"malformed certificate: ranked entry " + format_position(b.board, p) + " has the wrong move field"};
    if (!b.entries.emplace(p, e).second) throw Flaw{"malformed certificate: ranked state listed twice"};
  }
}

void read_end(Reader& rd) {
  rd.expect("end-certificate");
  if (!rd.at_end()) throw Flaw{"malformed certificate: text after 'end-certificate'"};
}

}  // namespace gonu::checker

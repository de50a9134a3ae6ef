// The resume file of cube and conquer (see cube_resume.hpp for the format).
#include "solver/julgonu/superko/cube_resume.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <vector>

#include "core/error.hpp"

namespace gonu {

namespace {

const char* method_name(StrategyMethod m) {
  return m == StrategyMethod::lazy ? "lazy" : m == StrategyMethod::lazy_local ? "lazy-local" : "injective";
}

const char* status_token(StrategyStatus s) {
  switch (s) {
    case StrategyStatus::found: return "found";
    case StrategyStatus::none: return "none";
    case StrategyStatus::budget: return "budget";
    default: return "n/a";
  }
}

std::optional<StrategyStatus> parse_status(const std::string& t) {
  if (t == "found") return StrategyStatus::found;
  if (t == "none") return StrategyStatus::none;
  if (t == "budget") return StrategyStatus::budget;
  if (t == "n/a") return StrategyStatus::not_applicable;
  return std::nullopt;
}

// c in s replaced by d.
std::string replaced(std::string s, char c, char d) {
  std::replace(s.begin(), s.end(), c, d);
  return s;
}

bool is_final(const CubeRecord& r) { return r.status != StrategyStatus::budget; }

// The first line of the two texts that differs, quoted, for the refusal.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string l, m;
  while (std::getline(y, m)) {
    if (!std::getline(x, l)) l.clear();
    if (l != m) return "its '" + l + "', this run's '" + m + "'";
  }
  return "its header is incomplete";
}

}  // namespace

std::string resume_header(const Game& g, StrategyMethod method, int layers) {
  std::ostringstream o;
  o << "gonu-superko-resume 1\n";
  o << "rules " << rules_id(g.rules) << "\n";
  o << "start " << format_position(g.board, g.start) << "\n";
  o << "history " << g.moves.size();
  for (const Move& m : g.moves) o << " " << format_move(g.board, g.rules, m);
  o << "\n";
  o << "method cube " << method_name(method) << " layers " << layers << "\n";
  o << "end-header\n";
  return o.str();
}

std::string format_record(const CubeRecord& r) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(3);
  o << "search " << r.path << ' ' << to_string(r.side) << ' ' << status_token(r.status) << ' ' << r.seconds << ' '
    << r.budget << ' ' << r.variables << ' ' << r.clauses << ' ' << r.reach << ' ' << r.paired << ' ' << r.ranked
    << ' ' << r.version << ' ' << (r.note.empty() ? "-" : replaced(r.note, ' ', '_')) << ' '
    << (r.block.empty() ? "-" : replaced(r.block, '\n', ';')) << "\n";
  return o.str();
}

std::optional<CubeRecord> parse_record(const std::string& line) {
  std::istringstream in(line);
  std::string word, side, status, note, block;
  CubeRecord r;
  if (!(in >> word >> r.path >> side >> status >> r.seconds >> r.budget >> r.variables >> r.clauses >> r.reach >>
        r.paired >> r.ranked >> r.version >> note >> block))
    return std::nullopt;
  std::string rest;
  std::getline(in, rest);
  block += rest;  // the block's first token, then the rest of the line
  const std::optional<StrategyStatus> s = parse_status(status);
  if (word != "search" || (side != "black" && side != "white") || !s) return std::nullopt;
  if ((*s == StrategyStatus::found) != (block != "-") || r.seconds < 0 || r.budget < 0) return std::nullopt;
  r.side = side == "black" ? Side::black : Side::white;
  r.status = *s;
  r.note = note == "-" ? "" : replaced(note, '_', ' ');
  r.block = block == "-" ? "" : replaced(block, ';', '\n');
  return r;
}

bool record_answers(const CubeRecord& r, double budget) {
  if (is_final(r) || r.budget == 0) return true;
  return budget > 0 && budget <= r.budget;
}

ResumeFile::ResumeFile(const std::string& path, const std::string& header) : path_(path) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string what = "resume file " + path;
  if (text.empty()) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << header;
    if (!out.flush()) throw GonuError("cannot write " + what);
  } else {
    if (text.rfind("gonu-superko-resume ", 0) != 0) throw GonuError(what + " is not a gonu resume file");
    if (text.rfind(header, 0) != 0)
      throw GonuError(what + " is for another instance or version: " + first_difference(text, header));
    std::size_t at = header.size(), line_no = std::size_t(std::count(header.begin(), header.end(), '\n'));
    for (;;) {
      const std::size_t end = text.find('\n', at);
      if (end == std::string::npos) break;  // a last line without its '\n': cut off by a kill, ignored
      ++line_no;
      const std::optional<CubeRecord> r = parse_record(text.substr(at, end - at));
      if (!r) throw GonuError(what + " line " + std::to_string(line_no) + ": not a search record");
      keep(*r);
      at = end + 1;
    }
    if (at < text.size()) std::filesystem::resize_file(path, at);  // the next record starts on a line of its own
  }
  file_ = std::fopen(path.c_str(), "ab");
  if (!file_) throw GonuError("cannot append to " + what);
}

ResumeFile::~ResumeFile() {
  if (file_) std::fclose(file_);
}

void ResumeFile::keep(CubeRecord r) {
  const auto key = std::make_pair(r.path, int(r.side));
  const auto it = kept_.find(key);
  if (it != kept_.end()) {
    const CubeRecord& old = it->second;
    if (is_final(old)) return;
    const bool larger = old.budget > 0 && (r.budget == 0 || r.budget > old.budget);
    if (!is_final(r) && !larger) return;
  }
  kept_[key] = std::move(r);
}

const CubeRecord* ResumeFile::find(const std::string& path, Side side) const {
  const auto it = kept_.find(std::make_pair(path, int(side)));
  return it == kept_.end() ? nullptr : &it->second;
}

void ResumeFile::append(const CubeRecord& r) {
  const std::string line = format_record(r);
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw GonuError("cannot append to resume file " + path_);
}

}  // namespace gonu

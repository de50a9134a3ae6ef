// The command line of a subcommand: shared option declarations, parsing with the usage-error
// convention, the range checks of counts and budgets, the rule set and game the flags name.
#include "tools/cli/options.hpp"

#include <tbb/info.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <map>

#include "core/error.hpp"
#include "tools/report/units.hpp"

namespace gonu::cli {

std::string json_text(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

CommandLine::CommandLine(std::string usage, std::string missing_usage)
    : usage_(std::move(usage)), missing_usage_(missing_usage.empty() ? usage_ : std::move(missing_usage)) {
  groups_.push_back(std::make_unique<po::options_description>("options"));
}

po::options_description_easy_init CommandLine::add() { return groups_.back()->add_options(); }

void CommandLine::group(const char* heading) {
  if (groups_.size() == 1 && groups_.front()->options().empty()) groups_.clear();
  groups_.push_back(std::make_unique<po::options_description>(heading));
}

void CommandLine::positional(const char* name) {
  hidden_.add_options()(name, po::value<std::string>(), name);
  positional_.add(name, 1);
}

void CommandLine::positional_list(const char* name) {
  hidden_.add_options()(name, po::value<std::vector<std::string>>(), name);
  positional_.add(name, -1);
}

void CommandLine::rule_options() {
  add()
      ("rules,r", po::value<std::string>(), "named rule set (see `gonu rules`); default free")
      ("capture", po::value<std::string>(), "line | single")
      ("corner", po::value<std::string>()->implicit_value("on"), "corner capture: on | off")
      ("repetition", po::value<std::string>(), "none | immediate | undo | superko")
      ("board,b", po::value<std::string>(), "board size RxC, e.g. 4x4")
      ("first", po::value<std::string>(), "who moves first: black | white");
}

void CommandLine::game_option() {
  add()
      ("game", po::value<std::string>(), "julgonu (default) | jungi")
      ("hobbling", po::value<std::string>()->implicit_value("on"), "jungi: a leap is blocked by a piece on its first square: on | off")
      ("promotion", po::value<std::string>(), "jungi: compulsory (default) | optional")
      ("stalemate", po::value<std::string>(), "jungi: a side without a move: loss (default) | draw")
      ("lancer", po::value<std::string>(), "jungi: the Lancer's slides: standard (default) | queen");
}

bool CommandLine::jungi() const {
  const std::string game = has("game") ? text("game") : "julgonu";
  if (game != "julgonu" && game != "jungi") usage_error("--game must be julgonu or jungi, not '" + game + "'");
  const bool is_jungi = game == "jungi";
  for (const char* flag : {"hobbling", "promotion", "stalemate", "lancer"}) {
    if (!is_jungi && has(flag)) usage_error(std::string("--") + flag + " is an option of --game jungi");
  }
  for (const char* flag : {"rules", "capture", "corner", "repetition", "board", "first", "history"}) {
    if (is_jungi && has(flag) && std::string(flag) != "history") usage_error(std::string("--") + flag + " is an option of Jul-gonu, not of --game jungi");
  }
  return is_jungi;
}

void CommandLine::history(const char* help) { add()("history", po::value<std::string>(), help); }

void CommandLine::json(const char* help) { add()("json", help); }

void CommandLine::quiet() { add()("quiet,q", "no progress on stderr"); }

void CommandLine::threads() { count("threads", 0, "worker threads (0: all cores)", 0, 'j'); }

void CommandLine::count(const char* name, std::int64_t default_value, const char* help, std::int64_t min,
                        char short_name) {
  const std::string spelled = short_name ? std::string(name) + "," + short_name : std::string(name);
  add()(spelled.c_str(), po::value<std::int64_t>()->default_value(default_value), help);
  counts_.push_back({name, min});
}

void CommandLine::seconds(const char* name, const char* help, double default_value) {
  add()(name, po::value<double>()->default_value(default_value), help);
  budgets_.emplace_back(name);
}

void CommandLine::byte_size(const char* name, const char* help) {
  add()(name, po::value<std::string>(), help);
  byte_sizes_.emplace_back(name);
}

namespace {

// The message of a parse error. Boost's error_with_option_name::what() replaces each %name%
// placeholder of its template with its value, again and again until none is left, so an argument
// that holds a placeholder itself ("-x%original_token%") made it loop for ever. When a value holds
// a '%', the template is filled in here instead, in one pass: what a value brings in is never read
// again. (Other messages stay boost's own: an ambiguous option's adds the options it matches.)
struct ErrorParts {
  std::string text;                            // the template, boost's defaults applied
  std::map<std::string, std::string> values;   // by placeholder name
};

// The parts are protected members: reached through pointers to members of a derived class.
struct ErrorPartsOf : po::error_with_option_name {
  static ErrorParts of(const po::error_with_option_name& x) {
    ErrorParts p{x.m_error_template, x.*(&ErrorPartsOf::m_substitutions)};
    p.values["canonical_option"] = x.get_option_name();
    p.values["prefix"] = (x.*(&ErrorPartsOf::get_canonical_option_prefix))();
    for (const auto& [name, from_to] : x.*(&ErrorPartsOf::m_substitution_defaults)) {  // boost's own texts
      if (!p.values[name].empty()) continue;
      const auto& [from, to] = from_to;
      for (std::size_t at = 0; (at = p.text.find(from, at)) != std::string::npos; at += to.size())
        p.text.replace(at, from.size(), to);
    }
    return p;
  }
};

std::string parse_error_text(const po::error& e) {
  const auto* named = dynamic_cast<const po::error_with_option_name*>(&e);
  if (!named) return e.what();
  const ErrorParts p = ErrorPartsOf::of(*named);
  if (std::none_of(p.values.begin(), p.values.end(), [](const auto& v) { return v.second.find('%') != std::string::npos; }))
    return e.what();
  std::string out;
  for (std::size_t i = 0; i < p.text.size();) {
    const std::size_t end = p.text[i] == '%' ? p.text.find('%', i + 1) : std::string::npos;
    const auto value = end == std::string::npos ? p.values.end() : p.values.find(p.text.substr(i + 1, end - i - 1));
    if (value == p.values.end()) {
      out += p.text[i++];
    } else {
      out += value->second;
      i = end + 1;
    }
  }
  return out;
}

}  // namespace

bool CommandLine::parse(int argc, char** argv) {
  groups_.front()->add_options()("help,h", "show this help");
  po::options_description visible;  // the groups, each under its heading
  for (const auto& g : groups_) visible.add(*g);
  po::options_description all;
  all.add(visible).add(hidden_);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional_).run(), vm_);
    po::notify(vm_);
  } catch (const po::error& e) {
    usage_error(parse_error_text(e));
  }
  if (has("help")) {
    std::cout << "usage: " << usage_ << "\n" << visible;
    if (!epilog_.empty()) std::cout << "\n" << epilog_;
    return false;
  }
  check_values();
  return true;
}

// Defaults pass these checks; only values given on the command line can fail them.
void CommandLine::check_values() const {
  for (const Bound& b : counts_)
    if (count_value(b.name.c_str()) < b.min) usage_error("--" + b.name + " must be >= " + std::to_string(b.min));
  for (const std::string& name : budgets_) {
    const double v = seconds_value(name.c_str());
    if (!std::isfinite(v) || v < 0) usage_error("--" + name + " must be a finite number of seconds >= 0");
  }
  for (const std::string& name : byte_sizes_)
    if (has(name.c_str()) && !parse_byte_size(text(name.c_str())))
      usage_error("--" + name + " takes a size such as 512M, 20G, 1.5GiB or a whole number of bytes, not '" +
                  text(name.c_str()) + "'");
}

std::string CommandLine::text(const char* name) const { return vm_[name].as<std::string>(); }

std::optional<std::string> CommandLine::optional_text(const char* name) const {
  if (!has(name)) return std::nullopt;
  return text(name);
}

std::string CommandLine::text_or_empty(const char* name) const { return has(name) ? text(name) : std::string(); }

std::string CommandLine::required(const char* name, const char* what) const {
  if (!has(name)) throw UsageError("missing " + std::string(what) + "\nusage: " + missing_usage_);
  return text(name);
}

std::vector<std::string> CommandLine::required_list(const char* name, const char* what) const {
  if (!has(name)) throw UsageError("missing " + std::string(what) + "\nusage: " + missing_usage_);
  return vm_[name].as<std::vector<std::string>>();
}

std::int64_t CommandLine::count_value(const char* name) const { return vm_[name].as<std::int64_t>(); }

double CommandLine::seconds_value(const char* name) const { return vm_[name].as<double>(); }

std::uint64_t CommandLine::byte_size_value(const char* name) const {
  return has(name) ? *parse_byte_size(text(name)) : 0;
}

void CommandLine::usage_error(const std::string& message) const {
  throw UsageError(message + "\nusage: " + usage_);
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Levenshtein distance (plain dynamic programming; the words are short).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_word(const std::string& word, const std::vector<std::string>& known) {
  const std::string w = lower(word);
  std::string best;
  std::size_t best_distance = 3;  // at most two edits
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(w, lower(k));
    if (d < best_distance && 2 * d < std::max(w.size(), k.size())) {
      best = k;
      best_distance = d;
    }
  }
  return best;
}

ThreadLimit::ThreadLimit(std::int64_t threads, bool quiet) {
  if (threads <= 0) return;
  const int cores = tbb::info::default_concurrency();
  if (threads > std::int64_t(kThreadsPerCoreLimit) * cores)
    throw UsageError("--threads " + std::to_string(threads) + " is more than " + std::to_string(kThreadsPerCoreLimit) +
                     " times the " + std::to_string(cores) + " cores here (at most " +
                     std::to_string(kThreadsPerCoreLimit * cores) + "; 0 takes every core)");
  if (threads > cores && !quiet)
    std::cerr << "gonu: warning: --threads " << threads << " is more than the " << cores << " cores here; "
              << cores << " will run\n";
  // oneTBB would start as many workers as allowed, cores or not: the cores are the limit.
  limit_.emplace(tbb::global_control::max_allowed_parallelism, std::size_t(std::min<std::int64_t>(threads, cores)));
}

}  // namespace gonu::cli

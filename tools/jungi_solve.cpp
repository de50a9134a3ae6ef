// gonu solve --game jungi: Jungi endgame tables solved in memory (solver/jungi/): one material
// and every material its captures and promotions lead to (--material), or every material of up to
// N pieces (--all N), smallest first. For each table solved, stdout gets its positions, W/L/D for
// each side to move and the longest win with a position of it; stderr gets its time and the
// peak memory so far, and on a terminal each level as it is swept (stdout depends only on the
// input, as for Jul-gonu's solve). --out FILE writes the table of --material (solver/jungi_table/);
// --dir DIR writes every table solved into DIR, one file a material (table_file_name), and first
// reads the tables already there instead of solving them again, so that an interrupted run resumes.
// Before solving, the memory the run needs (its tables at 2 bytes an index, and the retrograde
// solver's working array of 2 bytes an index for the largest of them) and the limit go to stderr,
// and a run past the limit is refused (exit 1) before any table is allocated. --plan solves
// nothing: it lists the run's materials with their indices and dependency waves (print_plan).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "core/error.hpp"
#include "solver/jungi/generator.hpp"
#include "solver/jungi_table/table_file.hpp"
#include "tools/format_number.hpp"
#include "tools/jungi_cli.hpp"
#include "tools/solve_report.hpp"

namespace gonu::cli {

namespace {

// The options of Jul-gonu's solve that mean nothing for a Jungi material.
void refuse_julgonu_options(const CommandLine& cl) {
  for (const char* flag : {"from", "history", "verify", "json", "stats", "stats-csv", "levels", "mpi", "checkpoint",
                           "certificate", "resume", "cube"}) {
    if (cl.has(flag)) cl.usage_error(std::string("--") + flag + " is not (yet) an option of solve --game jungi");
  }
  if (cl.text("engine") != "auto") cl.usage_error("--engine is not an option of solve --game jungi");
}

void print_table(const jungi::Table& t, bool quiet) {
  const jungi::TableStats& s = t.stats;
  std::cout << jungi::material_text(t.indexer.material()) << ": " << with_commas(s.positions) << " positions ("
            << with_commas(s.indices) << " indices)\n";
  for (const int side : {0, 1}) {
    std::cout << "  " << (side == 0 ? "South" : "North") << " to move: WIN " << with_commas(s.wins[std::size_t(side)])
              << " / LOSS " << with_commas(s.losses[std::size_t(side)]) << " / DRAW "
              << with_commas(s.draws[std::size_t(side)]) << "\n";
  }
  if (s.longest_win < 0) {
    std::cout << "  longest win: none\n";
  } else {
    jungi::Position p;
    t.indexer.decode(s.longest_win_index, p);
    std::cout << "  longest win: " << s.longest_win << " plies, " << jungi::format_position(p) << "\n";
  }
  std::cout.flush();
  if (!quiet)
    std::cerr << "  " << jungi::material_text(t.indexer.material()) << " solved in " << seconds_text(s.seconds) << " ("
              << s.sweeps << " sweeps), " << bytes_text(peak_resident_bytes()) << " at peak (resident)\n";
}

std::vector<jungi::Material> all_materials(const CommandLine& cl) {
  const std::int64_t n = cl.count_value("all");
  if (n < 2 || n > 5) cl.usage_error("--all N: N must be 2 to 5 (pieces, both royals included)");
  std::vector<jungi::Material> out;
  for (int pieces = 2; pieces <= n; ++pieces)
    for (const jungi::Material& m : jungi::materials_of_size(pieces))
      if (jungi::is_canonical(m)) out.push_back(m);  // the others are these tables, colour-flipped
  return out;
}

// --dir: the tables already in DIR of the run's materials, read into the set instead of solved
// (each checked against the reading asked for); returns how many.
int adopt_written(jungi::TableSet& set, const std::string& dir, const std::set<jungi::Material>& all, bool quiet) {
  int n = 0;
  for (const jungi::Material& m : all) {
    const std::string path = dir + "/" + jungi::table_file_name(m, set.rules());
    if (!jungi::is_jungi_table_file(path)) continue;
    const jungi::TableFile f = jungi::TableFile::open(path, set.rules());
    if (f.material() != m) throw GonuError(path + ": a table of " + f.header().material_text + ", not " + jungi::material_text(m));
    set.adopt(f.load());
    ++n;
  }
  if (!quiet && n) std::cerr << "read " << n << " tables already in " << dir << "\n";
  return n;
}

// --out and --dir: where tables go, checked before any solving.
struct Outputs {
  std::string out, dir;
};
Outputs outputs(const CommandLine& cl) {
  Outputs o{cl.text_or_empty("out"), cl.text_or_empty("dir")};
  if (cl.has("plan") && (!o.out.empty() || !o.dir.empty())) cl.usage_error("--plan solves nothing: no --out or --dir");
  if (!o.out.empty() && !cl.has("material")) cl.usage_error("--out FILE goes with --material (with --all, --dir DIR)");
  if (!o.dir.empty()) {
    struct stat st {};
    if (::stat(o.dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw GonuError("--dir " + o.dir + ": not a directory");
  }
  if (!o.out.empty()) jungi::check_table_file_writable(o.out);
  return o;
}

// The dependency wave of each material: 0 for one whose moves lead to no other material, else one
// more than the highest wave of what its captures and promotions lead to; the materials of one
// wave depend only on lower waves, so they can be solved side by side.
std::map<jungi::Material, int> waves(const std::set<jungi::Material>& all) {
  std::map<jungi::Material, int> wave;
  std::vector<jungi::Material> order(all.begin(), all.end());
  // material_closure's order (fewer pieces, then fewer unpromoted) puts each material after the
  // materials it leads to.
  std::sort(order.begin(), order.end(), [](const jungi::Material& a, const jungi::Material& b) {
    return std::pair(a.pieces(), a.unpromoted()) < std::pair(b.pieces(), b.unpromoted());
  });
  for (const jungi::Material& m : order) {
    int w = 0;
    for (const jungi::Material& n : jungi::next_materials(m)) w = std::max(w, wave.at(jungi::canonical(n)) + 1);
    wave[m] = w;
  }
  return wave;
}

// --plan: one line a material of the run, tab-separated: its wave, material, pieces, indices, the
// indices of its closure (what --material M holds in memory) and of the closure's largest table
// (whose solve takes working memory too), wave by wave; then a total line.
void print_plan(const jungi::Rules& r, const std::set<jungi::Material>& all) {
  const std::map<jungi::Material, int> wave = waves(all);
  std::map<jungi::Material, std::uint64_t> size;
  for (const jungi::Material& m : all) size[m] = jungi::Indexer(r, m).size();
  std::cout << "wave\tmaterial\tpieces\tindices\tclosure_indices\tclosure_largest\n";
  std::uint64_t total = 0;
  int last_wave = 0;
  std::vector<jungi::Material> order(all.begin(), all.end());
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) { return wave.at(a) < wave.at(b); });
  for (const jungi::Material& m : order) {
    std::uint64_t closure = 0, largest = 0;
    for (const jungi::Material& x : jungi::kept_closure(m)) {
      closure += size.at(x);
      largest = std::max(largest, size.at(x));
    }
    std::cout << wave.at(m) << '\t' << jungi::material_text(m) << '\t' << m.pieces() << '\t' << size.at(m) << '\t'
              << closure << '\t' << largest << '\n';
    total += size.at(m);
    last_wave = std::max(last_wave, wave.at(m));
  }
  std::cout << "total\t" << all.size() << " materials\t" << last_wave + 1 << " waves\t" << total << "\n";
}

}  // namespace

int jungi_solve(const CommandLine& cl) {
  refuse_julgonu_options(cl);
  if (cl.has("material") == cl.has("all")) cl.usage_error("solve --game jungi needs --material SIGNATURE or --all N");
  const jungi::Rules r = jungi_rules(cl);
  const bool quiet = cl.has("quiet");
  const std::vector<jungi::Material> targets =
      cl.has("material") ? std::vector<jungi::Material>{jungi::parse_material(cl.text("material"))} : all_materials(cl);
  jungi::TableSet set(r);
  jungi::TableOptions options;
  options.max_memory = cl.byte_size_value("max-memory");
  const Outputs out = outputs(cl);
  options.on_solved = [&](const jungi::Table& t) {
    print_table(t, quiet);
    if (!out.dir.empty()) jungi::write_table_file(out.dir + "/" + jungi::table_file_name(t.indexer.material(), r), t, r);
  };
  if (!quiet && isatty(STDERR_FILENO))
    options.on_level = [](const jungi::Material& m, int level, std::uint64_t decided, double seconds) {
      std::cerr << "\r  " << jungi::material_text(m) << ": level " << level << ", " << with_commas(decided) << " decided, "
                << seconds_text(seconds) << "   \r" << std::flush;
    };
  // The whole run's tables stay in memory: said, and refused at once when they would not fit.
  std::set<jungi::Material> all;
  for (const jungi::Material& m : targets)
    for (const jungi::Material& x : jungi::kept_closure(m)) all.insert(x);
  if (cl.has("plan")) {
    print_plan(r, all);
    return 0;
  }
  long double need = 0, largest = 0;
  for (const jungi::Material& x : all) {
    const auto size = static_cast<long double>(jungi::Indexer(r, x).size());
    need += size * sizeof(std::uint16_t);
    largest = std::max(largest, size);
  }
  need += largest * jungi::kSolverBytesPerIndex;
  const std::uint64_t bytes = need > 1.8e19L ? UINT64_MAX : static_cast<std::uint64_t>(need);
  const std::uint64_t limit = options.max_memory ? options.max_memory : jungi::physical_memory_bytes();
  const std::string limit_name = options.max_memory ? "--max-memory" : "this machine's physical memory";
  if (!quiet)
    std::cerr << "memory estimate: the tables of " << all.size() << " materials need " << bytes_text(bytes)
              << " (2 bytes an index, 2 more for the largest while it is solved); limit " << (limit ? bytes_text(limit) : "unknown") << " (" << limit_name << ")\n";
  if (limit && bytes > limit)
    throw GonuError("the tables of " + std::to_string(all.size()) + " materials need " + bytes_text(bytes) +
                    ", more than the limit of " + bytes_text(limit) + " (" + limit_name +
                    (options.max_memory ? "" : "; --max-memory SIZE sets it") + "; --plan lists the materials)");
  if (!out.dir.empty()) adopt_written(set, out.dir, all, quiet);
  std::cout << "rules: " << jungi::describe(r) << "\n";
  if (cl.has("material") && !jungi::is_canonical(targets.front()))
    std::cout << jungi::material_text(targets.front()) << " is kept as its colour flip, "
              << jungi::material_text(jungi::flipped(targets.front())) << " (sides swapped, the other side to move)\n";
  for (const jungi::Material& m : targets) set.solve(m, options);
  if (!out.out.empty()) {
    const std::uint64_t bytes_written = jungi::write_table_file(out.out, *set.find(jungi::canonical(targets.front())), r);
    if (!quiet) std::cerr << "wrote " << out.out << " (" << bytes_text(bytes_written) << ")\n";
  }
  return 0;
}

}  // namespace gonu::cli

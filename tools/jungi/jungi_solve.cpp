// gonu solve --game jungi: Jungi endgame tables (solver/jungi/generator/): one material and every material
// its captures and promotions lead to (--material), or every material of up to N pieces (--all N),
// in jungi::run_order's order (fewer pieces first, the materials of one family side by side); a
// material and its colour flip share one table (jungi::is_canonical), so a run solves the kept
// ones (--material KvKR says it keeps KRvK, and solves that). For each table, stdout gets its
// positions, W/L/D for each side to move and the longest win with a position of it; stderr gets
// its time and the peak memory so far, and on a terminal each level as it is swept (stdout
// depends only on the input, as for Jul-gonu's solve).
//
// Without --dir the whole run's tables stay in memory (TableSet::solve); --out FILE writes the
// table of --material (solver/jungi/table/). Before solving, the memory it needs (its tables at 2
// bytes an index, and the retrograde solver's working array of 2 bytes an index for the largest)
// and the limit go to stderr, and a run past the limit is refused (exit 1) before any table is
// allocated.
//
// With --dir DIR the run is streamed, one material at a time in the same order, so that a run of
// any size fits: a material whose file is in DIR (table_file_name) is not solved again, and its
// stdout block is printed from the file's header, the same as when it is solved (so stdout is the
// same whether a run starts afresh or resumes); any other material is solved after its reads
// (jungi::materials_read) are loaded from DIR, its file written (atomically) while the next
// material is solved (its stdout block printed once the file is written), and the tables no later
// material reads released; the tables held stay under the limit, the least recently used released
// first. The estimate is then the largest single step (a table, what it reads and the working
// array), refused past the limit before anything is written; stderr says
// "k of n materials" and the time after each table. --plan solves nothing: it lists the run's
// materials with their indices and dependency waves (print_plan). --dir DIR --mpi (under mpirun)
// shares the streamed run among processes by whole tables, wave by wave (solve_streamed_mpi), with
// the same files and stdout.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <iostream>
#include <list>
#include <map>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "solver/container/file.hpp"
#include "solver/jungi/generator/generator.hpp"
#include "solver/jungi/generator/schedule.hpp"
#include "solver/jungi/table/table_file.hpp"
#include "tools/report/format_number.hpp"
#include "tools/jungi/jungi_cli.hpp"
#include "tools/report/units.hpp"

#ifdef GONU_MPI
#include "solver/mpi/comm.hpp"
#include "solver/mpi/session.hpp"
#endif

namespace gonu::cli {

namespace {

// The options of Jul-gonu's solve that mean nothing for a Jungi material.
void refuse_julgonu_options(const CommandLine& cl) {
  for (const char* flag : {"from", "history", "verify", "json", "stats", "stats-csv", "levels", "checkpoint",
                           "certificate", "resume", "cube"}) {
    if (cl.has(flag)) cl.usage_error(std::string("--") + flag + " is not (yet) an option of solve --game jungi");
  }
  if (cl.text("engine") != "auto") cl.usage_error("--engine is not an option of solve --game jungi");
}

// A table's stdout block, from its statistics (those a table file's header keeps too): the
// counts of the whole board, each distinct position once (TableStats::board_positions).
void print_table(const jungi::Indexer& indexer, const jungi::TableStats& s) {
  std::cout << jungi::material_text(indexer.material()) << ": " << with_commas(s.board_positions) << " positions ("
            << with_commas(s.indices) << " indices)\n";
  for (const int side : {0, 1}) {
    std::cout << "  " << (side == 0 ? "South" : "North") << " to move: WIN " << with_commas(s.board_wins[std::size_t(side)])
              << " / LOSS " << with_commas(s.board_losses[std::size_t(side)]) << " / DRAW "
              << with_commas(s.board_draws[std::size_t(side)]) << "\n";
  }
  if (s.longest_win < 0) {
    std::cout << "  longest win: none\n";
  } else {
    jungi::Position p;
    indexer.decode(s.longest_win_index, p);
    std::cout << "  longest win: " << s.longest_win << " plies, " << jungi::format_position(p) << "\n";
  }
  std::cout.flush();
}

// A solved table's stderr line: its time, sweeps and the peak memory so far.
std::string solved_text(const jungi::Table& t) {
  return "  " + jungi::material_text(t.indexer.material()) + " solved in " + seconds_text(t.stats.seconds) + " (" +
         std::to_string(t.stats.sweeps) + " sweeps), " + bytes_text(peak_resident_bytes()) + " at peak (resident)";
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

// --out and --dir: where tables go, checked before any solving.
struct Outputs {
  std::string out, dir;
  bool dir_created = false;  // DIR did not exist: made here, and removed again if the run fails with it empty
};
Outputs outputs(const CommandLine& cl) {
  Outputs o{cl.text_or_empty("out"), cl.text_or_empty("dir")};
  if (cl.has("plan") && (!o.out.empty() || !o.dir.empty())) cl.usage_error("--plan solves nothing: no --out or --dir");
  if (!o.out.empty() && !cl.has("material")) cl.usage_error("--out FILE goes with --material (with --all, --dir DIR)");
  if (!o.dir.empty()) {
    struct stat st {};
    // A DIR that does not exist is made, as mkdir would (its parent must exist); MPI's processes
    // may race to make it.
    if (::stat(o.dir.c_str(), &st) != 0 && errno == ENOENT) {
      if (::mkdir(o.dir.c_str(), 0777) == 0) o.dir_created = true;
      else if (errno != EEXIST) throw GonuError("--dir " + o.dir + ": cannot make the directory (" + std::strerror(errno) + ")");
    }
    if (::stat(o.dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw GonuError("--dir " + o.dir + ": not a directory");
  }
  if (!o.out.empty()) table_container::check_writable(o.out);
  return o;
}

// --plan: one line a material of the run, tab-separated: its wave, material, pieces, indices, the
// indices of its closure (what --material M holds in memory) and of the closure's largest table
// (whose solve takes working memory too), wave by wave; then a total line.
void print_plan(const jungi::Rules& r, const std::set<jungi::Material>& all) {
  const std::map<jungi::Material, int> wave = jungi::dependency_waves(all);
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

// ---- The streamed run (--dir) ----

std::uint64_t clamp_bytes(long double bytes) { return bytes > 1.8e19L ? UINT64_MAX : static_cast<std::uint64_t>(bytes); }

// What solving m alone takes: its table and the solver's working array, and the tables it reads,
// at 2 bytes an index.
std::uint64_t step_bytes(const jungi::Rules& r, const jungi::Material& m) {
  long double bytes = static_cast<long double>(jungi::Indexer(r, m).size()) * (sizeof(std::uint16_t) + jungi::kSolverBytesPerIndex);
  for (const jungi::Material& x : jungi::materials_read(m))
    bytes += static_cast<long double>(jungi::Indexer(r, x).size()) * sizeof(std::uint16_t);
  return clamp_bytes(bytes);
}

// A table's file written while the next material is solved (stream): the writing's last blocks,
// fewer than the cores, and the solve's serial phases each leave a core idle that the other
// fills. One file at a time; its table stays held until the file is written.
struct Writing {
  jungi::Material material;
  std::future<void> done;
  std::function<void()> then;  // once the file is written: its stdout block
};

struct Stream {
  const jungi::Rules& rules;
  std::string dir;
  std::uint64_t limit = 0;  // bytes the tables held may take (0: unknown, no bound)
  jungi::TableSet set;
  std::list<jungi::Material> recent;  // the tables held, the most recently used first
  std::size_t loads = 0;              // tables loaded from DIR (again, for one released for room)
  std::map<jungi::Material, jungi::TableStats> written;  // the run's tables in DIR at the start
  std::optional<Writing> writing;     // the file being written, if any
  std::string path(const jungi::Material& m) const { return dir + "/" + jungi::table_file_name(m, rules); }
};

// Waits for the file being written, if any, then does what waited for it; the writing's error,
// if any, is thrown here.
void finish_write(Stream& st) {
  if (!st.writing) return;
  Writing w = std::move(*st.writing);
  st.writing.reset();
  w.done.get();
  w.then();
}

// Writes m's file (atomically) while the caller goes on, and then, once it is written, does
// `then`; the one written before is finished first.
void write_behind(Stream& st, const jungi::Material& m, const jungi::Table& t, std::function<void()> then) {
  finish_write(st);
  st.writing = Writing{m,
                       std::async(std::launch::async, [&rules = st.rules, &t, path = st.path(m)] {
                         jungi::write_table_file(path, t, rules);
                       }),
                       std::move(then)};
}

// The memory estimate of a streamed run: the largest step among the materials not in DIR, said on
// stderr and refused past the limit before anything is solved or written.
void check_stream_memory(const Stream& st, const std::vector<jungi::Material>& order, bool quiet, const std::string& limit_name) {
  std::uint64_t largest = 0;
  jungi::Material worst;
  for (const jungi::Material& m : order) {
    if (st.written.count(m)) continue;
    if (const std::uint64_t b = step_bytes(st.rules, m); b > largest) largest = b, worst = m;
  }
  if (!quiet)
    std::cerr << "memory estimate: " << order.size() << " materials, one at a time (" << st.written.size()
              << " already in " << st.dir << "); the largest step"
              << (largest ? ", " + jungi::material_text(worst) + "," : "") << " needs " << bytes_text(largest)
              << " (its table and what it reads at 2 bytes an index, 2 more an index while it is solved); limit "
              << (st.limit ? bytes_text(st.limit) : "unknown") << " (" << limit_name << ")\n";
  if (st.limit && largest > st.limit)
    throw GonuError("solving " + jungi::material_text(worst) + " needs " + with_commas(largest) + " bytes (" + bytes_text(largest) +
                    ": its table, the tables it reads and the solver's working array), more than the limit of " +
                    with_commas(st.limit) + " bytes (" + limit_name + "; --plan lists the materials)");
}

void touch(Stream& st, const jungi::Material& m) {
  st.recent.remove(m);
  st.recent.push_front(m);
}

void release(Stream& st, const jungi::Material& m) {
  if (st.writing && st.writing->material == m) finish_write(st);
  st.set.release(m);
  st.recent.remove(m);
}

// Releases the least recently used tables not pinned until `bytes` more fit under the limit (the
// estimate guarantees a step fits with only its pinned tables held).
void make_room(Stream& st, std::uint64_t bytes, const std::vector<jungi::Material>& pinned) {
  std::vector<jungi::Material> victims(st.recent.rbegin(), st.recent.rend());
  std::uint64_t held = st.set.held_bytes();
  for (const jungi::Material& x : victims) {
    if (!st.limit || held + bytes <= st.limit) return;
    if (std::find(pinned.begin(), pinned.end(), x) != pinned.end()) continue;
    held -= st.set.find(x)->entries.size() * sizeof(std::uint16_t);
    release(st, x);
  }
}

// The tables m reads, loaded from DIR where they are not held (each was written there earlier in
// this run or in an earlier one: they come before m in the run's order).
void load_reads(Stream& st, const jungi::Material& m) {
  const std::vector<jungi::Material> reads = jungi::materials_read(m);
  long double missing = 0;
  for (const jungi::Material& x : reads)
    if (!st.set.find(x)) missing += static_cast<long double>(jungi::Indexer(st.rules, x).size()) * sizeof(std::uint16_t);
  make_room(st, clamp_bytes(missing + static_cast<long double>(jungi::Indexer(st.rules, m).size()) *
                                          (sizeof(std::uint16_t) + jungi::kSolverBytesPerIndex)),
            reads);
  for (const jungi::Material& x : reads) {
    if (!st.set.find(x)) {
      st.set.adopt(jungi::TableFile::open(st.path(x), st.rules).load());
      ++st.loads;
    }
    touch(st, x);
  }
}

// Solves m after loading what it reads; the caller writes its file into DIR, and then drops the
// derived bits kept for the writer (TableOptions::keep_derived).
const jungi::Table& solve_after_reads(Stream& st, const jungi::Material& m, const jungi::TableOptions& options) {
  load_reads(st, m);
  jungi::TableOptions for_writing = options;
  for_writing.keep_derived = true;
  const jungi::Table& t = st.set.solve_alone(m, for_writing);
  touch(st, m);
  return t;
}

// The run's tables already in DIR, each checked (header, index, payload checksum, its material)
// without decoding its blocks, and its counts kept for its stdout block: all before anything is
// printed, so that a bad file is refused in one line.
void read_written(Stream& st, const std::vector<jungi::Material>& order) {
  for (const jungi::Material& m : order) {
    if (!jungi::is_jungi_table_file(st.path(m))) continue;
    const jungi::TableFile f = jungi::TableFile::open(st.path(m), st.rules);
    if (f.material() != m) throw GonuError(f.path() + ": a table of " + f.header().material_text + ", not " + jungi::material_text(m));
    if (!f.payload_checksum_ok()) throw GonuError(f.path() + ": the payload checksum does not match (damaged; remove it to solve it again)");
    const jungi::TableFileHeader& h = f.header();
    if (!h.counts_whole_board())
      throw GonuError(f.path() + ": a table of format " + std::to_string(h.format_version) +
                      ", which counts indices, not the board's positions: run gonu repack on it first");
    jungi::TableStats& s = st.written[m];
    s.indices = h.indices, s.board_positions = h.positions;
    s.board_wins = h.wins, s.board_losses = h.losses, s.board_draws = h.draws;
    s.longest_win = h.longest_win, s.longest_loss = h.longest_loss, s.longest_win_index = h.longest_win_index;
  }
}

// For each material of the run, the position in the run of the last material that reads it: once
// past it the table is released.
std::map<jungi::Material, std::size_t> last_reads(const std::vector<jungi::Material>& order) {
  std::map<jungi::Material, std::size_t> last;
  for (std::size_t k = 0; k < order.size(); ++k)
    for (const jungi::Material& x : jungi::materials_read(order[k])) last[x] = k;
  return last;
}

// The streamed run: each material solved (or its file's block printed) in order. Returns how many
// were solved here.
std::size_t stream(Stream& st, const std::vector<jungi::Material>& order, const jungi::TableOptions& options, bool quiet) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::map<jungi::Material, std::size_t> last = last_reads(order);
  std::size_t solved = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const jungi::Material& m = order[k];
    std::string line;
    if (const auto w = st.written.find(m); w != st.written.end()) {
      finish_write(st);  // the blocks in the run's order
      print_table(jungi::Indexer(st.rules, m), w->second);
      line = "  " + jungi::material_text(m) + " already in " + st.path(m);
    } else {
      const jungi::Table& t = solve_after_reads(st, m, options);
      // A table's block is printed once its file is written: stdout lists what DIR holds.
      write_behind(st, m, t, [&st, &t] {
        st.set.drop_derived(t.indexer.material());
        print_table(t.indexer, t.stats);
      });
      line = solved_text(t);
      ++solved;
    }
    // The table being written is released after its file is (at a later step, or for room).
    for (const jungi::Material& x : std::vector<jungi::Material>(st.recent.begin(), st.recent.end()))
      if (const auto it = last.find(x); (it == last.end() || it->second <= k) && !(st.writing && st.writing->material == x))
        release(st, x);
    if (!quiet)
      std::cerr << line << "; " << k + 1 << " of " << order.size() << " materials, "
                << seconds_text(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()) << "\n";
  }
  finish_write(st);
  return solved;
}

}  // namespace

namespace {

// The memory estimate of an in-memory run (its whole closure held), said on stderr and refused
// past the limit before any table is allocated.
void check_memory(const jungi::Rules& r, const std::set<jungi::Material>& all, std::uint64_t limit, bool quiet,
                  const std::string& limit_name, bool max_memory_given) {
  long double need = 0, largest = 0;
  for (const jungi::Material& x : all) {
    const auto size = static_cast<long double>(jungi::Indexer(r, x).size());
    need += size * sizeof(std::uint16_t);
    largest = std::max(largest, size);
  }
  const std::uint64_t bytes = clamp_bytes(need + largest * jungi::kSolverBytesPerIndex);
  if (!quiet)
    std::cerr << "memory estimate: the tables of " << all.size() << " materials need " << bytes_text(bytes)
              << " (2 bytes an index, 2 more for the largest while it is solved); limit " << (limit ? bytes_text(limit) : "unknown") << " (" << limit_name << ")\n";
  if (limit && bytes > limit)
    throw GonuError("the tables of " + std::to_string(all.size()) + " materials need " + bytes_text(bytes) +
                    ", more than the limit of " + bytes_text(limit) + " (" + limit_name +
                    (max_memory_given ? "" : "; --max-memory SIZE sets it") + "; --plan lists the materials)");
}

// --out FILE after a streamed run: the table of --material, read back from DIR.
void write_out(const Stream& st, const jungi::Material& target, const std::string& out, bool quiet) {
  if (out.empty()) return;
  const std::uint64_t bytes_written = jungi::write_table_file(out, *jungi::TableFile::open(st.path(target), st.rules).load(), st.rules);
  if (!quiet) std::cerr << "wrote " << out << " (" << bytes_text(bytes_written) << ")\n";
}

// --dir: the run streamed through DIR (see the head of this file); --out then writes the table of
// --material, read back from DIR.
void solve_streamed(const jungi::Rules& r, const std::vector<jungi::Material>& targets, const Outputs& out,
                    const jungi::TableOptions& options, std::uint64_t limit, const std::string& limit_name, bool quiet) {
  Stream st{r, out.dir, limit, jungi::TableSet(r), {}, 0, {}, {}};
  const std::vector<jungi::Material> order = jungi::run_order(targets);
  read_written(st, order);
  check_stream_memory(st, order, quiet, limit_name);
  std::cout << "rules: " << jungi::describe(r) << "\n";
  const std::size_t solved = stream(st, order, options, quiet);
  if (!quiet)
    std::cerr << order.size() << " materials: " << solved << " solved and written into " << out.dir << ", "
              << order.size() - solved << " already there; " << st.loads << " tables loaded from it\n";
  write_out(st, targets.front(), out.out, quiet);
}

#ifdef GONU_MPI
// ---- The streamed run over MPI processes (--dir --mpi) ----
// The processes share the run by whole tables. Every process computes the same schedule without a
// message (solver/jungi/generator/schedule.hpp): the run's materials not in DIR by dependency wave, each
// wave's tables dealt out largest first to the least loaded process. Each process solves the
// tables dealt to it with its own threads, as the single-process run does (its reads loaded from
// DIR, its files written atomically into DIR), and all wait at a barrier after each wave, so that
// what the next wave reads is in DIR. Process 0 then prints every table's block from the files'
// headers in the run's order: stdout and the files are those of a single process.

// The run's materials not in DIR, wave by wave (a wave may be empty).
std::vector<std::vector<jungi::Material>> waves_to_solve(const Stream& st, const std::vector<jungi::Material>& order) {
  const std::map<jungi::Material, int> wave = jungi::dependency_waves({order.begin(), order.end()});
  std::vector<std::vector<jungi::Material>> out;
  for (const jungi::Material& m : order) {
    if (st.written.count(m)) continue;
    const auto w = std::size_t(wave.at(m));
    if (out.size() <= w) out.resize(w + 1);
    out[w].push_back(m);
  }
  return out;
}

// Solves the tables of a wave that the deal gives this process; returns how many.
std::size_t solve_dealt(Stream& st, const std::vector<jungi::Material>& wave, const jungi::TableOptions& options,
                        const mpi::Comm& comm, bool quiet) {
  std::vector<std::uint64_t> sizes;
  for (const jungi::Material& m : wave) sizes.push_back(jungi::Indexer(st.rules, m).size());
  const std::vector<int> owner = jungi::deal_by_size(sizes, comm.size());
  std::size_t solved = 0;
  for (std::size_t k = 0; k < wave.size(); ++k) {
    if (owner[k] != comm.rank()) continue;
    const jungi::Table& t = solve_after_reads(st, wave[k], options);
    jungi::write_table_file(st.path(wave[k]), t, st.rules);  // before the wave's barrier
    st.set.drop_derived(t.indexer.material());
    if (!quiet) std::cerr << solved_text(t) << "; process " << comm.rank() << "\n";
    ++solved;
  }
  return solved;
}

// For each table some material of `waves` reads, the last wave that reads it.
std::map<jungi::Material, std::size_t> last_wave_reads(const std::vector<std::vector<jungi::Material>>& waves) {
  std::map<jungi::Material, std::size_t> last;
  for (std::size_t w = 0; w < waves.size(); ++w)
    for (const jungi::Material& m : waves[w])
      for (const jungi::Material& x : jungi::materials_read(m)) last[x] = w;
  return last;
}

// Releases the tables held that no wave after w reads.
void release_after_wave(Stream& st, const std::map<jungi::Material, std::size_t>& last, std::size_t w) {
  for (const jungi::Material& x : std::vector<jungi::Material>(st.recent.begin(), st.recent.end()))
    if (const auto it = last.find(x); it == last.end() || it->second <= w) release(st, x);
}

// Process 0's report once every table is in DIR: each table's block from its file's header.
void report_mpi_run(Stream& st, const std::vector<jungi::Material>& order, std::uint64_t solved, int processes, bool quiet) {
  st.written.clear();
  read_written(st, order);
  std::cout << "rules: " << jungi::describe(st.rules) << "\n";
  for (const jungi::Material& m : order) print_table(jungi::Indexer(st.rules, m), st.written.at(m));
  if (!quiet)
    std::cerr << order.size() << " materials: " << solved << " solved by " << processes << " processes and written into "
              << st.dir << ", " << order.size() - solved << " already there\n";
}

// The checks before anything is solved (the files in DIR, the memory estimate against each
// process's limit, said by process 0): false on every process when one fails, the first of them
// saying why in one line (every process would find a bad file, each its own limit).
bool mpi_checks_pass(Stream& st, const std::vector<jungi::Material>& order, const std::string& limit_name, bool root,
                     bool quiet) {
  std::string error;
  try {
    read_written(st, order);
    check_stream_memory(st, order, quiet || !root, limit_name);
  } catch (const GonuError& e) {
    error = e.what();
  }
  const int first = mpi::first_process_where(!error.empty());
  if (first >= 0 && first == mpi::Comm().rank()) std::cerr << "gonu: error: " << error << "\n";
  return first < 0;
}

// --dir --mpi: the run over the processes of mpirun (above). An error on any process ends them all
// (the others would wait at the barrier forever). Returns the exit status.
int solve_streamed_mpi(const jungi::Rules& r, const std::vector<jungi::Material>& targets, const Outputs& out,
                       const jungi::TableOptions& options, bool quiet) {
  const mpi::MpiSession session(nullptr, nullptr);
  try {
    const mpi::Comm comm;
    const bool root = comm.rank() == 0;
    const int on_node = mpi::processes_on_node();
    const std::uint64_t limit = options.max_memory ? options.max_memory : jungi::physical_memory_bytes() / std::uint64_t(on_node);
    const std::string limit_name = options.max_memory ? "--max-memory, per process"
                                                      : "this node's physical memory shared by its " + std::to_string(on_node) + " processes";
    Stream st{r, out.dir, limit, jungi::TableSet(r), {}, 0, {}, {}};
    const std::vector<jungi::Material> order = jungi::run_order(targets);
    if (!mpi_checks_pass(st, order, limit_name, root, quiet)) return 1;
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<std::vector<jungi::Material>> waves = waves_to_solve(st, order);
    const std::map<jungi::Material, std::size_t> last = last_wave_reads(waves);
    std::uint64_t solved = 0;
    for (std::size_t w = 0; w < waves.size(); ++w) {
      solved += solve_dealt(st, waves[w], options, comm, quiet);
      release_after_wave(st, last, w);
      comm.barrier();
      if (root && !quiet)
        std::cerr << "wave " << w << ": " << waves[w].size() << " tables over " << comm.size() << " processes, "
                  << seconds_text(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()) << "\n";
    }
    solved = comm.sum(solved);
    if (root) {
      report_mpi_run(st, order, solved, comm.size(), quiet);
      write_out(st, targets.front(), out.out, quiet);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "gonu: error: " << e.what() << "\n";
    mpi::abort_run(1);
  }
}
#endif

}  // namespace

int jungi_solve(const CommandLine& cl) {
  refuse_julgonu_options(cl);
  if (cl.has("material") == cl.has("all")) cl.usage_error("solve --game jungi needs --material SIGNATURE or --all N");
  const jungi::Rules r = jungi_rules(cl);
  const bool quiet = cl.has("quiet");
  const std::vector<jungi::Material> targets =
      cl.has("material") ? std::vector<jungi::Material>{jungi::parse_material(cl.text("material"))} : all_materials(cl);
  jungi::TableOptions options;
  options.max_memory = cl.byte_size_value("max-memory");
  const Outputs out = outputs(cl);
  if (cl.has("mpi") && out.dir.empty())
    cl.usage_error("--mpi goes with --dir DIR under --game jungi (the processes share the tables through it)");
  if (!quiet && isatty(STDERR_FILENO))
    options.on_level = [](const jungi::Material& m, int level, std::uint64_t decided, double seconds) {
      std::cerr << "\r  " << jungi::material_text(m) << ": level " << level << ", " << with_commas(decided) << " decided, "
                << seconds_text(seconds) << "   \r" << std::flush;
    };
  std::set<jungi::Material> all;
  for (const jungi::Material& m : targets)
    for (const jungi::Material& x : jungi::kept_closure(m)) all.insert(x);
  if (cl.has("plan")) {
    print_plan(r, all);
    return 0;
  }
  const std::uint64_t limit = options.max_memory ? options.max_memory : jungi::physical_memory_bytes();
  const std::string limit_name = options.max_memory ? "--max-memory" : "this machine's physical memory";
  if (cl.has("mpi")) {
#ifdef GONU_MPI
    return solve_streamed_mpi(r, targets, out, options, quiet);
#else
    throw GonuError("--mpi: this gonu was built without MPI (install Debian's libopenmpi-dev and rebuild)");
#endif
  }
  if (!out.dir.empty()) {
    try {
      solve_streamed(r, targets, out, options, limit, limit_name, quiet);
    } catch (...) {
      if (out.dir_created) ::rmdir(out.dir.c_str());  // only if nothing was written into it
      throw;
    }
    return 0;
  }
  // Without --dir the whole run's tables stay in memory: said, and refused at once when they would not fit.
  check_memory(r, all, limit, quiet, limit_name, options.max_memory != 0);
  jungi::TableSet set(r);
  options.on_solved = [&](const jungi::Table& t) {
    print_table(t.indexer, t.stats);
    if (!quiet) std::cerr << solved_text(t) << "\n";
  };
  std::cout << "rules: " << jungi::describe(r) << "\n";
  if (cl.has("material") && !jungi::is_canonical(targets.front()))
    std::cout << jungi::material_text(targets.front()) << " is kept as its colour flip, "
              << jungi::material_text(jungi::flipped(targets.front())) << " (sides swapped, the other side to move)\n";
  for (const jungi::Material& m : jungi::run_order(targets)) set.solve(m, options);  // the streamed run's order
  if (!out.out.empty()) {
    const std::uint64_t bytes_written = jungi::write_table_file(out.out, *set.find(jungi::canonical(targets.front())), r);
    if (!quiet) std::cerr << "wrote " << out.out << " (" << bytes_text(bytes_written) << ")\n";
  }
  return 0;
}

}  // namespace gonu::cli

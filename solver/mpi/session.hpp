// An MPI run's life and what every kind of run over MPI processes needs, whatever it solves
// (Jul-gonu's state space in solver/julgonu/mpi/solve_mpi.hpp, Jungi's tables by whole files in
// tools/jungi/jungi_solve.cpp): MPI started and ended, the run ended from any one process, and the
// processes sharing a node. Nothing here knows a game.
#pragma once

namespace gonu::mpi {

// MPI_Init_thread on construction (threads call no MPI), MPI_Finalize on destruction.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

// Ends every process of the run with `code` (an error on one process would leave the others
// waiting in an exchange or a barrier).
[[noreturn]] void abort_run(int code);

// How many processes of the run share this one's node (MPI_Comm_split_type, shared memory).
int processes_on_node();

// The lowest rank of the processes for which `over` holds, on every process; -1 if none.
int first_process_where(bool over);

}  // namespace gonu::mpi

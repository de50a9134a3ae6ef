// MpiSession, abort_run and the node and rank queries (session.hpp), over MPI_COMM_WORLD.
#include "solver/mpi/session.hpp"

#include <mpi.h>

#include <cstdlib>

namespace gonu::mpi {

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void abort_run(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // not reached: MPI_Abort ends the process
}

int processes_on_node() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

int first_process_where(bool over) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int mine = over ? rank : size;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return first == size ? -1 : first;
}

}  // namespace gonu::mpi

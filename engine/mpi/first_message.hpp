#pragma once
// An error that one rank finds while every rank must stop: the ranks agree on the message of the
// lowest rank that has one, so that every rank throws the same error, rank 0 can report it once,
// and no rank is left waiting in a collective call for one that has thrown.
#include <mpi.h>
#include <string>

namespace tessera::mpi {

// Collective over comm: the message of the lowest rank whose `local` is not empty, on every rank;
// empty where no rank has one.
inline std::string firstMessage(MPI_Comm comm, const std::string& local) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (ranks == 1)
    return local;
  int first = local.empty() ? ranks : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == ranks)
    return {};
  std::string message = rank == first ? local : std::string();
  int length = int(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  message.resize(std::size_t(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  return message;
}

} // namespace tessera::mpi

#pragma once
// MPI calls whose failure Tessera reports: a status other than MPI_SUCCESS becomes an exception
// naming who called (`where`), the call and the status.
#include <mpi.h>
#include <stdexcept>
#include <string>

namespace tessera::mpi {

inline void check(int status, const char* where, const char* call) {
  if (status != MPI_SUCCESS)
    throw std::runtime_error(std::string(where) + ": " + call + " failed with MPI error " +
                             std::to_string(status));
}

} // namespace tessera::mpi

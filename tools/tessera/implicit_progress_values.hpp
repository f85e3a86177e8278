#pragma once
// An implicit run's progress (ImplicitProgress) as its checkpoint's solver values and back, from
// one list of keys for both ways, so that what is written is what is read.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "io/checkpoint.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"

namespace tessera::cli {

// The values of `progress` (its iteration is the checkpoint's step, not a value).
std::vector<std::pair<std::string, std::string>>
implicitProgressValues(const ImplicitProgress& progress);

// The progress of the checkpoint `info` (read from `file`) at its step. Throws CheckpointError
// naming the file and key where a value is no number, or where one that every checkpoint of an
// implicit run has is missing; the values that checkpoints of earlier builds lack keep their
// defaults (the restart begins Newton-Krylov's CFL rule, the stall detector's cycle memory and the
// preconditioner's sweeps anew; the first residual after it stands for the frozen factors' own;
// a first-order start set by count ends again by it).
ImplicitProgress implicitProgressFrom(const io::CheckpointInfo& info,
                                      const std::filesystem::path& file);

} // namespace tessera::cli

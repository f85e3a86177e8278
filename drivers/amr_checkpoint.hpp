#pragma once
// The data of an adaptive patch run's checkpoint (AmrSolver): the forest with its partition
// (p4est's own file, forest.p4est), every patch's interior state in forest order
// (io/checkpoint.hpp's state.bin, read back on any rank count), and between a regrid's flags and
// its adapt the flags (regrid_flags.bin, a record per patch); and the way back from them. The
// folder protocol and checkpoint.toml are io/checkpoint.hpp's.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "drivers/amr_solver.hpp"
#include "engine/mpi/first_message.hpp"
#include "io/checkpoint.hpp"

namespace tessera {

inline constexpr const char* kForestFile = "forest.p4est";
inline constexpr const char* kRegridFlagsFile = "regrid_flags.bin";

namespace detail {
// A patch's interior values in a checkpoint: variable by variable, cells in interiorCell order.
template <int Dim>
int checkpointValuesPerPatch(const PatchLayout<Dim>& layout) {
  return layout.numVars * layout.interiorCells();
}
} // namespace detail

// Collective: writes the forest and the state into `folder`; returns, on rank 0, what
// checkpoint.toml records of the two files (sizes, the forest's checksum).
template <ConservationLaw PDE>
std::vector<io::CheckpointInfo::DataFile>
writeAmrCheckpointData(const AmrSolver<PDE>& amr, const std::filesystem::path& folder) {
  constexpr int Dim = PDE::kDim;
  amr.forest().save(folder / kForestFile);
  const PatchLayout<Dim>& layout = amr.solver().layout();
  const PatchStore<Dim>& state = amr.solver().hostState();
  const int perPatch = detail::checkpointValuesPerPatch(layout);
  const int patches = amr.solver().numPatches();
  std::vector<double> values(std::size_t(patches) * std::size_t(perPatch));
  std::size_t i = 0;
  for (int p = 0; p < patches; ++p)
    for (int v = 0; v < layout.numVars; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n)
        values[i++] = state.at(p, v, layout.interiorCell(n));
  io::writeStateRecords(amr.comm(), folder / io::kStateFile, amr.globalPatches(),
                        io::RecordRange{amr.firstGlobalPatch(), patches}, perPatch, values);
  // Every rank has flags pending after the same steps.
  const auto& pending = amr.pendingFlags();
  if (pending) {
    std::vector<double> flags;
    for (amr::AdaptFlag flag : *pending)
      flags.push_back(static_cast<int>(flag));
    io::writeStateRecords(amr.comm(), folder / kRegridFlagsFile, amr.globalPatches(),
                          io::RecordRange{amr.firstGlobalPatch(), patches}, 1, flags);
  }
  int rank = 0;
  MPI_Comm_rank(amr.comm(), &rank);
  if (rank != 0)
    return {};
  std::vector<io::CheckpointInfo::DataFile> files{
      io::describeDataFile(folder / kForestFile, true),
      io::describeDataFile(folder / io::kStateFile, false)};
  if (pending)
    files.push_back(io::describeDataFile(folder / kRegridFlagsFile, false));
  return files;
}

// Collective: gives amr, built on the checkpoint's forest (AmrSolver::SavedForest), the state,
// time and step count of the checkpoint in `folder`. Throws io::CheckpointError (on every rank
// alike) where the state file is damaged or holds another mesh.
template <ConservationLaw PDE>
void restoreAmrCheckpointData(AmrSolver<PDE>& amr, const std::filesystem::path& folder,
                              const io::CheckpointInfo& info) {
  constexpr int Dim = PDE::kDim;
  if (amr.globalPatches() != info.records)
    throw io::CheckpointError(
        (folder / kForestFile).string() + ": " + std::to_string(amr.globalPatches()) +
        " patches where checkpoint.toml records " + std::to_string(info.records));
  const PatchLayout<Dim>& layout = amr.solver().layout();
  const int perPatch = detail::checkpointValuesPerPatch(layout);
  const int patches = amr.solver().numPatches();
  const std::vector<double> values =
      io::readStateRecords(amr.comm(), folder / io::kStateFile, info.records,
                           io::RecordRange{amr.firstGlobalPatch(), patches}, perPatch, "patch");
  PatchStore<Dim> state(layout, patches, MemorySpace::Host);
  std::size_t i = 0;
  for (int p = 0; p < patches; ++p)
    for (int v = 0; v < layout.numVars; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n)
        state.at(p, v, layout.interiorCell(n)) = values[i++];
  std::optional<std::vector<amr::AdaptFlag>> pending;
  const auto& files = info.files;
  if (std::any_of(files.begin(), files.end(),
                  [](const auto& f) { return f.name == kRegridFlagsFile; })) {
    const std::filesystem::path file = folder / kRegridFlagsFile;
    pending.emplace();
    std::string problem;
    for (double flag :
         io::readStateRecords(amr.comm(), file, info.records,
                              io::RecordRange{amr.firstGlobalPatch(), patches}, 1, "patch")) {
      const int asInt = int(flag);
      if (double(asInt) != flag || asInt < int(amr::AdaptFlag::Coarsen) ||
          asInt > int(amr::AdaptFlag::Refine)) {
        problem = file.string() + ": " + std::to_string(flag) + " is not a regrid flag (-1, 0, 1)";
        break;
      }
      pending->push_back(static_cast<amr::AdaptFlag>(asInt));
    }
    problem = mpi::firstMessage(amr.comm(), problem); // every rank refuses alike
    if (!problem.empty())
      throw io::CheckpointError(problem);
  }
  amr.restore(state, info.time, info.step, std::move(pending));
}

} // namespace tessera

#pragma once
// The data of an adaptive patch run's checkpoint (AmrSolver): the forest with its partition
// (p4est's own file, forest.p4est) and every patch's interior state in forest order
// (io/checkpoint.hpp's state.bin, read back on any rank count); and the way back from them.
// The folder protocol and checkpoint.toml are io/checkpoint.hpp's.
#include <filesystem>
#include <vector>

#include "drivers/amr_solver.hpp"
#include "io/checkpoint.hpp"

namespace tessera {

inline constexpr const char* kForestFile = "forest.p4est";

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
  int rank = 0;
  MPI_Comm_rank(amr.comm(), &rank);
  if (rank != 0)
    return {};
  return {io::describeDataFile(folder / kForestFile, true),
          io::describeDataFile(folder / io::kStateFile, false)};
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
  amr.restore(state, info.time, info.step);
}

} // namespace tessera

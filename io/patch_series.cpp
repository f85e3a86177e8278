#include "io/patch_series.hpp"

namespace tessera::io {

namespace {
int rankOf(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
int sizeOf(MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  return ranks;
}
} // namespace

PatchSeriesWriter::PatchSeriesWriter(PatchOutputFormat format, std::filesystem::path directory,
                                     std::string baseName, MPI_Comm comm)
    : comm_(comm) {
  if (format == PatchOutputFormat::Amr)
    amr_.emplace(std::move(directory), std::move(baseName), comm);
  else
    grid_.emplace(std::move(directory), std::move(baseName), rankOf(comm), sizeOf(comm));
}

std::filesystem::path PatchSeriesWriter::write(int step, double time, const PatchMesh& mesh,
                                               const std::vector<CellField>& fields) {
  if (amr_)
    return amr_->write(step, time, mesh, fields);
  // Rank 0 last: its write names the other ranks' pieces in the .pvtu, which must exist by then.
  if (rankOf(comm_) == 0) {
    MPI_Barrier(comm_);
    return grid_->write(step, time, mesh, fields);
  }
  auto file = grid_->write(step, time, mesh, fields);
  MPI_Barrier(comm_);
  return file;
}

const std::vector<std::pair<double, std::string>>& PatchSeriesWriter::written() const {
  return amr_ ? amr_->written() : grid_->written();
}

void PatchSeriesWriter::resume(std::vector<std::pair<double, std::string>> written) {
  // A run continued in the other format lists the steps of its own files only.
  const std::string extension = amr_ ? ".vthb" : ".pvtu";
  std::erase_if(written, [&](const auto& step) {
    return std::filesystem::path(step.second).extension() != extension;
  });
  if (amr_)
    amr_->resume(std::move(written));
  else
    grid_->resume(std::move(written));
}

std::filesystem::path PatchSeriesWriter::seriesPath() const {
  return amr_ ? amr_->seriesPath() : grid_->seriesPath();
}

} // namespace tessera::io

#pragma once
// Checkpoint folders of a run, and the files in them that do not depend on the solver:
//   checkpoint.toml   what the checkpoint is (the case it belongs to, where the run stood, the
//                     output steps written so far) and the size and checksum of each data file;
//   state.bin         every patch's interior state in the forest's order over all ranks, written
//                     and read collectively, each rank its own patches, with one checksum a
//                     patch, so that any rank count reads it back;
// beside the solver's own files (the p4est forest). A checkpoint is written into a folder with a
// temporary name, which is renamed once every file in it is complete: a folder with the final
// name is always a whole checkpoint, whatever stopped the writer.
#include <cstdint>
#include <filesystem>
#include <mpi.h>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tessera::io {

// A checkpoint that cannot be read, is damaged, or belongs to another case; the message names the
// file and what is wrong.
class CheckpointError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct CheckpointInfo {
  // The case: a restart needs each of these to be the same.
  int dimension = 0;
  std::string system;
  int numVars = 0;
  int cellsPerPatch = 0;
  std::vector<int> level0Patches;
  // Where the run stood.
  double time = 0.0; // stored exactly (hexadecimal), so that the continued run is bitwise
  long long step = 0;
  long long outputsDone = 0;                          // output times passed (OutputSchedule)
  std::vector<std::pair<double, std::string>> series; // output steps written: time, .pvtu file
  long long globalPatches = 0;
  int ranks = 0;
  std::string backend; // "host" or "device", that wrote it (either restarts on either)
  std::string build;   // Tessera's version
  // The data files, by name: size in bytes and FNV-1a checksum (none for state.bin, which
  // carries one per patch).
  struct DataFile {
    std::string name;
    std::uint64_t bytes = 0;
    bool hasChecksum = false;
    std::uint64_t checksum = 0;
  };
  std::vector<DataFile> files;
};

// Writes checkpoint.toml (through a temporary file).
void writeCheckpointInfo(const std::filesystem::path& file, const CheckpointInfo& info);
// Reads checkpoint.toml; throws CheckpointError naming the file and the key that is missing or
// malformed.
CheckpointInfo readCheckpointInfo(const std::filesystem::path& file);

// The size (and, asked for, the checksum) of a whole file, for CheckpointInfo::files.
CheckpointInfo::DataFile describeDataFile(const std::filesystem::path& file, bool withChecksum);
// Throws CheckpointError unless the file has the size (and checksum) recorded.
void verifyDataFile(const std::filesystem::path& folder, const CheckpointInfo::DataFile& recorded);

// Collective over comm: writes `values` (valuesPerPatch doubles for each of this rank's patches,
// which are the patches firstPatch, firstPatch + 1, ... in forest order) into `file` at their
// place among globalPatches patches, with a checksum for each patch.
void writePatchValues(MPI_Comm comm, const std::filesystem::path& file, long long globalPatches,
                      long long firstPatch, int valuesPerPatch, std::span<const double> values);

// Collective over comm: reads patches firstPatch .. firstPatch + count - 1 and checks each one's
// checksum. Throws CheckpointError on every rank when any rank finds the file short, of another
// shape, or a patch damaged.
std::vector<double> readPatchValues(MPI_Comm comm, const std::filesystem::path& file,
                                    long long globalPatches, long long firstPatch, int count,
                                    int valuesPerPatch);

// The checkpoints of a run: folders checkpoint_<step, 8 digits> in one directory.
class CheckpointFolders {
public:
  CheckpointFolders(std::filesystem::path directory, int keep);

  // The temporary folder for a checkpoint at `step`, emptied; and its final name.
  std::filesystem::path begin(long long step) const;
  std::filesystem::path finalPath(long long step) const;
  // Renames the temporary folder to its final name (replacing a checkpoint of the same step) and
  // removes all but the newest `keep` complete checkpoints and any temporary folder left behind.
  void commit(long long step) const;
  // Removes the temporary folder of `step` if there is one (a write that failed or was stopped).
  void abandon(long long step) const;

  const std::filesystem::path& directory() const { return directory_; }

private:
  std::filesystem::path directory_;
  int keep_;
};

} // namespace tessera::io

#pragma once
// Checkpoint folders of a run, and the files in them that do not depend on the solver:
//   checkpoint.toml   what the checkpoint is (the case it belongs to, where the run stood, the
//                     output steps written so far) and the size and checksum of each data file;
//   state.bin         the state as records (a patch run's patches in forest order, an
//                     unstructured run's cells in the mesh's order) over all ranks, written and
//                     read collectively, each rank its own records, with one checksum a record,
//                     so that any rank count reads it back;
// beside the solver's own files (a patch run's p4est forest). A checkpoint is written into a folder
// with a temporary name, which is renamed once every file in it is complete: a folder with the
// final name is always a whole checkpoint, whatever stopped the writer.
#include <cstdint>
#include <filesystem>
#include <mpi.h>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::io {

// The state's file in every checkpoint folder.
inline constexpr const char* kStateFile = "state.bin";

// FNV-1a of `bytes` bytes, continuing from `hash`: the checksums of a checkpoint's files and
// records, and a fingerprint of what a checkpoint must share with its case (an unstructured mesh).
inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash = kFnvOffset);

// A checkpoint that cannot be read, is damaged, or belongs to another case; the message names the
// file and what is wrong.
class CheckpointError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct CheckpointInfo {
  // The case: a restart needs each fact to be the same, as text under the case file's key
  // (mesh.dimension = "3", physics.system = "euler", ...), in the order they are compared.
  std::vector<std::pair<std::string, std::string>> facts;
  // Where the run stood.
  double time = 0.0; // stored exactly (hexadecimal), so that the continued run is bitwise
  long long step = 0;
  long long outputsDone = 0;                          // output times passed (OutputSchedule)
  std::vector<std::pair<double, std::string>> series; // output steps written: time, .pvtu file
  long long records = 0;                              // the records in state.bin
  // What else the solver needs to go on as if it had not stopped, as text (doubles exactly,
  // through exactText): an implicit run's first residual, the face scatters' strategies, ...
  std::vector<std::pair<std::string, std::string>> solver;
  int ranks = 0;
  std::string backend; // "host" or "device", that wrote it (either restarts on either)
  std::string build;   // Tessera's version
  // The data files, by name: size in bytes and FNV-1a checksum (none for state.bin, which
  // carries one per record).
  struct DataFile {
    std::string name;
    std::uint64_t bytes = 0;
    bool hasChecksum = false;
    std::uint64_t checksum = 0;
  };
  std::vector<DataFile> files;

  // The solver value of that name; throws CheckpointError (naming `file`) where there is none.
  const std::string& solverValue(const std::filesystem::path& file, const std::string& name) const;
  // The same, or null where there is none (a value that checkpoints of earlier builds lack).
  const std::string* findSolverValue(const std::string& name) const;
};

// A double as text that reads back to the same bits (hexadecimal), and the way back (nullopt for
// text that is not one).
std::string exactText(double x);
std::optional<double> fromExactText(const std::string& text);

// Writes checkpoint.toml (through a temporary file).
void writeCheckpointInfo(const std::filesystem::path& file, const CheckpointInfo& info);
// Reads checkpoint.toml; throws CheckpointError naming the file and the key that is missing or
// malformed.
CheckpointInfo readCheckpointInfo(const std::filesystem::path& file);

// The size (and, asked for, the checksum) of a whole file, for CheckpointInfo::files.
CheckpointInfo::DataFile describeDataFile(const std::filesystem::path& file, bool withChecksum);
// Throws CheckpointError unless the file has the size (and checksum) recorded.
void verifyDataFile(const std::filesystem::path& folder, const CheckpointInfo::DataFile& recorded);

// Which of state.bin's records a rank holds: a range (a forest partition's patches) or the
// record indices of its values in the order they come (a mesh partition's owned cells).
struct RecordRange {
  long long first = 0;
  long long count = 0;
};
using RecordSelection = std::variant<RecordRange, std::span<const long long>>;

// Collective over comm: writes `values` (valuesPerRecord doubles for each selected record) into
// `file` at their places among globalRecords records, with a checksum for each record.
void writeStateRecords(MPI_Comm comm, const std::filesystem::path& file, long long globalRecords,
                       const RecordSelection& selection, int valuesPerRecord,
                       std::span<const double> values);

// Collective over comm: reads the selected records (in the selection's order) and checks each
// one's checksum. Throws CheckpointError on every rank when any rank finds the file short, of
// another shape, or a record damaged (naming it as a `recordName`: "patch", "cell").
std::vector<double> readStateRecords(MPI_Comm comm, const std::filesystem::path& file,
                                     long long globalRecords, const RecordSelection& selection,
                                     int valuesPerRecord, const char* recordName);

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

#include "io/checkpoint.hpp"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <regex>
#include <sstream>
#include <system_error>

#include "io/atomic_file.hpp"
#include "io/config.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kFnvPrime = 1099511628211ull;

// state.bin: a header, every record's values in order, then one checksum per record.
// checkpoint.toml's format: 2 since [case] and [solver] hold named facts and values.
constexpr int kInfoFormat = 2;

constexpr char kStateMagic[16] = "TESSERA-STATE-1";
struct StateHeader {
  char magic[16];
  std::uint64_t records;
  std::uint64_t valuesPerRecord;
  std::uint64_t reserved[4];
};
static_assert(sizeof(StateHeader) == 64);

constexpr MPI_Offset kValuesOffset = sizeof(StateHeader);
MPI_Offset checksumOffset(long long globalRecords, int valuesPerRecord) {
  return kValuesOffset + MPI_Offset(globalRecords) * valuesPerRecord * 8;
}

std::vector<std::uint64_t> recordChecksums(std::span<const double> values, int valuesPerRecord) {
  std::vector<std::uint64_t> sums(values.size() / std::size_t(valuesPerRecord));
  for (std::size_t r = 0; r < sums.size(); ++r)
    sums[r] = fnv1a(values.data() + r * std::size_t(valuesPerRecord),
                    std::size_t(valuesPerRecord) * sizeof(double));
  return sums;
}

// A rank's records in ascending order, and where each one's values are in the caller's order
// (empty where that is the ascending order already).
struct Placement {
  std::vector<long long> records;
  std::vector<std::size_t> callerIndex;
};
Placement placementOf(const RecordSelection& selection) {
  Placement p;
  if (const auto* range = std::get_if<RecordRange>(&selection)) {
    p.records.resize(std::size_t(range->count));
    std::iota(p.records.begin(), p.records.end(), range->first);
    return p;
  }
  const auto indices = std::get<std::span<const long long>>(selection);
  p.callerIndex.resize(indices.size());
  std::iota(p.callerIndex.begin(), p.callerIndex.end(), std::size_t(0));
  std::sort(p.callerIndex.begin(), p.callerIndex.end(),
            [&](std::size_t a, std::size_t b) { return indices[a] < indices[b]; });
  for (const std::size_t i : p.callerIndex)
    p.records.push_back(indices[i]);
  return p;
}

// MPI's derived types, freed with their owner.
struct OwnedType {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  OwnedType() = default;
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  ~OwnedType() {
    if (type != MPI_DATATYPE_NULL)
      MPI_Type_free(&type);
  }
};

// One record's values as one element: MPI-IO counts are ints, records fit where doubles might not.
void makeRecordType(OwnedType& t, int valuesPerRecord) {
  MPI_Type_contiguous(valuesPerRecord, MPI_DOUBLE, &t.type);
  MPI_Type_commit(&t.type);
}

// The file view of a rank's records among elements of `bytes` each: runs of consecutive records.
void makeViewType(OwnedType& t, const std::vector<long long>& records, MPI_Datatype element,
                  MPI_Aint bytes) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> starts;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (i > 0 && records[i] == records[i - 1] + 1) {
      ++lengths.back();
    } else {
      lengths.push_back(1);
      starts.push_back(MPI_Aint(records[i]) * bytes);
    }
  if (lengths.empty()) // a rank without records still joins the collective calls
    MPI_Type_contiguous(1, element, &t.type);
  else
    MPI_Type_create_hindexed(int(lengths.size()), lengths.data(), starts.data(), element, &t.type);
  MPI_Type_commit(&t.type);
}

// Collective: reads or writes (Io: MPI_File_read_all or MPI_File_write_all) a rank's records'
// values and checksums through file views.
template <class Io, class Values, class Sums>
bool transferRecords(MPI_File fh, Io io, long long globalRecords, int valuesPerRecord,
                     const std::vector<long long>& records, Values* values, Sums* sums, int count) {
  OwnedType record, valuesView, sumsView;
  makeRecordType(record, valuesPerRecord);
  makeViewType(valuesView, records, record.type, MPI_Aint(valuesPerRecord) * 8);
  makeViewType(sumsView, records, MPI_UINT64_T, 8);
  char native[] = "native";
  bool ok = MPI_File_set_view(fh, kValuesOffset, record.type, valuesView.type, native,
                              MPI_INFO_NULL) == MPI_SUCCESS;
  ok &= io(fh, values, count, record.type, MPI_STATUS_IGNORE) == MPI_SUCCESS;
  ok &= MPI_File_set_view(fh, checksumOffset(globalRecords, valuesPerRecord), MPI_UINT64_T,
                          sumsView.type, native, MPI_INFO_NULL) == MPI_SUCCESS;
  ok &= io(fh, sums, count, MPI_UINT64_T, MPI_STATUS_IGNORE) == MPI_SUCCESS;
  return ok;
}

std::string checkpointNameOf(long long step) {
  char name[32];
  std::snprintf(name, sizeof name, "checkpoint_%08lld", step);
  return name;
}

// A TOML basic string.
std::string quoted(const std::string& text) {
  std::string q = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
      q += escaped;
    } else {
      q += c;
    }
  }
  return q + "\"";
}

} // namespace

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i)
    hash = (hash ^ p[i]) * kFnvPrime;
  return hash;
}

std::string exactText(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

std::optional<double> fromExactText(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    return std::nullopt;
  return x;
}

const std::string& CheckpointInfo::solverValue(const fs::path& file,
                                               const std::string& name) const {
  if (const std::string* value = findSolverValue(name))
    return *value;
  throw CheckpointError(file.string() + ": damaged: solver." + name + " is missing");
}

const std::string* CheckpointInfo::findSolverValue(const std::string& name) const {
  for (const auto& [key, value] : solver)
    if (key == name)
      return &value;
  return nullptr;
}

void writeCheckpointInfo(const fs::path& file, const CheckpointInfo& info) {
  std::ostringstream out;
  out << "# A Tessera checkpoint: restart with `tessera run <case> --restart <this folder>`.\n"
      << "format = " << kInfoFormat << "\n"
      << "build = " << quoted(info.build) << "\n"
      << "backend = " << quoted(info.backend) << "\n"
      << "ranks = " << info.ranks << "\n\n[case]\n";
  for (const auto& [key, value] : info.facts)
    out << quoted(key) << " = " << quoted(value) << "\n";
  out << "\n[run]\n"
      << "time = \"" << exactText(info.time) << "\" # " << info.time << "\n"
      << "step = " << info.step << "\n"
      << "outputs_done = " << info.outputsDone << "\n"
      << "outputs_written = " << info.series.size() << "\n"
      << "records = " << info.records << "\n\n[solver]\n";
  for (const auto& [key, value] : info.solver)
    out << quoted(key) << " = " << quoted(value) << "\n";
  for (const auto& [time, name] : info.series)
    out << "\n[[output]]\ntime = \"" << exactText(time) << "\"\nfile = " << quoted(name) << "\n";
  for (const auto& f : info.files) {
    out << "\n[[file]]\nname = " << quoted(f.name) << "\nbytes = " << f.bytes << "\n";
    if (f.hasChecksum)
      out << "fnv1a = \"" << std::hex << f.checksum << std::dec << "\"\n";
  }
  writeFileAtomically(file, out.str());
}

CheckpointInfo readCheckpointInfo(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw CheckpointError(file.string() + ": not found: not a Tessera checkpoint folder");
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw CheckpointError(file.string() + ": damaged: " + std::string(e.description()));
  }
  const auto missing = [&](const std::string& key) {
    return CheckpointError(file.string() + ": damaged: " + key + " is missing or malformed");
  };
  const auto integer = [&](const char* key) {
    const auto v = table.at_path(key).value<long long>();
    if (!v)
      throw missing(key);
    return *v;
  };
  const auto text = [&](const char* key) {
    const auto v = table.at_path(key).value<std::string>();
    if (!v)
      throw missing(key);
    return *v;
  };
  const auto exact = [&](const std::string& key, const std::string& value) {
    const std::optional<double> x = fromExactText(value);
    if (!x)
      throw missing(key);
    return *x;
  };
  // A table of text values, in the file's order of keys.
  const auto texts = [&](const char* name) {
    std::vector<std::pair<std::string, std::string>> entries;
    const auto* section = table[name].as_table();
    if (!section)
      throw missing(name);
    for (const auto& [key, node] : *section) {
      const auto value = node.value<std::string>();
      if (!value)
        throw missing(std::string(name) + "." + std::string(key.str()));
      entries.emplace_back(std::string(key.str()), *value);
    }
    return entries;
  };
  if (integer("format") != kInfoFormat)
    throw CheckpointError(file.string() + ": format " + std::to_string(integer("format")) +
                          " is not the one this build reads (" + std::to_string(kInfoFormat) + ")");
  CheckpointInfo info;
  info.build = text("build");
  info.backend = text("backend");
  info.ranks = int(integer("ranks"));
  info.facts = texts("case");
  info.time = exact("run.time", text("run.time"));
  info.step = integer("run.step");
  info.outputsDone = integer("run.outputs_done");
  info.records = integer("run.records");
  info.solver = texts("solver");
  if (const auto* outputs = table["output"].as_array())
    for (const auto& node : *outputs) {
      const auto* entry = node.as_table();
      const auto time = entry ? (*entry)["time"].value<std::string>() : std::nullopt;
      const auto name = entry ? (*entry)["file"].value<std::string>() : std::nullopt;
      if (!time || !name)
        throw missing("output");
      info.series.emplace_back(exact("output.time", *time), *name);
    }
  // A series that lost entries would continue without those steps.
  if (const auto written = table.at_path("run.outputs_written").value<long long>();
      written && *written != (long long)info.series.size())
    throw CheckpointError(file.string() + ": damaged: it lists " +
                          std::to_string(info.series.size()) + " [[output]] steps, where " +
                          "run.outputs_written says " + std::to_string(*written));
  if (const auto* files = table["file"].as_array())
    for (const auto& node : *files) {
      const auto* entry = node.as_table();
      const auto name = entry ? (*entry)["name"].value<std::string>() : std::nullopt;
      const auto bytes = entry ? (*entry)["bytes"].value<long long>() : std::nullopt;
      if (!name || !bytes || *bytes < 0)
        throw missing("file");
      CheckpointInfo::DataFile f{*name, std::uint64_t(*bytes), false, 0};
      if (const auto sum = (*entry)["fnv1a"].value<std::string>()) {
        f.hasChecksum = true;
        f.checksum = std::strtoull(sum->c_str(), nullptr, 16);
      }
      info.files.push_back(f);
    }
  return info;
}

CheckpointInfo::DataFile describeDataFile(const fs::path& file, bool withChecksum) {
  CheckpointInfo::DataFile f{file.filename().string(), std::uint64_t(fs::file_size(file)),
                             withChecksum, kFnvOffset};
  if (withChecksum) {
    std::ifstream in(file, std::ios::binary);
    std::array<char, 1 << 16> buffer;
    while (in) {
      in.read(buffer.data(), buffer.size());
      f.checksum = fnv1a(buffer.data(), std::size_t(in.gcount()), f.checksum);
    }
  }
  return f;
}

void verifyDataFile(const fs::path& folder, const CheckpointInfo::DataFile& recorded) {
  const fs::path file = folder / recorded.name;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw CheckpointError(file.string() + ": missing from the checkpoint");
  const auto actual = describeDataFile(file, recorded.hasChecksum);
  if (actual.bytes != recorded.bytes)
    throw CheckpointError(file.string() + ": damaged: " + std::to_string(actual.bytes) +
                          " bytes where checkpoint.toml records " + std::to_string(recorded.bytes));
  if (recorded.hasChecksum && actual.checksum != recorded.checksum)
    throw CheckpointError(file.string() + ": damaged: its checksum differs from checkpoint.toml's");
}

void writeStateRecords(MPI_Comm comm, const fs::path& file, long long globalRecords,
                       const RecordSelection& selection, int valuesPerRecord,
                       std::span<const double> values) {
  const Placement placement = placementOf(selection);
  const std::size_t perRecord = std::size_t(valuesPerRecord);
  std::vector<double> ascending;
  if (!placement.callerIndex.empty()) {
    ascending.reserve(values.size());
    for (const std::size_t i : placement.callerIndex)
      ascending.insert(ascending.end(), values.begin() + std::ptrdiff_t(i * perRecord),
                       values.begin() + std::ptrdiff_t((i + 1) * perRecord));
    values = ascending;
  }
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_File fh;
  int failed = MPI_File_open(comm, file.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                             &fh) != MPI_SUCCESS;
  if (failed)
    throw std::runtime_error(file.string() + ": cannot create the checkpoint's state file");
  MPI_File_set_size(fh, 0);
  if (rank == 0) {
    StateHeader header{};
    std::memcpy(header.magic, kStateMagic, sizeof header.magic);
    header.records = std::uint64_t(globalRecords);
    header.valuesPerRecord = std::uint64_t(valuesPerRecord);
    failed |= MPI_File_write_at(fh, 0, &header, int(sizeof header), MPI_BYTE, MPI_STATUS_IGNORE) !=
              MPI_SUCCESS;
  }
  const std::vector<std::uint64_t> sums = recordChecksums(values, valuesPerRecord);
  const auto write = [](MPI_File f, const void* data, int n, MPI_Datatype type, MPI_Status* st) {
    return MPI_File_write_all(f, data, n, type, st);
  };
  failed |= !transferRecords(fh, write, globalRecords, valuesPerRecord, placement.records,
                             values.data(), sums.data(), int(placement.records.size()));
  failed |= MPI_File_sync(fh) != MPI_SUCCESS;
  MPI_File_close(&fh);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, comm);
  if (failed)
    throw std::runtime_error(file.string() + ": cannot write the checkpoint's state");
}

std::vector<double> readStateRecords(MPI_Comm comm, const fs::path& file, long long globalRecords,
                                     const RecordSelection& selection, int valuesPerRecord,
                                     const char* recordName) {
  // Each rank finds what it finds; the ranks then agree on the first problem, so that every rank
  // throws the same error.
  enum Problem : int { None = 0, Unreadable, Shape, Damaged };
  int problem = None;
  long long damaged = -1;
  const Placement placement = placementOf(selection);
  const std::size_t count = placement.records.size(), perRecord = std::size_t(valuesPerRecord);
  std::vector<double> values(count * perRecord);
  MPI_File fh;
  if (MPI_File_open(comm, file.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
    problem = Unreadable;
  } else {
    MPI_Offset size = 0;
    MPI_File_get_size(fh, &size);
    StateHeader header{};
    const MPI_Offset expected =
        checksumOffset(globalRecords, valuesPerRecord) + MPI_Offset(globalRecords) * 8;
    const bool inside = std::all_of(placement.records.begin(), placement.records.end(),
                                    [&](long long r) { return r >= 0 && r < globalRecords; });
    if (!inside || size != expected ||
        MPI_File_read_at(fh, 0, &header, int(sizeof header), MPI_BYTE, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS ||
        std::memcmp(header.magic, kStateMagic, sizeof header.magic) != 0 ||
        header.records != std::uint64_t(globalRecords) ||
        header.valuesPerRecord != std::uint64_t(valuesPerRecord))
      problem = Shape;
    // Every rank joins the collective reads, whatever it found.
    std::vector<std::uint64_t> sums(count, 0);
    const auto read = [](MPI_File f, void* data, int n, MPI_Datatype type, MPI_Status* st) {
      return MPI_File_read_all(f, data, n, type, st);
    };
    const std::vector<long long> none;
    if (!transferRecords(fh, read, globalRecords, valuesPerRecord,
                         problem == None ? placement.records : none, values.data(), sums.data(),
                         problem == None ? int(count) : 0) &&
        problem == None)
      problem = Unreadable;
    MPI_File_close(&fh);
    if (problem == None) {
      const std::vector<std::uint64_t> actual = recordChecksums(values, valuesPerRecord);
      for (std::size_t i = 0; i < count && damaged < 0; ++i)
        if (actual[i] != sums[i]) {
          problem = Damaged;
          damaged = placement.records[i];
        }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &problem, 1, MPI_INT, MPI_MAX, comm);
  if (problem == None) {
    if (placement.callerIndex.empty())
      return values;
    std::vector<double> inCallerOrder(values.size());
    for (std::size_t i = 0; i < count; ++i)
      std::copy_n(values.begin() + std::ptrdiff_t(i * perRecord), perRecord,
                  inCallerOrder.begin() + std::ptrdiff_t(placement.callerIndex[i] * perRecord));
    return inCallerOrder;
  }
  if (damaged < 0)
    damaged = globalRecords;
  MPI_Allreduce(MPI_IN_PLACE, &damaged, 1, MPI_LONG_LONG, MPI_MIN, comm);
  switch (problem) {
  case Unreadable:
    throw CheckpointError(file.string() + ": cannot be opened or read");
  case Shape:
    throw CheckpointError(file.string() + ": damaged: it does not hold " +
                          std::to_string(globalRecords) + " " + recordName + "s of " +
                          std::to_string(valuesPerRecord) + " values as checkpoint.toml says");
  default:
    throw CheckpointError(file.string() + ": damaged: " + recordName + " " +
                          std::to_string(damaged) + " does not match its checksum");
  }
}

CheckpointFolders::CheckpointFolders(fs::path directory, int keep)
    : directory_(std::move(directory)), keep_(std::max(1, keep)) {}

fs::path CheckpointFolders::finalPath(long long step) const {
  return directory_ / checkpointNameOf(step);
}

fs::path CheckpointFolders::begin(long long step) const {
  fs::path folder = finalPath(step);
  folder += ".tmp";
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

void CheckpointFolders::abandon(long long step) const {
  fs::path folder = finalPath(step);
  folder += ".tmp";
  std::error_code ignored;
  fs::remove_all(folder, ignored);
}

void CheckpointFolders::commit(long long step) const {
  fs::path temporary = finalPath(step);
  temporary += ".tmp";
  fs::remove_all(finalPath(step));
  fs::rename(temporary, finalPath(step));
  std::vector<fs::path> complete;
  const std::regex name("checkpoint_[0-9]{8}");
  for (const auto& entry : fs::directory_iterator(directory_)) {
    const std::string file = entry.path().filename().string();
    if (!entry.is_directory())
      continue;
    if (std::regex_match(file, name))
      complete.push_back(entry.path());
    else if (std::regex_match(file, std::regex("checkpoint_[0-9]{8}\\.tmp")))
      fs::remove_all(entry.path()); // left by a write that was killed
  }
  std::sort(complete.begin(), complete.end());
  for (std::size_t i = 0; i + std::size_t(keep_) < complete.size(); ++i)
    fs::remove_all(complete[i]);
}

} // namespace tessera::io

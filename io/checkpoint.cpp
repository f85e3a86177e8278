#include "io/checkpoint.hpp"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

#include "io/atomic_file.hpp"
#include "io/config.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull, kFnvPrime = 1099511628211ull;

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash = kFnvOffset) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i)
    hash = (hash ^ p[i]) * kFnvPrime;
  return hash;
}

// A double written so that reading it back gives the same bits.
std::string exactDouble(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

// state.bin: a header, every patch's values in forest order, then one checksum per patch.
constexpr char kStateMagic[16] = "TESSERA-STATE-1";
struct StateHeader {
  char magic[16];
  std::uint64_t globalPatches;
  std::uint64_t valuesPerPatch;
  std::uint64_t reserved[4];
};
static_assert(sizeof(StateHeader) == 64);

MPI_Offset valuesOffset(long long patch, int valuesPerPatch) {
  return MPI_Offset(sizeof(StateHeader)) + MPI_Offset(patch) * valuesPerPatch * 8;
}
MPI_Offset checksumOffset(long long globalPatches, int valuesPerPatch, long long patch) {
  return valuesOffset(globalPatches, valuesPerPatch) + MPI_Offset(patch) * 8;
}

std::vector<std::uint64_t> patchChecksums(std::span<const double> values, int valuesPerPatch) {
  std::vector<std::uint64_t> sums(values.size() / std::size_t(valuesPerPatch));
  for (std::size_t p = 0; p < sums.size(); ++p)
    sums[p] = fnv1a(values.data() + p * std::size_t(valuesPerPatch),
                    std::size_t(valuesPerPatch) * sizeof(double));
  return sums;
}

// MPI-IO calls take int counts: the values move as patches of one derived type.
struct PatchType {
  MPI_Datatype type;
  explicit PatchType(int valuesPerPatch) {
    MPI_Type_contiguous(valuesPerPatch, MPI_DOUBLE, &type);
    MPI_Type_commit(&type);
  }
  ~PatchType() { MPI_Type_free(&type); }
  PatchType(const PatchType&) = delete;
  PatchType& operator=(const PatchType&) = delete;
};

std::string checkpointNameOf(long long step) {
  char name[32];
  std::snprintf(name, sizeof name, "checkpoint_%08lld", step);
  return name;
}

} // namespace

void writeCheckpointInfo(const fs::path& file, const CheckpointInfo& info) {
  std::ostringstream out;
  out << "# A Tessera checkpoint: restart with `tessera run <case> --restart <this folder>`.\n"
      << "format = 1\n"
      << "build = \"" << info.build << "\"\n"
      << "backend = \"" << info.backend << "\"\n"
      << "ranks = " << info.ranks << "\n\n[case]\n"
      << "dimension = " << info.dimension << "\n"
      << "system = \"" << info.system << "\"\n"
      << "variables = " << info.numVars << "\n"
      << "cells_per_patch = " << info.cellsPerPatch << "\n"
      << "level0_patches = [";
  for (std::size_t a = 0; a < info.level0Patches.size(); ++a)
    out << (a ? ", " : "") << info.level0Patches[a];
  out << "]\n\n[run]\n"
      << "time = \"" << exactDouble(info.time) << "\" # " << info.time << "\n"
      << "step = " << info.step << "\n"
      << "outputs_done = " << info.outputsDone << "\n"
      << "patches = " << info.globalPatches << "\n";
  for (const auto& [time, name] : info.series)
    out << "\n[[output]]\ntime = \"" << exactDouble(time) << "\"\nfile = \"" << name << "\"\n";
  for (const auto& f : info.files) {
    out << "\n[[file]]\nname = \"" << f.name << "\"\nbytes = " << f.bytes << "\n";
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
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0')
      throw missing(key);
    return x;
  };
  if (integer("format") != 1)
    throw CheckpointError(file.string() + ": format " + std::to_string(integer("format")) +
                          " is not the one this build reads (1)");
  CheckpointInfo info;
  info.build = text("build");
  info.backend = text("backend");
  info.ranks = int(integer("ranks"));
  info.dimension = int(integer("case.dimension"));
  info.system = text("case.system");
  info.numVars = int(integer("case.variables"));
  info.cellsPerPatch = int(integer("case.cells_per_patch"));
  const auto* patches = table.at_path("case.level0_patches").as_array();
  if (!patches)
    throw missing("case.level0_patches");
  for (const auto& n : *patches) {
    const auto v = n.value<long long>();
    if (!v)
      throw missing("case.level0_patches");
    info.level0Patches.push_back(int(*v));
  }
  info.time = exact("run.time", text("run.time"));
  info.step = integer("run.step");
  info.outputsDone = integer("run.outputs_done");
  info.globalPatches = integer("run.patches");
  if (const auto* outputs = table["output"].as_array())
    for (const auto& node : *outputs) {
      const auto* entry = node.as_table();
      const auto time = entry ? (*entry)["time"].value<std::string>() : std::nullopt;
      const auto name = entry ? (*entry)["file"].value<std::string>() : std::nullopt;
      if (!time || !name)
        throw missing("output");
      info.series.emplace_back(exact("output.time", *time), *name);
    }
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

void writePatchValues(MPI_Comm comm, const fs::path& file, long long globalPatches,
                      long long firstPatch, int valuesPerPatch, std::span<const double> values) {
  const long long count = (long long)(values.size() / std::size_t(valuesPerPatch));
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
    header.globalPatches = std::uint64_t(globalPatches);
    header.valuesPerPatch = std::uint64_t(valuesPerPatch);
    failed |= MPI_File_write_at(fh, 0, &header, int(sizeof header), MPI_BYTE, MPI_STATUS_IGNORE) !=
              MPI_SUCCESS;
  }
  const PatchType patch(valuesPerPatch);
  const std::vector<std::uint64_t> sums = patchChecksums(values, valuesPerPatch);
  failed |= MPI_File_write_at_all(fh, valuesOffset(firstPatch, valuesPerPatch), values.data(),
                                  int(count), patch.type, MPI_STATUS_IGNORE) != MPI_SUCCESS;
  failed |= MPI_File_write_at_all(fh, checksumOffset(globalPatches, valuesPerPatch, firstPatch),
                                  sums.data(), int(count), MPI_UINT64_T,
                                  MPI_STATUS_IGNORE) != MPI_SUCCESS;
  failed |= MPI_File_sync(fh) != MPI_SUCCESS;
  MPI_File_close(&fh);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, comm);
  if (failed)
    throw std::runtime_error(file.string() + ": cannot write the checkpoint's state");
}

std::vector<double> readPatchValues(MPI_Comm comm, const fs::path& file, long long globalPatches,
                                    long long firstPatch, int count, int valuesPerPatch) {
  // Each rank finds what it finds; the ranks then agree on the first problem, so that every rank
  // throws the same error.
  enum Problem : int { None = 0, Unreadable, Shape, Damaged };
  int problem = None;
  long long damagedPatch = -1;
  std::vector<double> values(std::size_t(count) * std::size_t(valuesPerPatch));
  MPI_File fh;
  if (MPI_File_open(comm, file.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
    problem = Unreadable;
  } else {
    MPI_Offset size = 0;
    MPI_File_get_size(fh, &size);
    StateHeader header{};
    const MPI_Offset expected = checksumOffset(globalPatches, valuesPerPatch, globalPatches);
    if (size != expected ||
        MPI_File_read_at(fh, 0, &header, int(sizeof header), MPI_BYTE, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS ||
        std::memcmp(header.magic, kStateMagic, sizeof header.magic) != 0 ||
        header.globalPatches != std::uint64_t(globalPatches) ||
        header.valuesPerPatch != std::uint64_t(valuesPerPatch))
      problem = Shape;
    // Every rank joins the collective reads, whatever it found.
    const PatchType patch(valuesPerPatch);
    std::vector<std::uint64_t> sums(std::size_t(count), 0);
    const int n = problem == None ? count : 0;
    MPI_File_read_at_all(fh, valuesOffset(firstPatch, valuesPerPatch), values.data(), n, patch.type,
                         MPI_STATUS_IGNORE);
    MPI_File_read_at_all(fh, checksumOffset(globalPatches, valuesPerPatch, firstPatch), sums.data(),
                         n, MPI_UINT64_T, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    if (problem == None) {
      const std::vector<std::uint64_t> actual = patchChecksums(values, valuesPerPatch);
      for (int p = 0; p < count && damagedPatch < 0; ++p)
        if (actual[std::size_t(p)] != sums[std::size_t(p)]) {
          problem = Damaged;
          damagedPatch = firstPatch + p;
        }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &problem, 1, MPI_INT, MPI_MAX, comm);
  if (problem == None)
    return values;
  if (damagedPatch < 0)
    damagedPatch = globalPatches;
  MPI_Allreduce(MPI_IN_PLACE, &damagedPatch, 1, MPI_LONG_LONG, MPI_MIN, comm);
  switch (problem) {
  case Unreadable:
    throw CheckpointError(file.string() + ": cannot be opened");
  case Shape:
    throw CheckpointError(file.string() + ": damaged: it does not hold " +
                          std::to_string(globalPatches) + " patches of " +
                          std::to_string(valuesPerPatch) + " values as checkpoint.toml says");
  default:
    throw CheckpointError(file.string() + ": damaged: patch " + std::to_string(damagedPatch) +
                          " does not match its checksum");
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

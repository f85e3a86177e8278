// libFuzzer: a case file as the tessera program reads it, through the readers of the patch case
// (grid, scheme, boundary, initial data of every kind). A reader may refuse its input only with
// io::ConfigError; any other exception, a crash or a sanitizer report is a defect.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tools/tessera/case_reader.hpp"

namespace {

using namespace tessera;

template <int Dim>
void readPatchCase(io::Config& cfg) {
  const PatchScheme scheme = cli::readScheme<Euler<Dim>>(cfg);
  const UniformPatchGrid<Dim> grid =
      cli::readGrid<Dim>(cfg, Euler<Dim>::kNumVars, scheme.spatial.halo());
  const Euler<Dim> pde;
  cli::readBoundary<Dim>(cfg, [&] {
    const auto q = pde.toConserved(cli::readEulerPrimitive<Dim>(cfg, "boundary.inflow"));
    return std::vector<double>(q.v, q.v + Euler<Dim>::kNumVars);
  });
  cli::readRiemann<Dim>(cfg, pde, grid.lower(), grid.upper());
  cli::readPulse<Dim>(cfg, grid);
  cfg.rejectUnreadKeys();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    io::Config cfg = io::Config::fromString(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
    if (cfg.getInt("mesh.dimension", 2, io::Range::closed(2, 3)) == 2)
      readPatchCase<2>(cfg);
    else
      readPatchCase<3>(cfg);
  } catch (const io::ConfigError&) {
  }
  return 0;
}

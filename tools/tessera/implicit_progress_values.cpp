#include "tools/tessera/implicit_progress_values.hpp"

#include <cstddef>
#include <optional>
#include <type_traits>

namespace tessera::cli {
namespace {

enum class Presence { Always, SinceALaterBuild };

// Calls field(key, value, presence) for each value of the progress, value a reference to its
// double, int or bool member.
template <class Progress, class Field>
void eachValue(Progress& p, Field&& field) {
  field("first_residual", p.firstResidual, Presence::Always);
  field("cfl_scale", p.cflScale, Presence::Always);
  field("halved_residual", p.stall.halvedResidual, Presence::Always);
  field("halved_at", p.stall.halvedAt, Presence::Always);
  field("lowest_residual", p.stall.lowestResidual, Presence::SinceALaterBuild);
  field("lowest_at", p.stall.lowestAt, Presence::SinceALaterBuild);
  field("first_drop_at", p.stall.firstDropAt, Presence::SinceALaterBuild);
  field("lowest_halvings", p.stall.lowestHalvings, Presence::SinceALaterBuild);
  field("residuals_observed", p.stall.observed, Presence::SinceALaterBuild);
  for (std::size_t i = 0; i < p.stall.recent.size(); ++i)
    field("recent_residual_" + std::to_string(i), p.stall.recent[i], Presence::SinceALaterBuild);
  field("limiter_frozen", p.limiterFrozen, Presence::Always);
  field("last_residual", p.lastResidual, Presence::SinceALaterBuild);
  field("grow_pending", p.growPending, Presence::SinceALaterBuild);
  field("frozen_residual", p.frozenResidual, Presence::SinceALaterBuild);
  field("refreshes_over", p.refreshesOver, Presence::SinceALaterBuild);
  field("preconditioner_sweeps", p.preconditionerSweeps, Presence::SinceALaterBuild);
  field("first_order_done", p.firstOrderDone, Presence::SinceALaterBuild);
}

} // namespace

std::vector<std::pair<std::string, std::string>>
implicitProgressValues(const ImplicitProgress& progress) {
  std::vector<std::pair<std::string, std::string>> values;
  eachValue(progress, [&](const std::string& key, const auto& value, Presence) {
    values.emplace_back(key, io::exactText(double(value)));
  });
  return values;
}

ImplicitProgress implicitProgressFrom(const io::CheckpointInfo& info,
                                      const std::filesystem::path& file) {
  ImplicitProgress progress;
  progress.iteration = int(info.step);
  eachValue(progress, [&](const std::string& key, auto& value, Presence presence) {
    if (presence == Presence::SinceALaterBuild && !info.findSolverValue(key))
      return;
    const std::optional<double> x = io::fromExactText(info.solverValue(file, key));
    if (!x)
      throw io::CheckpointError(file.string() + ": damaged: solver." + key + " is no number");
    using Value = std::remove_reference_t<decltype(value)>;
    if constexpr (std::is_same_v<Value, bool>)
      value = *x != 0.0;
    else
      value = Value(*x);
  });
  return progress;
}

} // namespace tessera::cli

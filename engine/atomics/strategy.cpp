#include "engine/atomics/strategy.hpp"

#include <string>

namespace tessera::atomics {
namespace {

constexpr std::array<std::string_view, kAllStrategies.size()> kNames = {"global_atomic",
                                                                        "smem_transpose",
                                                                        "warp_aggregate_sorted",
                                                                        "warp_aggregate_unsorted",
                                                                        "shuffle_transpose",
                                                                        "hybrid",
                                                                        "coloring",
                                                                        "gather"};

} // namespace

std::string_view strategyName(Strategy s) {
  return kNames[static_cast<std::size_t>(s)];
}

std::optional<Strategy> parseStrategy(std::string_view name) {
  for (Strategy s : kAllStrategies)
    if (strategyName(s) == name)
      return s;
  return std::nullopt;
}

std::string_view strategyNameList() {
  return "global_atomic, smem_transpose, warp_aggregate_sorted, warp_aggregate_unsorted, "
         "shuffle_transpose, hybrid, coloring, gather";
}

std::string unsupportedShuffleMessage(int k) {
  std::string text = "shuffle_transpose: K = ";
  text += std::to_string(k);
  text += " is neither odd nor a power of two no larger than the warp";
  return text;
}

} // namespace tessera::atomics

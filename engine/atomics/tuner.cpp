#include "engine/atomics/tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "engine/memory.hpp"

namespace tessera::atomics {

TunerChoice tuneStrategy(std::span<const Strategy> candidates,
                         const std::function<void(Strategy)>& run, int repetitions,
                         double timedSeconds, const SlowestRank& slowestRank) {
  if (candidates.empty())
    throw std::invalid_argument("tuneStrategy: no candidate strategies");
  if (repetitions < 1)
    throw std::invalid_argument("tuneStrategy: repetitions must be at least 1");
  TunerChoice choice;
  const auto timedRun = [&](Strategy s) {
    const auto start = std::chrono::steady_clock::now();
    run(s);
    synchronizeDevice();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (Strategy s : candidates) {
    const double untimed = slowestRank ? slowestRank(timedRun(s)) : timedRun(s);
    const int timed = untimed * repetitions <= timedSeconds
                          ? repetitions
                          : std::max(1, int(timedSeconds / untimed));
    std::vector<double> seconds(static_cast<std::size_t>(timed));
    for (double& t : seconds)
      t = timedRun(s);
    std::nth_element(seconds.begin(), seconds.begin() + timed / 2, seconds.end());
    choice.medianSeconds.emplace_back(s, seconds[std::size_t(timed / 2)]);
  }
  choice.strategy =
      std::min_element(choice.medianSeconds.begin(), choice.medianSeconds.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; })
          ->first;
  return choice;
}

std::string describe(const TunerChoice& choice) {
  std::string text = "picked ";
  text += strategyName(choice.strategy);
  if (choice.forced)
    return text + " (forced)";
  text += ":";
  for (const auto& [s, t] : choice.medianSeconds) {
    char ms[32];
    std::snprintf(ms, sizeof ms, " %.3f ms", t * 1e3);
    text += ' ';
    text += strategyName(s);
    text += ms;
    text += ',';
  }
  text.pop_back();
  return text;
}

} // namespace tessera::atomics

#pragma once
// Where a regrid spends its time: the criterion's flags, the forest's adapt and balance, the
// remap onto the new patches, the adapted forest's repartition (which moves its leaves), the
// migration of the patches' data that change rank, the new plans built on the host, and the
// solver's move onto them (uploads). The repartition runs beside a step; the migration, as the
// remap and the remesh, moves the data and cannot. AmrSolver adds them up; the run log
// reports them. On a device the remap's kernels run while the host builds the plans, so `remap`
// holds their launch and `remesh` the wait for what is left of them. A regrid that overlaps a step
// (AmrSolver) adapts the forest and builds the plans while the device takes it: `overlapped` is
// the part of that host time before the device finished the step, which costs the run nothing and
// is not in total(). `exposedStages` splits the rest of that host time, what came after the device
// had finished the step it ran beside, by the adapt's stage (AmrSolver::kAdaptStages: the forest
// adapted; the remap plan, repartition and plans; the halo plans): the stage that outlasts its
// step.
#include <array>
#include <cstddef>

namespace tessera {

struct RegridTimes {
  double flags = 0.0;
  double forest = 0.0;
  double remap = 0.0;
  double partition = 0.0;
  double migration = 0.0;
  double plans = 0.0;
  double remesh = 0.0;
  double overlapped = 0.0; // of forest, partition and plans
  std::array<double, 3> exposedStages{};
  // What the regrids added to the run.
  double total() const {
    return flags + forest + remap + partition + migration + plans + remesh - overlapped;
  }
  // The time spent since `start` (an earlier reading of the same sums).
  RegridTimes since(const RegridTimes& start) const {
    RegridTimes d{flags - start.flags,         forest - start.forest,        remap - start.remap,
                  partition - start.partition, migration - start.migration,  plans - start.plans,
                  remesh - start.remesh,       overlapped - start.overlapped};
    for (std::size_t i = 0; i < exposedStages.size(); ++i)
      d.exposedStages[i] = exposedStages[i] - start.exposedStages[i];
    return d;
  }
};

} // namespace tessera

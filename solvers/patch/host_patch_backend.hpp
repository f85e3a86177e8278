#pragma once
// The host back end of a PatchSolver (patch_backend.hpp): the host twins of every kernel.
#include <span>
#include <vector>

#include "engine/mpi/halo_pack.hpp"
#include "engine/parallel_for.hpp"
#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/remap.hpp"
#include "solvers/patch/fused_update_host.hpp"
#include "solvers/patch/patch_backend.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/source_terms.hpp"
#include "solvers/patch/time_step.hpp"

namespace tessera {

template <ConservationLaw PDE>
class HostPatchBackend final : public PatchBackend<PDE> {
public:
  static constexpr int kDim = PDE::kDim;

  HostPatchBackend(const PDE& pde, const PatchLayout<kDim>& layout, const ReflectionParity& parity,
                   const SpatialScheme& scheme)
      : pde_(pde), layout_(layout), parity_(parity), scheme_(scheme) {}

  // The host twins read every halo cell from the halo.
  bool readsFaceLinks() const override { return false; }
  void setPatches(const PatchSet<kDim>& patches) override { set_ = patches; }

  // Every fill writes the patches' halos, whoever reads them.
  void fillHalos(HaloPart part, double* data, HaloReader) override {
    const HaloPlan<kDim>& plan = part == HaloPart::Inner   ? *set_.innerOps
                                 : part == HaloPart::Outer ? *set_.outerOps
                                                           : set_.unreadOps();
    tessera::fillHalos(plan, layout_, parity_, data);
  }

  void update(const double* in, double* out, const StageWeights& stage, PatchGroup group,
              double* fluxRegister, double* patchLambda, const UpdateCriterion* criterion,
              HaloReader) override {
    const std::span<const int> listed = group == PatchGroup::All     ? std::span<const int>()
                                        : group == PatchGroup::Inner ? set_.inner
                                                                     : set_.outer;
    const int count = group == PatchGroup::All ? set_.numPatches() : int(listed.size());
    if (count == 0)
      return;
    if (criterion) // the device's twin evaluates it inside its first-order update
      forEachPatch(count, [&](int k) {
        const int p = listed.empty() ? k : listed[k];
        criterion->flags[p] = patchFlagHost(pde_, layout_, criterion->criterion, in, p);
      });
    fusedUpdateHost(pde_, scheme_, layout_, set_.geometry, in, out, stage, patchLambda,
                    fluxRegister, listed, &fallbacks_);
  }

  void reflux(const double* fluxRegister, double dt, double* out, double* patchLambda) override {
    tessera::reflux<kDim>(set_.reflux, layout_, set_.geometry, fluxRegister, dt, out);
    maxEigenvaluesHost(pde_, layout_, set_.refluxed, out, patchLambda);
  }

  void addSource(const double* in, double* out, double weight, double time,
                 const double* residual) override {
    forEachPatchCell(
        set_.numPatches(), layout_.interiorCells(),
        AddSourceBody<PDE>{pde_, layout_, set_.geometry.data(), in, out, weight, time, residual});
  }

  void equilibriumResidual(const double* equilibrium, const double* stepped, double dt, double time,
                           double* residual) override {
    forEachPatchCell(set_.numPatches(), layout_.interiorCells(),
                     EquilibriumResidualBody<PDE>{pde_, layout_, set_.geometry.data(), equilibrium,
                                                  stepped, dt, time, residual});
  }

  void eigenvalues(const double* data, double* patchLambda, std::span<const int> keptFrom,
                   const double* keptLambda) override {
    maxEigenvaluesHost(pde_, layout_, set_.numPatches(), data, patchLambda, keptFrom, keptLambda);
  }

  double timeStep(double cfl, const double* patchLambda,
                  const std::function<void()>& beside) override {
    const double dt = stableTimeStep<kDim>(
        cfl, std::span<const double>(patchLambda, std::size_t(set_.numPatches())), set_.geometry);
    if (beside)
      beside();
    return dt;
  }

  std::vector<amr::AdaptFlag> refinementFlags(const amr::IndicatorCriterion& criterion,
                                              const double* data) override {
    return refinementFlagsHost(pde_, layout_, criterion, data, set_.numPatches());
  }

  void remap(const std::vector<RemapOp<kDim>>& ops, const double* from, double* to) override {
    remapPatchData<kDim>(layout_, ops, from, to);
  }

  void scatter(std::span<const double> values, std::span<const int> items, double* data) override {
    mpi::unpackHaloValues(values.data(), items, mpi::ItemLayout{}, data);
  }

  void wait() override {}
  long long firstOrderFallbacks() const override { return fallbacks_; }

private:
  PDE pde_;
  PatchLayout<kDim> layout_;
  ReflectionParity parity_;
  SpatialScheme scheme_;
  PatchSet<kDim> set_;
  long long fallbacks_ = 0;
};

} // namespace tessera

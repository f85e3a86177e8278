#pragma once
// The device back end of a PatchSolver (patch_backend.hpp): the plans and geometry uploaded once
// per mesh, every kernel launched on the device, and only dt (and a regrid's flags) back to the
// host. Device builds only (PatchSolver builds one where compiledDeviceBackend() says so).
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/halo_pack_device.hpp"
#include "patches/flux_register_device.hpp"
#include "patches/halo_plan_device.hpp"
#include "patches/remap_device.hpp"
#include "patches/x_face_buffer.hpp"
#include "solvers/patch/fused_update_device.hpp"
#include "solvers/patch/patch_backend.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/reflux_device.hpp"
#include "solvers/patch/rusanov_update_device.hpp"
#include "solvers/patch/source_device.hpp"
#include "solvers/patch/time_step_device.hpp"

namespace tessera {

template <ConservationLaw PDE>
class DevicePatchBackend final : public PatchBackend<PDE> {
public:
  static constexpr int kDim = PDE::kDim;

  // buffersXFaces: the fills for the update put the x faces between levels into a buffer that
  // the update reads (patches/x_face_buffer.hpp); for runs whose every stage is the first-order
  // forward-Euler step, whose kernel alone reads the buffer.
  DevicePatchBackend(const PDE& pde, const PatchLayout<kDim>& layout,
                     const ReflectionParity& parity, const SpatialScheme& scheme,
                     bool buffersXFaces)
      : pde_(pde), layout_(layout), parity_(parity), scheme_(scheme),
        buffersXFaces_(buffersXFaces) {
    fallbacks_.copyFromHost(std::vector<unsigned long long>{0});
  }

  // The fused update, the criteria and prolongation read same-level faces from the neighbours.
  bool readsFaceLinks() const override { return true; }
  void setPatches(const PatchSet<kDim>& patches) override {
    numPatches_ = patches.numPatches();
    // Every plan is uploaded without waiting for the queued kernels (DeviceArray::uploaded): after
    // a regrid, while the remap kernel runs.
    geometry_ = DeviceArray<PatchGeometry<kDim>>::uploaded(patches.geometry);
    XFaceSlots<kDim> slots(buffersXFaces_ ? numPatches_ : 0);
    const auto opSlots = [&](const HaloPlan<kDim>& plan) {
      return buffersXFaces_ ? slots.assign(plan, layout_) : std::vector<int>{};
    };
    innerHalo_ =
        DeviceHaloPlan<kDim>(*patches.innerOps, layout_, parity_, opSlots(*patches.innerOps));
    outerHalo_ =
        DeviceHaloPlan<kDim>(*patches.outerOps, layout_, parity_, opSlots(*patches.outerOps));
    xFaceSlots_ = DeviceArray<int>();
    xFaceBuffer_ = DeviceArray<double>();
    if (slots.count() > 0) {
      xFaceSlots_ = DeviceArray<int>::uploaded(slots.ofFace());
      xFaceBuffer_ = DeviceArray<double>(std::size_t(slots.count()) * std::size_t(layout_.numVars) *
                                             xFaceCells(layout_),
                                         MemorySpace::Device);
    }
    // Most of the plan, and only output and a user's criterion need it: uploaded when asked for.
    unreadOps_ = patches.unreadOps;
    unreadHalo_.reset();
    faceLinks_ = DeviceArray<int>::uploaded(patches.faceLinks);
    // Other ranks read every face of the register (their coarse patches, this rank's fine ones).
    reflux_ = DeviceRefluxPlan<kDim>(patches.reflux, numPatches_, patches.distributed);
    innerCount_ = int(patches.inner.size());
    outerCount_ = int(patches.outer.size());
    if (patches.distributed) {
      innerPatches_ = DeviceArray<int>::uploaded(patches.inner);
      outerPatches_ = DeviceArray<int>::uploaded(patches.outer);
    }
  }

  void fillHalos(HaloPart part, double* data, HaloReader reader) override {
    if (part == HaloPart::Unread && !unreadHalo_)
      unreadHalo_.emplace(unreadOps_(), layout_, parity_);
    (part == HaloPart::Inner   ? innerHalo_
     : part == HaloPart::Outer ? outerHalo_
                               : *unreadHalo_)
        .fill(data, reader == HaloReader::Update ? xFaceBuffer_.data() : nullptr);
  }

  void update(const double* in, double* out, const StageWeights& stage, PatchGroup group,
              double* fluxRegister, double* patchLambda, const UpdateCriterion* criterion,
              HaloReader filledFor) override {
    const int count = group == PatchGroup::All     ? numPatches_
                      : group == PatchGroup::Inner ? innerCount_
                                                   : outerCount_;
    if (count == 0)
      return;
    const int* listed = group == PatchGroup::All     ? nullptr
                        : group == PatchGroup::Inner ? innerPatches_.data()
                                                     : outerPatches_.data();
    fusedUpdateDevice(pde_, scheme_, layout_, geometry_.data(), count, in, out, stage, patchLambda,
                      fluxRegister, listed, fallbacks_.data(),
                      faceLinks_.size() > 0 ? faceLinks_.data() : nullptr, criterion,
                      reflux_.refluxFaces(),
                      filledFor == HaloReader::Update && xFaceSlots_.size() > 0
                          ? XFaceBufferView{xFaceSlots_.data(), xFaceBuffer_.data()}
                          : XFaceBufferView{});
  }

  void reflux(const double* fluxRegister, double dt, double* out, double* patchLambda) override {
    refluxDevice(pde_, layout_, reflux_.view(), geometry_.data(), fluxRegister, dt, out,
                 patchLambda);
  }

  void addSource(const double* in, double* out, double weight, double time,
                 const double* residual) override {
    addSourceDevice(pde_, layout_, geometry_.data(), numPatches_, in, out, weight, time, residual);
  }

  void equilibriumResidual(const double* equilibrium, const double* stepped, double dt, double time,
                           double* residual) override {
    equilibriumResidualDevice(pde_, layout_, geometry_.data(), numPatches_, equilibrium, stepped,
                              dt, time, residual);
  }

  void eigenvalues(const double* data, double* patchLambda, std::span<const int> keptFrom,
                   const double* keptLambda) override {
    const DeviceArray<int> kept = DeviceArray<int>::uploaded(keptFrom);
    maxEigenvaluesDevice(pde_, layout_, numPatches_, data, patchLambda,
                         kept.size() > 0 ? kept.data() : nullptr, keptLambda);
  }

  double timeStep(double cfl, const double* patchLambda,
                  const std::function<void()>& beside) override {
    return timeStep_(cfl, patchLambda, geometry_.data(), numPatches_, beside);
  }

  std::vector<amr::AdaptFlag> refinementFlags(const amr::IndicatorCriterion& criterion,
                                              const double* data) override {
    std::vector<amr::AdaptFlag> flags(static_cast<std::size_t>(numPatches_));
    DeviceArray<amr::AdaptFlag> onDevice(flags.size(), MemorySpace::Device);
    refinementFlagsDevice(pde_, layout_, criterion, data, numPatches_, onDevice.data(),
                          faceLinks_.size() > 0 ? faceLinks_.data() : nullptr);
    onDevice.copyToHost(flags);
    return flags;
  }

  void remap(const std::vector<RemapOp<kDim>>& ops, const double* from, double* to) override {
    remapPatchDataDevice<kDim>(layout_, toDevice(ops), from, to,
                               faceLinks_.size() > 0 ? faceLinks_.data() : nullptr);
  }

  void scatter(std::span<const double> values, std::span<const int> items, double* data) override {
    const DeviceArray<double> onDevice =
        toDevice(std::vector<double>(values.begin(), values.end()));
    const DeviceArray<int> at = toDevice(std::vector<int>(items.begin(), items.end()));
    mpi::unpackHaloValuesDevice(onDevice.data(), at.data(), int(items.size()), mpi::ItemLayout{},
                                data);
    synchronizeDevice(); // the uploads are freed on return
  }

  void wait() override { synchronizeDevice(); }

  long long firstOrderFallbacks() const override {
    std::vector<unsigned long long> count(1);
    fallbacks_.copyToHost(count);
    return (long long)count[0];
  }

private:
  PDE pde_;
  PatchLayout<kDim> layout_;
  ReflectionParity parity_;
  SpatialScheme scheme_;
  bool buffersXFaces_ = false;
  int numPatches_ = 0, innerCount_ = 0, outerCount_ = 0;
  DeviceArray<PatchGeometry<kDim>> geometry_;
  DeviceHaloPlan<kDim> innerHalo_, outerHalo_;
  DeviceArray<int> xFaceSlots_;     // XFaceSlots::ofFace of the owned patches, or empty
  DeviceArray<double> xFaceBuffer_; // written by the fills for the update
  std::function<const HaloPlan<kDim>&()> unreadOps_; // the solver's, until the next setPatches
  std::optional<DeviceHaloPlan<kDim>> unreadHalo_;
  DeviceArray<int> faceLinks_; // FaceLinks::neighbour
  DeviceRefluxPlan<kDim> reflux_;
  DeviceArray<int> innerPatches_, outerPatches_; // the parts' patch lists, with ghosts only
  DeviceTimeStep<kDim> timeStep_;
  DeviceArray<unsigned long long> fallbacks_{1, MemorySpace::Device};
};

} // namespace tessera

#pragma once
// DeviceRefluxPlan<Dim>: a reflux plan uploaded to the device, arranged for one block per coarse
// face it corrects (refluxDevice, solvers/patch/reflux_device.hpp): the coarse patches, for each
// of them, face and part of the face the operation that covers it, the corrected faces, and for
// every patch the faces refluxing corrects, which the update leaves out of the patch's eigenvalue,
// and those whose fluxes it reads, the only ones the update writes to the flux register. Built on
// the host after each adapt (the solver replaces it); the host twin is reflux, and both compute a
// face cell with refluxFaceCell and refluxCorrection (reflux_cell.hpp).
#include <span>

#include "engine/device_array.hpp"
#include "patches/flux_register.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

// What a kernel reads of a DeviceRefluxPlan: device pointers.
template <int Dim>
struct RefluxPlanView {
  // The parts of a coarse face that one fine patch covers (RefluxOp::child, refluxFacePart).
  static constexpr int kParts = 1 << (Dim - 1);

  const RefluxOp<Dim>* ops = nullptr;
  const int* coarsePatches = nullptr; // the patches the plan corrects, sorted and unique
  // [coarse patch k][face 2 a + s][part]: the operation (an index into ops) covering that part of
  // the face of coarsePatches[k], or -1.
  const int* faceOps = nullptr;
  // For every patch, its corrected and registered faces (reflux_cell.hpp: correctedFaces,
  // registersFace).
  const int* refluxFaces = nullptr;
  // The corrected faces, k * 2 Dim + f for face f of coarsePatches[k], sorted: a block each.
  const int* faces = nullptr;
  int numFaces = 0;
};

template <int Dim>
class DeviceRefluxPlan {
public:
  DeviceRefluxPlan() = default;
  // The plan of patches 0 .. numPatches - 1 (every coarse patch it names among them; a finer
  // patch past them is a ghost, whose fluxes come from its rank). With registerEveryFace every
  // face of every patch is registered: other ranks read them. Throws std::invalid_argument where
  // two operations cover one part of a face.
  DeviceRefluxPlan(std::span<const RefluxOp<Dim>> plan, int numPatches,
                   bool registerEveryFace = false);

  RefluxPlanView<Dim> view() const {
    return {ops_.data(),         coarsePatches_.data(), faceOps_.data(),
            refluxFaces_.data(), faces_.data(),         int(faces_.size())};
  }
  // Per patch, the faces refluxing corrects and those it reads from the flux register
  // (RefluxPlanView::refluxFaces); null for an empty plan, where none is corrected and an update
  // that keeps fluxes (for other ranks) keeps them all.
  const int* refluxFaces() const {
    return coarsePatches_.size() > 0 ? refluxFaces_.data() : nullptr;
  }
  int numCoarsePatches() const { return int(coarsePatches_.size()); }
  int numOps() const { return int(ops_.size()); }

private:
  DeviceArray<RefluxOp<Dim>> ops_;
  DeviceArray<int> coarsePatches_, faceOps_, refluxFaces_, faces_;
};

} // namespace tessera

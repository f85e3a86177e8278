#include "patches/flux_register_device.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "patches/reflux_cell.hpp"

namespace tessera {

template <int Dim>
DeviceRefluxPlan<Dim>::DeviceRefluxPlan(std::span<const RefluxOp<Dim>> plan, int numPatches,
                                        bool registerEveryFace) {
  constexpr int kParts = RefluxPlanView<Dim>::kParts;
  std::vector<int> coarse;
  coarse.reserve(plan.size());
  for (const RefluxOp<Dim>& op : plan)
    coarse.push_back(op.coarsePatch);
  std::sort(coarse.begin(), coarse.end());
  coarse.erase(std::unique(coarse.begin(), coarse.end()), coarse.end());

  std::vector<int> faceOps(coarse.size() * 2 * Dim * kParts, -1);
  std::vector<int> refluxFaces(std::size_t(numPatches),
                               registerEveryFace ? kEveryFaceRegistered<Dim> : 0);
  for (std::size_t o = 0; o < plan.size(); ++o) {
    const RefluxOp<Dim>& op = plan[o];
    if (op.coarsePatch < 0 || op.coarsePatch >= numPatches)
      throw std::invalid_argument("DeviceRefluxPlan: coarse patch " +
                                  std::to_string(op.coarsePatch) + " of " +
                                  std::to_string(numPatches) + " patches");
    const std::size_t k = std::size_t(
        std::lower_bound(coarse.begin(), coarse.end(), op.coarsePatch) - coarse.begin());
    const int face = 2 * op.axis + op.side;
    int part = 0;
    for (int a = 0, m = 0; a < Dim; ++a)
      if (a != op.axis)
        part |= op.child[a] << m++;
    int& entry = faceOps[(k * 2 * Dim + std::size_t(face)) * kParts + std::size_t(part)];
    if (entry >= 0)
      throw std::invalid_argument("DeviceRefluxPlan: two operations cover part " +
                                  std::to_string(part) + " of face " + std::to_string(face) +
                                  " of patch " + std::to_string(op.coarsePatch));
    entry = int(o);
    refluxFaces[std::size_t(op.coarsePatch)] |= 1 << face | 1 << (kRegisteredFaceBit + face);
    if (op.finePatch < numPatches) // the finer patch's face across: its fluxes, averaged
      refluxFaces[std::size_t(op.finePatch)] |= 1 << (kRegisteredFaceBit + (face ^ 1));
  }
  std::vector<int> faces;
  for (std::size_t k = 0; k < coarse.size(); ++k)
    for (int face = 0; face < 2 * Dim; ++face)
      if (refluxFaces[std::size_t(coarse[k])] >> face & 1)
        faces.push_back(int(k) * 2 * Dim + face);
  ops_ = toDevice(std::vector<RefluxOp<Dim>>(plan.begin(), plan.end()));
  faces_ = toDevice(faces);
  coarsePatches_ = toDevice(coarse);
  faceOps_ = toDevice(faceOps);
  refluxFaces_ = toDevice(refluxFaces);
}

template class DeviceRefluxPlan<2>;
template class DeviceRefluxPlan<3>;

} // namespace tessera

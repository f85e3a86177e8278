// remapPatchDataDevice: one thread block per new patch (forEachPatchCellDevice), threads striding
// over its interior cells (x fastest: coalesced), each thread writing every variable of its cell.
#include "engine/parallel_for_device.hpp"
#include "patches/face_links.hpp"
#include "patches/prolong_restrict.hpp"
#include "patches/remap_device.hpp"

namespace tessera {
namespace {

template <int Dim>
struct RemapCell {
  PatchLayout<Dim> layout;
  const RemapOp<Dim>* plan;
  const double* oldData;
  double* newData;
  const int* faceLinks; // of the old patches

  TESSERA_HOST_DEVICE void operator()(int p, int n) const {
    const RemapOp<Dim>& op = plan[p];
    const CellIndex<Dim> c = layout.interiorCell(n);
    int source = op.sources[0];
    Vec<int, Dim> child = op.child;
    if (op.kind == RemapKind::Restrict) { // the old child patch that covers cell c
      const int half = layout.cellsPerAxis / 2;
      int k = 0;
      for (int a = 0; a < Dim; ++a) {
        child[a] = c[a] / half;
        k |= child[a] << a;
      }
      source = op.sources[k];
    }
    std::ptrdiff_t faceShift[2 * Dim] = {};
    if (op.kind == RemapKind::Prolong)
      for (int f = 0; f < 2 * Dim; ++f)
        faceShift[f] = faceLinkShift(layout, faceLinks, source, f);
    for (int v = 0; v < layout.numVars; ++v) {
      const double* from = oldData + layout.varOffset(source, v);
      double value;
      switch (op.kind) {
      case RemapKind::Copy:
        value = from[layout.cellOffset(c)];
        break;
      case RemapKind::Prolong:
        value = prolongedValue(layout, from, child, c, faceShift);
        break;
      default:
        value = restrictedValue(layout, from, child, c);
        break;
      }
      newData[layout.index(p, v, c)] = value;
    }
  }
};

} // namespace

template <int Dim>
void remapPatchDataDevice(const PatchLayout<Dim>& layout, const DeviceArray<RemapOp<Dim>>& plan,
                          const double* oldData, double* newData, const int* faceLinks) {
  forEachPatchCellDevice(int(plan.size()), layout.interiorCells(),
                         RemapCell<Dim>{layout, plan.data(), oldData, newData, faceLinks});
}

template void remapPatchDataDevice(const PatchLayout<2>&, const DeviceArray<RemapOp<2>>&,
                                   const double*, double*, const int*);
template void remapPatchDataDevice(const PatchLayout<3>&, const DeviceArray<RemapOp<3>>&,
                                   const double*, double*, const int*);

} // namespace tessera

#pragma once
// Donor-cell (first-order) reconstruction: a cell's state is its value at both of its faces. It
// reads one halo cell and works on the conserved variables as they are.
#include "engine/backend.hpp"

namespace tessera {

struct DonorCell {
  static constexpr const char* kName = "donor_cell";
  static constexpr int kHalo = 1;
  static constexpr bool kPrimitive = false;

  template <class State>
  TESSERA_INLINE static void faces(const State&, const State& v, const State&, State& lower,
                                   State& upper) {
    lower = v;
    upper = v;
  }
};

} // namespace tessera

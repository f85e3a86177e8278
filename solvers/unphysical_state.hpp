#pragma once
// The error every solver throws when the solution has become unphysical (negative density or
// pressure, a non-finite value): the program stops with its own exit code for it.
#include <stdexcept>

namespace tessera {

class UnphysicalStateError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace tessera

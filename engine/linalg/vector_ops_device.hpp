#pragma once
// The device twin of the loop of engine/linalg/vector_ops.cpp: op(i) for each of n values, one
// thread per value, for the pointwise operations of vector_ops.hpp (instantiated for each).
// Device pointers; asynchronous.
#include <cstddef>

#include "engine/linalg/vector_ops.hpp"

namespace tessera::linalg {

template <class Op>
void forEachValueDevice(std::size_t n, const Op& op);

} // namespace tessera::linalg

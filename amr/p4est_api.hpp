#pragma once
// p4est (2D) and p8est (3D) behind one compile-time interface, so that Forest<Dim> is written once.
// The two libraries have the same functions under different prefixes and types; this traits
// class names them for each dimension.
#include <cstdint>
#include <p4est_bits.h>
#include <p4est_communication.h>
#include <p4est_extended.h>
#include <p4est_ghost.h>
#include <p8est_bits.h>
#include <p8est_communication.h>
#include <p8est_extended.h>
#include <p8est_ghost.h>

#include "engine/small_vector.hpp"

namespace tessera::amr {

template <int Dim>
struct P4est;

template <>
struct P4est<2> {
  using Forest = p4est_t;
  using Connectivity = p4est_connectivity_t;
  using Quadrant = p4est_quadrant_t;
  using Tree = p4est_tree_t;
  using InitFn = p4est_init_t;
  using RefineFn = p4est_refine_t;
  using CoarsenFn = p4est_coarsen_t;
  using WeightFn = p4est_weight_t;
  using Ghost = p4est_ghost_t;
  static constexpr int kMaxLevel = P4EST_MAXLEVEL;        // quadrant coordinates are in 2^kMaxLevel
  static constexpr int kMaxRefineLevel = P4EST_QMAXLEVEL; // deepest level a quadrant may reach
  static constexpr int kChildren = P4EST_CHILDREN;

  static Connectivity* brick(Vec<int, 2> trees, Vec<bool, 2> periodic) {
    return p4est_connectivity_new_brick(trees[0], trees[1], periodic[0], periodic[1]);
  }
  static Forest* create(sc_MPI_Comm comm, Connectivity* c, int minLevel, std::size_t dataSize,
                        InitFn init, void* user) {
    return p4est_new_ext(comm, c, 0, minLevel, 1, dataSize, init, user);
  }
  static void refine(Forest* f, int maxLevel, RefineFn fn, InitFn init) {
    p4est_refine_ext(f, 0, maxLevel, fn, init, nullptr);
  }
  static void coarsen(Forest* f, CoarsenFn fn, InitFn init) {
    p4est_coarsen_ext(f, 0, 0, fn, init, nullptr);
  }
  static void balance(Forest* f, InitFn init) {
    p4est_balance_ext(f, P4EST_CONNECT_FULL, init, nullptr);
  }
  // Families stay on one rank (partition_for_coarsening), so that a later adapt may coarsen them.
  static void partition(Forest* f, WeightFn weight) { p4est_partition_ext(f, 1, weight); }
  static Ghost* ghostLayer(Forest* f) { return p4est_ghost_new(f, P4EST_CONNECT_FULL); }
  static void exchangeGhosts(Forest* f, Ghost* g, std::size_t size, void** mirrorData,
                             void* ghostData) {
    p4est_ghost_exchange_custom(f, g, size, mirrorData, ghostData);
  }
  // The forest and its connectivity in one file, with the partition (no quadrant data).
  static void save(const char* file, Forest* f) { p4est_save_ext(file, f, 0, 1); }
  static Forest* load(const char* file, sc_MPI_Comm comm, std::size_t dataSize, InitFn init,
                      bool uniform, Connectivity** c) {
    Forest* f = p4est_load_ext(file, comm, 0, 0, uniform, 1, nullptr, c);
    p4est_reset_data(f, dataSize, init, nullptr); // loaded without data: none allocated
    return f;
  }
  static bool sameConnectivity(Connectivity* a, Connectivity* b) {
    return p4est_connectivity_is_equal(a, b);
  }
  // A forest of its own with the same quadrants and their data, on connectivity `c`.
  static Forest* copy(Forest* f, Connectivity* c) {
    Forest* copied = p4est_copy(f, 1);
    copied->connectivity = c;
    return copied;
  }
  static void destroy(Ghost* g) { p4est_ghost_destroy(g); }
  static void destroy(Forest* f) { p4est_destroy(f); }
  static void destroy(Connectivity* c) { p4est_connectivity_destroy(c); }
  static Vec<p4est_qcoord_t, 2> coords(const Quadrant& q) { return {{q.x, q.y}}; }
  // The Morton position, within its tree, of q's ancestor on `level` (at most q's level).
  static std::uint64_t linearId(const Quadrant& q, int level) {
    return p4est_quadrant_linear_id(&q, level);
  }
};

template <>
struct P4est<3> {
  using Forest = p8est_t;
  using Connectivity = p8est_connectivity_t;
  using Quadrant = p8est_quadrant_t;
  using Tree = p8est_tree_t;
  using InitFn = p8est_init_t;
  using RefineFn = p8est_refine_t;
  using CoarsenFn = p8est_coarsen_t;
  using WeightFn = p8est_weight_t;
  using Ghost = p8est_ghost_t;
  static constexpr int kMaxLevel = P8EST_MAXLEVEL;
  static constexpr int kMaxRefineLevel = P8EST_QMAXLEVEL;
  static constexpr int kChildren = P8EST_CHILDREN;

  static Connectivity* brick(Vec<int, 3> trees, Vec<bool, 3> periodic) {
    return p8est_connectivity_new_brick(trees[0], trees[1], trees[2], periodic[0], periodic[1],
                                        periodic[2]);
  }
  static Forest* create(sc_MPI_Comm comm, Connectivity* c, int minLevel, std::size_t dataSize,
                        InitFn init, void* user) {
    return p8est_new_ext(comm, c, 0, minLevel, 1, dataSize, init, user);
  }
  static void refine(Forest* f, int maxLevel, RefineFn fn, InitFn init) {
    p8est_refine_ext(f, 0, maxLevel, fn, init, nullptr);
  }
  static void coarsen(Forest* f, CoarsenFn fn, InitFn init) {
    p8est_coarsen_ext(f, 0, 0, fn, init, nullptr);
  }
  static void balance(Forest* f, InitFn init) {
    p8est_balance_ext(f, P8EST_CONNECT_FULL, init, nullptr);
  }
  static void partition(Forest* f, WeightFn weight) { p8est_partition_ext(f, 1, weight); }
  static Ghost* ghostLayer(Forest* f) { return p8est_ghost_new(f, P8EST_CONNECT_FULL); }
  static void exchangeGhosts(Forest* f, Ghost* g, std::size_t size, void** mirrorData,
                             void* ghostData) {
    p8est_ghost_exchange_custom(f, g, size, mirrorData, ghostData);
  }
  // The forest and its connectivity in one file, with the partition (no quadrant data).
  static void save(const char* file, Forest* f) { p8est_save_ext(file, f, 0, 1); }
  static Forest* load(const char* file, sc_MPI_Comm comm, std::size_t dataSize, InitFn init,
                      bool uniform, Connectivity** c) {
    Forest* f = p8est_load_ext(file, comm, 0, 0, uniform, 1, nullptr, c);
    p8est_reset_data(f, dataSize, init, nullptr); // loaded without data: none allocated
    return f;
  }
  static bool sameConnectivity(Connectivity* a, Connectivity* b) {
    return p8est_connectivity_is_equal(a, b);
  }
  // A forest of its own with the same quadrants and their data, on connectivity `c`.
  static Forest* copy(Forest* f, Connectivity* c) {
    Forest* copied = p8est_copy(f, 1);
    copied->connectivity = c;
    return copied;
  }
  static void destroy(Ghost* g) { p8est_ghost_destroy(g); }
  static void destroy(Forest* f) { p8est_destroy(f); }
  static void destroy(Connectivity* c) { p8est_connectivity_destroy(c); }
  static Vec<p4est_qcoord_t, 3> coords(const Quadrant& q) { return {{q.x, q.y, q.z}}; }
  static std::uint64_t linearId(const Quadrant& q, int level) {
    return p8est_quadrant_linear_id(&q, level);
  }
};

} // namespace tessera::amr

#pragma once
// Cell data for VTK output, shared by the patch and the unstructured writers: a named field of one
// value or one 3-vector per cell (velocity and momentum are vectors in every output, so that
// ParaView's Glyph and Stream Tracer take them as they are), and the checks a writer makes before
// it touches a file.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::io {

// One value (components = 1) or one vector (components = 3) per cell, cell after cell.
struct CellField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

// What orders a series' steps: simulated time, or (a steady run) the pseudo-time iteration.
enum class SeriesClock { Time, Iteration };

// Throws std::invalid_argument, naming `writer`, unless every field has a name of its own that is
// none of `reserved` (the writer's integer arrays) and 1 or 3 components for each of `cells` cells.
void checkCellFields(std::string_view writer, const std::vector<CellField>& fields, long long cells,
                     std::initializer_list<std::string_view> reserved);

} // namespace tessera::io

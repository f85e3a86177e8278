#include "io/unstructured_output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>

#include "io/vtk_series_files.hpp"

namespace tessera::io {

namespace fs = std::filesystem;
using unstructured::CellShape;
using unstructured::Mesh;

std::vector<CellField> eulerCellFields(const Euler<3>& pde, std::span<const double> conserved,
                                       const OutputFields& output,
                                       std::span<const double> primitiveGradients) {
  const std::size_t cells = conserved.size() / 5;
  std::vector<CellField> fields;
  for (const OutputField& field : output.fields) {
    if (field.needsNeighbours() && primitiveGradients.size() < 15 * cells)
      throw std::invalid_argument("eulerCellFields: output field '" + field.name +
                                  "' needs the primitive variables' gradients");
    fields.push_back(
        {field.name, field.components, std::vector<double>(std::size_t(field.components) * cells)});
  }
  for (std::size_t c = 0; c < cells; ++c) {
    Euler<3>::State q;
    for (int v = 0; v < 5; ++v)
      q[v] = conserved[5 * c + std::size_t(v)];
    const Euler<3>::State w = pde.toPrimitive(q);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      double* out = fields[f].values.data() + std::size_t(fields[f].components) * c;
      const OutputField& field = output.fields[f];
      if (!field.needsNeighbours()) {
        pointwiseValues(pde, field, q, w, output.gasConstant, out);
        continue;
      }
      // grad[k][a]: d(primitive k)/d(x_a); k = 0 density, 1..3 velocity.
      const auto grad = [&](std::size_t k, std::size_t a) {
        return primitiveGradients[15 * c + 3 * k + a];
      };
      if (field.quantity == Quantity::Vorticity) {
        out[0] = grad(3, 1) - grad(2, 2);
        out[1] = grad(1, 2) - grad(3, 0);
        out[2] = grad(2, 0) - grad(1, 1);
      } else {
        out[0] =
            std::sqrt(grad(0, 0) * grad(0, 0) + grad(0, 1) * grad(0, 1) + grad(0, 2) * grad(0, 2));
      }
    }
  }
  return fields;
}

namespace {

// The integer cell arrays added to every piece; the caller's fields must not use these names.
constexpr const char* kCellIdName = "cell_id";
constexpr const char* kRankName = "rank";

// Rejects inconsistent input before any file is touched, so a bad call leaves the output as it was.
void checkInput(const Mesh& mesh, int numCells, const std::vector<CellField>& fields,
                const PieceCells& piece) {
  if (numCells < 0 || numCells > mesh.numCells() ||
      (!piece.ids.empty() && piece.ids.size() != std::size_t(numCells))) {
    std::string message = "UnstructuredSeriesWriter: a piece of ";
    message += std::to_string(numCells);
    message += " cells with ";
    message += std::to_string(piece.ids.size());
    message += " ids, of a mesh of ";
    message += std::to_string(mesh.numCells());
    throw std::invalid_argument(message);
  }
  checkCellFields("UnstructuredSeriesWriter", fields, numCells, {kCellIdName, kRankName});
}

// Whether a cell's nodes are in Gmsh's orientation: its template faces (localFaceNodes) enclose
// a positive volume, each face split into a fan of triangles.
bool gmshOriented(const Mesh& mesh, int cell) {
  const CellShape shape = mesh.cellShapes[std::size_t(cell)];
  const auto nodes = mesh.cellNodes.row(cell);
  std::array<double, 3> ref{0.0, 0.0, 0.0};
  for (int n : nodes)
    for (int a = 0; a < 3; ++a)
      ref[std::size_t(a)] += mesh.nodes[std::size_t(n)][std::size_t(a)] / double(nodes.size());
  double volume = 0.0;
  for (int f = 0; f < unstructured::faceCount(shape); ++f) {
    const auto local = unstructured::localFaceNodes(shape, f);
    const auto& p0 = mesh.nodes[std::size_t(nodes[std::size_t(local[0])])];
    for (std::size_t i = 1; i + 1 < local.size(); ++i) {
      const auto& p1 = mesh.nodes[std::size_t(nodes[std::size_t(local[i])])];
      const auto& p2 = mesh.nodes[std::size_t(nodes[std::size_t(local[i + 1])])];
      double d[3], u[3], w[3];
      for (std::size_t a = 0; a < 3; ++a) {
        d[a] = p0[a] - ref[a];
        u[a] = p1[a] - p0[a];
        w[a] = p2[a] - p0[a];
      }
      volume += d[0] * (u[1] * w[2] - u[2] * w[1]) + d[1] * (u[2] * w[0] - u[0] * w[2]) +
                d[2] * (u[0] * w[1] - u[1] * w[0]);
    }
  }
  return volume > 0.0;
}

struct VtkShape {
  int type;
  std::array<int, 8> gmshOrder;   // VTK node k is the cell's node gmshOrder[k]...
  std::array<int, 8> mirrorOrder; // ... or mirrorOrder[k] for a mirrored cell
};

VtkShape vtkShape(CellShape shape) {
  switch (shape) {
  case CellShape::Tetrahedron:
    return {VTK_TETRA, {0, 1, 2, 3}, {0, 2, 1, 3}};
  case CellShape::Pyramid:
    return {VTK_PYRAMID, {0, 1, 2, 3, 4}, {0, 3, 2, 1, 4}};
  case CellShape::Prism:
    return {VTK_WEDGE, {0, 2, 1, 3, 5, 4}, {0, 1, 2, 3, 4, 5}};
  default:
    return {VTK_HEXAHEDRON, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 3, 2, 1, 4, 7, 6, 5}};
  }
}

// The piece's cells on all the mesh's nodes (a distributed run's halo-only nodes stay unused).
vtkSmartPointer<vtkUnstructuredGrid> buildGrid(const Mesh& mesh, int pieceCells,
                                               std::span<const int> ids,
                                               const std::vector<CellField>& fields, int rank) {
  const vtkIdType numCells = pieceCells;
  vtkNew<vtkDoubleArray> coords;
  coords->SetNumberOfComponents(3);
  coords->SetNumberOfTuples(mesh.numNodes());
  double* xyz = coords->GetPointer(0);
  for (const auto& node : mesh.nodes)
    xyz = std::copy(node.begin(), node.end(), xyz);
  vtkNew<vtkPoints> points;
  points->SetData(coords);

  vtkNew<vtkIdTypeArray> offsets, connectivity;
  vtkNew<vtkUnsignedCharArray> types;
  offsets->SetNumberOfValues(numCells + 1);
  connectivity->SetNumberOfValues(vtkIdType(mesh.cellNodes.offsets[std::size_t(pieceCells)]));
  types->SetNumberOfValues(numCells);
  vtkIdType next = 0;
  for (int c = 0; c < pieceCells; ++c) {
    const VtkShape shape = vtkShape(mesh.cellShapes[std::size_t(c)]);
    const auto& order = gmshOriented(mesh, c) ? shape.gmshOrder : shape.mirrorOrder;
    const auto nodes = mesh.cellNodes.row(c);
    offsets->SetValue(c, next);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      connectivity->SetValue(next++, nodes[std::size_t(order[k])]);
    types->SetValue(c, static_cast<unsigned char>(shape.type));
  }
  offsets->SetValue(numCells, next);
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);

  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(points);
  grid->SetCells(types, cells);

  vtkCellData* cellData = grid->GetCellData();
  detail::addCellFields(cellData, fields, numCells);
  vtkNew<vtkIntArray> cellId, rankOf;
  cellId->SetName(kCellIdName);
  rankOf->SetName(kRankName);
  cellId->SetNumberOfValues(numCells);
  rankOf->SetNumberOfValues(numCells);
  for (int c = 0; c < pieceCells; ++c) {
    cellId->SetValue(c, ids.empty() ? c : ids[std::size_t(c)]);
    rankOf->SetValue(c, rank);
  }
  cellData->AddArray(cellId);
  cellData->AddArray(rankOf);
  return grid;
}

} // namespace

UnstructuredSeriesWriter::UnstructuredSeriesWriter(fs::path directory, std::string baseName,
                                                   int rank, int numRanks, SeriesClock clock)
    : series_("UnstructuredSeriesWriter", std::move(directory), std::move(baseName), rank, numRanks,
              clock) {}

fs::path UnstructuredSeriesWriter::write(int step, double time, const Mesh& mesh,
                                         const std::vector<CellField>& fields, PieceCells piece) {
  const int numCells = piece.count < 0 ? mesh.numCells() : piece.count;
  checkInput(mesh, numCells, fields, piece);
  const auto grid = buildGrid(mesh, numCells, piece.ids, fields, series_.rank);
  return detail::writeSeriesStep(series_, step, time, grid);
}

} // namespace tessera::io

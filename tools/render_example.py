#!/usr/bin/env python3
"""One field of a Tessera output step drawn to a PNG: the cells of a 2D case, or a slice of a 3D
one, read with VTK's own XML readers (Debian: python3-vtk9) and painted by matplotlib
(python3-matplotlib), so that no display and no OpenGL are needed.

Usage: tools/render_example.py <series.pvd | step.pvtu> <field> -o picture.png
       [--step last|<index>] [--slice-z Z] [--window x0 x1 y0 y1] [--log] [--title TEXT]
A .pvd series draws its last step unless --step says which; a 3D mesh is cut by the plane z = Z
(its middle unless given).
"""
import argparse
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
import vtk  # noqa: E402
from vtk.util.numpy_support import vtk_to_numpy  # noqa: E402


def step_file(path, step):
    """The .pvtu of one step of a .pvd series (the last unless step is an index)."""
    if path.suffix != ".pvd":
        return path
    steps = ElementTree.parse(path).getroot().findall("./Collection/DataSet")
    if not steps:
        sys.exit(f"{path}: a series without steps")
    chosen = steps[-1] if step == "last" else steps[int(step)]
    return path.parent / chosen.get("file")


def read(path):
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(str(path))
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfCells() == 0:
        sys.exit(f"{path}: no cells (an .pvtu of Tessera's unstructured output format?)")
    return grid


def planar_cells(grid, slice_z):
    """Polygons in the x-y plane with the cells' data: a 2D mesh's own cells (its faces in the
    plane z = const, one layer of an unstructured 2D case included), a 3D mesh's slice."""
    z0, z1 = grid.GetBounds()[4:6]
    flat = vtk.vtkPolyData()
    if z1 - z0 <= 1e-12 * max(1.0, abs(z1)):
        surface = vtk.vtkDataSetSurfaceFilter()
        surface.SetInputData(grid)
        surface.Update()
        flat = surface.GetOutput()
    else:
        plane = vtk.vtkPlane()
        plane.SetOrigin(0.0, 0.0, 0.5 * (z0 + z1) if slice_z is None else slice_z)
        plane.SetNormal(0.0, 0.0, 1.0)
        cut = vtk.vtkCutter()
        cut.SetCutFunction(plane)
        cut.SetInputData(grid)
        cut.Update()
        flat = cut.GetOutput()
    points = vtk_to_numpy(flat.GetPoints().GetData())
    polygons, ids = [], []
    for c in range(flat.GetNumberOfCells()):
        cell = flat.GetCell(c)
        if cell.GetCellDimension() != 2:
            continue
        corners = [cell.GetPointId(k) for k in range(cell.GetNumberOfPoints())]
        xy = points[corners][:, :2]
        # A one-layer 3D mesh gives its top and bottom faces and its sides: keep faces in a plane.
        if len({round(p, 12) for p in points[corners][:, 2]}) > 1:
            continue
        polygons.append(xy)
        ids.append(c)
    return flat, polygons, ids


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("series", type=pathlib.Path)
    parser.add_argument("field")
    parser.add_argument("-o", "--output", type=pathlib.Path, required=True)
    parser.add_argument("--step", default="last")
    parser.add_argument("--slice-z", type=float)
    parser.add_argument("--window", type=float, nargs=4, metavar=("X0", "X1", "Y0", "Y1"))
    parser.add_argument("--log", action="store_true", help="a logarithmic colour scale")
    parser.add_argument("--title")
    parser.add_argument("--width", type=float, default=8.0, help="inches, at 100 dpi")
    args = parser.parse_args()

    path = step_file(args.series, args.step)
    flat, polygons, ids = planar_cells(read(path), args.slice_z)
    array = flat.GetCellData().GetArray(args.field)
    if array is None:
        names = [flat.GetCellData().GetArrayName(i)
                 for i in range(flat.GetCellData().GetNumberOfArrays())]
        sys.exit(f"{path}: no cell field '{args.field}' (there are: {', '.join(names)})")
    values = vtk_to_numpy(array)
    if values.ndim > 1:  # a vector: its magnitude
        values = (values**2).sum(axis=1) ** 0.5
    values = values[ids]
    norm = (matplotlib.colors.LogNorm(vmin=max(values.min(), 1e-12 * values.max()))
            if args.log else None)
    collection = PolyCollection(polygons, array=values, cmap="viridis", norm=norm,
                                edgecolors="face", linewidths=0.3, antialiaseds=False)
    x0, x1, y0, y1 = args.window or (min(p[:, 0].min() for p in polygons),
                                     max(p[:, 0].max() for p in polygons),
                                     min(p[:, 1].min() for p in polygons),
                                     max(p[:, 1].max() for p in polygons))
    aspect = (y1 - y0) / (x1 - x0)
    figure, axes = plt.subplots(figsize=(args.width, max(2.0, args.width * aspect * 0.9)),
                                layout="constrained")
    axes.add_collection(collection)
    axes.set_xlim(x0, x1)
    axes.set_ylim(y0, y1)
    axes.set_aspect("equal")
    figure.colorbar(collection, ax=axes, label=args.field, shrink=0.8)
    axes.set_title(args.title or f"{args.field}, {path.name}")
    figure.savefig(args.output, dpi=100, pil_kwargs={"optimize": True})
    print(f"{args.output}: {len(polygons)} cells of {args.field} in "
          f"[{values.min():.6g}, {values.max():.6g}]")


if __name__ == "__main__":
    main()

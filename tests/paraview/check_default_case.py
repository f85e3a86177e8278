"""ParaView's own check of Tessera's output, run by pvpython (ctest: paraview.DefaultCaseOpens).

Runs the default case (the 2D Sedov blast) twice into a fresh folder, once in each output format,
and opens the series with ParaView's readers.

Unstructured grid (output.format = "unstructured", the default): the series has the case's output
times, each time carries the variables by name (velocity a 3-vector), the pieces of every time
cover the unit square once (the integral of 1 is the domain's area and the mass is its initial
density times that area: the blast adds no mass and its shock, at R = 0.318 by t = 0.1, never
reaches the outflow boundaries), at the end the density peaks at the self-similar shock radius, and
a contour of density (Cell Data to Point Data, Contour) has no open end inside a level: each open
end lies where patches of two levels meet (the hanging nodes of a level jump).

AMR (output.format = "amr"): the .pvd opens with the case's times and reports the levels; level 0,
which ParaView's AMR reader loads by default, covers the unit square with the whole mass; the
.vthb.series with every level loaded holds as many unblanked cells as the run had; and a contour
of density resampled to the finest cells (Resample To Image, Contour) has no open end at all.
"""
import argparse
import collections
import math
import pathlib
import re
import shutil
import subprocess
import sys

from paraview import simple
from paraview import servermanager
from paraview.vtk.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import vtkCellLocator


def fail(message):
    print("FAILED: " + message)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", required=True, help="the tessera program")
    parser.add_argument("--case", required=True, help="examples/sedov/sedov2d.toml")
    parser.add_argument("--workdir", required=True, help="a folder this check may replace")
    args = parser.parse_args()

    workdir = pathlib.Path(args.workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    expected_times = [0.01 * n for n in range(11)]  # output.interval = 0.01 up to end_time = 0.1
    unstructured = run_case(args, workdir / "unstructured", "unstructured")
    check_unstructured(unstructured / "sedov2d.pvd", expected_times)
    amr = run_case(args, workdir / "amr", "amr")
    check_amr(amr, expected_times)


def run_case(args, out, output_format):
    log = out.parent / (out.name + ".log")
    with open(log, "w") as text:
        subprocess.run([args.tessera, "run", args.case, "--set", "output.directory=" + str(out),
                        "--set", 'output.format="%s"' % output_format],
                       check=True, stdout=text)
    return out


def expect_times(reader, expected, what):
    times = list(reader.TimestepValues)
    if len(times) != len(expected) or any(abs(t - e) > 1e-9 for t, e in zip(times, expected)):
        fail("%s has times %s, expected %s" % (what, times, expected))
    return times


def integrals(source, t):
    integral = simple.IntegrateVariables(Input=source)
    integral.UpdatePipeline(t)
    totals = dsa.WrapDataObject(servermanager.Fetch(integral))
    return float(totals.CellData["Area"][0]), float(totals.CellData["density"][0])


def line_ends(source, t):
    """The contour lines of `source` at t, and the points where a line ends (used by one line)."""
    clean = simple.Clean(Input=source)  # one point where pieces or blocks meet
    clean.UpdatePipeline(t)
    lines = servermanager.Fetch(clean)
    uses = collections.Counter()
    for c in range(lines.GetNumberOfCells()):
        cell = lines.GetCell(c)
        uses[cell.GetPointId(0)] += 1
        uses[cell.GetPointId(cell.GetNumberOfPoints() - 1)] += 1
    return lines, [p for p, n in uses.items() if n == 1]


def check_unstructured(series, expected_times):
    reader = simple.OpenDataFile(str(series))
    if reader is None:
        fail("ParaView has no reader for " + str(series))
    times = expect_times(reader, expected_times, str(series))

    for t in times:
        reader.UpdatePipeline(t)
        arrays = set(reader.CellData.keys())
        for name in ("density", "pressure", "level"):
            if name not in arrays:
                fail("time %g has no cell array %r (has %s)" % (t, name, sorted(arrays)))
        # Vectors are vectors (Glyph and Stream Tracer take them as they are).
        if "velocity" not in arrays or reader.CellData["velocity"].GetNumberOfComponents() != 3:
            fail("time %g has no 3-component cell array 'velocity' (has %s)" % (t, sorted(arrays)))
        area, mass = integrals(reader, t)
        if abs(area - 1.0) > 1e-12 or abs(mass - 1.0) > 1e-12:
            fail("time %g: the pieces cover an area of %.15g with a mass of %.15g, expected 1 and 1"
                 % (t, area, mass))

    # The shock at the end: where the density peaks, against the self-similar radius
    # R = xi0 (E t^2 / rho0)^(1/4), xi0 = 1.004 (gamma = 1.4), within a few finest cells.
    centers = simple.CellCenters(Input=reader)
    centers.UpdatePipeline(times[-1])
    points = dsa.WrapDataObject(servermanager.Fetch(centers))
    density = points.PointData["density"]
    peak = int(density.argmax())
    x, y = points.Points[peak][0] - 0.5, points.Points[peak][1] - 0.5
    radius = math.hypot(x, y)
    exact = 1.004 * (1.0 * times[-1] ** 2) ** 0.25
    if abs(radius - exact) > 0.02 * exact + 4.0 / 512:
        fail("the density peaks at r = %.4f, the self-similar shock is at %.4f" % (radius, exact))

    # A contour of density at the last time: open ends only where two levels meet. The levels
    # around an end come from the cells just beside it in each quadrant.
    contour = simple.Contour(Input=simple.CellDatatoPointData(Input=reader),
                             ContourBy=["POINTS", "density"], Isosurfaces=[1.5])
    lines, ends = line_ends(contour, times[-1])
    grid = servermanager.Fetch(reader)
    locator = vtkCellLocator()
    locator.SetDataSet(grid)
    locator.BuildLocator()
    levels = grid.GetCellData().GetArray("level")
    at_jumps = 0
    for end in ends:
        x = lines.GetPoint(end)
        around = set()
        for dx in (-1e-7, 1e-7):
            for dy in (-1e-7, 1e-7):
                cell = locator.FindCell((x[0] + dx, x[1] + dy, 0.0))
                around.add(int(levels.GetTuple1(cell)) if cell >= 0 else -1)
        if len(around) == 1:
            fail("the density contour at t = %g has an open end inside level %d at (%.6f, %.6f)"
                 % (times[-1], around.pop(), x[0], x[1]))
        at_jumps += 1
    print("ParaView %s read %s: %d times, area and mass 1 at each, shock at r = %.4f (exact %.4f); "
          "the density contour (%d lines) has %d open ends, all at level jumps, none inside a level"
          % (servermanager.vtkSMProxyManager.GetParaViewSourceVersion(), series, len(times),
             radius, exact, lines.GetNumberOfCells(), at_jumps))


def check_amr(out, expected_times):
    series = out / "sedov2d.pvd"
    reader = simple.OpenDataFile(str(series))
    if reader is None:
        fail("ParaView has no reader for " + str(series))
    times = expect_times(reader, expected_times, str(series))
    reader.UpdatePipeline(times[-1])
    levels = reader.GetDataInformation().DataInformation.GetNumberOfAMRLevels()
    if levels != 4:  # amr.max_level = 3
        fail("%s reports %d levels at t = %g, expected 4" % (series, levels, times[-1]))
    for t in times:
        area, mass = integrals(reader, t)  # level 0, which covers the domain
        if abs(area - 1.0) > 1e-12 or abs(mass - 1.0) > 1e-12:
            fail("time %g: level 0 covers an area of %.15g with a mass of %.15g, expected 1 and 1"
                 % (t, area, mass))

    every_level = simple.OpenDataFile(str(out / "sedov2d.vthb.series"))
    expect_times(every_level, expected_times, "sedov2d.vthb.series")
    every_level.DefaultNumberOfLevels = 0  # all of them
    blocks = simple.ConvertAMRdatasettoMultiblock(Input=every_level)  # what Fetch can move
    blocks.UpdatePipeline(times[-1])
    data = servermanager.Fetch(blocks)
    visible = 0
    iterator = data.NewIterator()
    iterator.InitTraversal()
    while not iterator.IsDoneWithTraversal():
        block = iterator.GetCurrentDataObject()
        ghosts = block.GetCellData().GetArray("vtkGhostType")
        visible += sum(1 for c in range(block.GetNumberOfCells()) if int(ghosts.GetTuple1(c)) == 0)
        iterator.GoToNextItem()
    with open(out.parent / "amr.log") as log:
        cells = int(re.search(r"cells\s+\d+ at the first step, (\d+) at the last", log.read()).group(1))
    if visible != cells:
        fail("the last step's blocks hold %d unblanked cells, the run ended with %d" % (visible, cells))

    resampled = simple.ResampleToImage(Input=every_level)
    resampled.SamplingDimensions = [513, 513, 1]  # the finest level's cell size
    contour = simple.Contour(Input=resampled, ContourBy=["POINTS", "density"], Isosurfaces=[1.5])
    lines, ends = line_ends(contour, times[-1])
    if ends:
        fail("the resampled density contour has %d open ends" % len(ends))
    print("ParaView read %s: %d times, %d levels, level 0 covers area 1 with mass 1; all levels "
          "hold %d unblanked cells, as the run; the resampled density contour (%d lines) is closed"
          % (series, len(times), levels, visible, lines.GetNumberOfCells()))


if __name__ == "__main__":
    main()

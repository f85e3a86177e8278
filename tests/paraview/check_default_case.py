"""ParaView's own check of Tessera's output, run by pvpython (ctest: paraview.DefaultCaseOpens).

Runs the default case (the 2D Sedov blast) into a fresh folder, opens its .pvd series with
ParaView's reader and reads every time of it: the series has the case's output times, each time
carries the variables by name, the pieces of every time cover the unit square once (the integral
of 1 is the domain's area and the mass is its initial density times that area: the blast adds no
mass and its shock, at R = 0.318 by t = 0.1, never reaches the outflow boundaries), and at the end
the density peaks at the self-similar shock radius.
"""
import argparse
import math
import pathlib
import shutil
import subprocess
import sys

from paraview import simple
from paraview import servermanager
from paraview.vtk.numpy_interface import dataset_adapter as dsa


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
    out = workdir / "sedov2d"
    subprocess.run([args.tessera, "run", args.case, "--quiet", "--set",
                    "output.directory=" + str(out)], check=True)

    series = out / "sedov2d.pvd"
    reader = simple.OpenDataFile(str(series))
    if reader is None:
        fail("ParaView has no reader for " + str(series))
    times = list(reader.TimestepValues)
    expected = [0.01 * n for n in range(11)]  # output.interval = 0.01 up to end_time = 0.1
    if len(times) != len(expected) or any(abs(t - e) > 1e-9 for t, e in zip(times, expected)):
        fail("the series has times %s, expected %s" % (times, expected))

    for t in times:
        reader.UpdatePipeline(t)
        arrays = set(reader.CellData.keys())
        for name in ("density", "pressure", "level"):
            if name not in arrays:
                fail("time %g has no cell array %r (has %s)" % (t, name, sorted(arrays)))
        # Vectors are vectors (Glyph and Stream Tracer take them as they are).
        for name in ("velocity", "momentum"):
            if name not in arrays or reader.CellData[name].GetNumberOfComponents() != 3:
                fail("time %g has no 3-component cell array %r (has %s)" % (t, name, sorted(arrays)))
        integral = simple.IntegrateVariables(Input=reader)
        integral.UpdatePipeline(t)
        totals = dsa.WrapDataObject(servermanager.Fetch(integral))
        area = float(totals.CellData["Area"][0])
        mass = float(totals.CellData["density"][0])
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
    print("ParaView %s read %s: %d times, area and mass 1 at each, shock at r = %.4f (exact %.4f)"
          % (servermanager.vtkSMProxyManager.GetParaViewSourceVersion(), series, len(times),
             radius, exact))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A run's history from its log.jsonl, drawn to a PNG (matplotlib; Debian: python3-matplotlib).

A time-dependent run (events "step"): dt, the cell count and the cell-updates per second against
the step, and the simulated time against the wall time of stepping. A steady run (events
"iteration"): the density residual relative to the first and the CFL number against the
iteration, and the force coefficients (lift, drag, moment) where the case reports them.

Usage: tools/plot_log.py <output folder or its log.jsonl> [-o history.png]
The PNG goes beside the log unless -o says where.
"""
import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402


def read_events(log):
    """The log's events by kind, in order; a line cut off by a stopped run is left out."""
    events = {}
    with open(log, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                print(f"{log}:{number}: not a whole JSON line, left out", file=sys.stderr)
                continue
            events.setdefault(event.get("event"), []).append(event)
    return events


def plot_steps(steps, figure):
    x = [s["step"] for s in steps]
    panels = figure.subplots(2, 2)
    panels[0][0].semilogy(x, [s["dt"] for s in steps])
    panels[0][0].set(xlabel="step", ylabel="dt")
    panels[0][1].plot(x, [s["cells"] for s in steps])
    panels[0][1].set(xlabel="step", ylabel="cells")
    panels[1][0].plot(x, [s["cell_updates_per_second"] for s in steps])
    panels[1][0].set(xlabel="step", ylabel="cell-updates/s (running mean)")
    wall, elapsed = [], 0.0
    for s in steps:
        elapsed += s["step_seconds"]
        wall.append(elapsed)
    panels[1][1].plot(wall, [s["time"] for s in steps])
    panels[1][1].set(xlabel="wall time of stepping (s)", ylabel="simulated time")


def plot_iterations(iterations, forces, figure):
    x = [i["iteration"] for i in iterations]
    coefficients = [f for f in forces if "lift_coefficient" in f]
    panels = figure.subplots(3 if coefficients else 2, 1, sharex=True)
    panels[0].semilogy(x, [i["relative_residual"] for i in iterations])
    panels[0].set(ylabel="density residual / first")
    frozen = [i["iteration"] for i in iterations if i.get("limiter_frozen")]
    if frozen:
        panels[0].axvline(frozen[0], color="grey", linestyle=":", label="limiter frozen")
        panels[0].legend()
    panels[1].semilogy(x, [i["cfl"] for i in iterations])
    panels[1].set(ylabel="CFL")
    if coefficients:
        at = [f["step"] for f in coefficients]
        for key, label in (("lift_coefficient", "CL"), ("drag_coefficient", "CD"),
                           ("moment_coefficient", "CM")):
            panels[2].plot(at, [f[key] for f in coefficients], label=label)
        panels[2].set(ylabel="coefficient")
        panels[2].legend()
    panels[-1].set(xlabel="iteration")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=pathlib.Path, help="an output folder or its log.jsonl")
    parser.add_argument("-o", "--output", type=pathlib.Path, help="the PNG to write")
    args = parser.parse_args()
    log = args.log / "log.jsonl" if args.log.is_dir() else args.log
    if not log.is_file():
        sys.exit(f"{log}: no such file (a run's log.jsonl, or the output folder holding it)")
    events = read_events(log)
    figure = plt.figure(figsize=(10, 7), layout="constrained")
    if events.get("iteration"):
        plot_iterations(events["iteration"], events.get("forces", []), figure)
    elif events.get("step"):
        plot_steps(events["step"], figure)
    else:
        sys.exit(f"{log}: no step or iteration events to draw")
    figure.suptitle(str(log.parent.name))
    output = args.output or log.with_name("history.png")
    figure.savefig(output, dpi=100, pil_kwargs={"optimize": True})
    print(output)


if __name__ == "__main__":
    main()

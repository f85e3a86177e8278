#include "io/run_log.hpp"

#include <cinttypes>
#include <cmath>
#include <stdexcept>

namespace tessera::io {
namespace {

std::string number(double x) {
  if (!std::isfinite(x))
    return "null"; // JSON has no inf or NaN
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string duration(double seconds) {
  if (!std::isfinite(seconds))
    return "?";
  char buf[32];
  if (seconds < 10)
    std::snprintf(buf, sizeof buf, "%.2f s", seconds);
  else if (seconds < 120)
    std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else
    std::snprintf(buf, sizeof buf, "%.1f min", seconds / 60);
  return buf;
}

} // namespace

RunLog::RunLog(const std::filesystem::path& jsonLinesPath, double endTime, ProgressPolicy progress,
               std::filesystem::path series, bool append)
    : json_(jsonLinesPath, append ? std::ios::app : std::ios::trunc), path_(jsonLinesPath),
      series_(std::move(series)), endTime_(endTime), progress_(progress) {
  if (!json_)
    throw std::runtime_error(jsonLinesPath.string() + ": cannot open the run log for writing");
}

double RunLog::cellUpdatesPerSecond() const {
  return steppingSeconds_ > 0 ? cellUpdates_ / steppingSeconds_ : 0.0;
}

void RunLog::step(const StepReport& r) {
  steppingSeconds_ += r.stepSeconds;
  cellUpdates_ += double(r.cells);
  const double rate = cellUpdatesPerSecond();
  // Simulated time per second of stepping so far gives the remaining wall time.
  const double eta = r.time > 0 ? (endTime_ - r.time) * steppingSeconds_ / r.time : INFINITY;
  line("{\"event\":\"step\",\"step\":" + std::to_string(r.step) + ",\"time\":" + number(r.time) +
       ",\"dt\":" + number(r.dt) + ",\"patches\":" + std::to_string(r.patches) +
       ",\"cells\":" + std::to_string(r.cells) + ",\"levels\":" + std::to_string(r.levels) +
       ",\"step_seconds\":" + number(r.stepSeconds) +
       ",\"cell_updates_per_second\":" + number(rate) + ",\"eta_seconds\":" + number(eta) + "}");
  ++stepsSeen_;
  if (firstCells_ < 0)
    firstCells_ = r.cells;
  // A regrid that adds or removes a level (a regrid that only moves patches, as one every few steps
  // in a blast does, waits for the next line by time).
  const bool levelsChanged = lastLevels_ >= 0 && r.levels != lastLevels_;
  lastCells_ = r.cells;
  lastLevels_ = r.levels;
  unprinted_ = r;
  if (progress_.quiet)
    return;
  const bool due = progress_.everySteps > 0 ? r.step % progress_.everySteps == 0
                                            : stepsSeen_ == 1 || levelsChanged ||
                                                  sinceLine_.seconds() >= progress_.everySeconds;
  if (due)
    printStep(r);
}

void RunLog::printStep(const StepReport& r) {
  const double rate = cellUpdatesPerSecond();
  const double eta = r.time > 0 ? (endTime_ - r.time) * steppingSeconds_ / r.time : INFINITY;
  if (r.patches > 0)
    std::printf(
        "step %6lld  t %.6e  dt %.3e  patches %d  cells %lld  levels %d  %.3e cell-updates/s"
        "  ETA %s\n",
        r.step, r.time, r.dt, r.patches, r.cells, r.levels, rate, duration(eta).c_str());
  else
    std::printf("step %6lld  t %.6e  dt %.3e  cells %lld  %.3e cell-updates/s  ETA %s\n", r.step,
                r.time, r.dt, r.cells, rate, duration(eta).c_str());
  unprinted_.reset();
  sinceLine_.restart();
}

void RunLog::iteration(const IterationReport& r) {
  steppingSeconds_ += r.seconds;
  line("{\"event\":\"iteration\",\"iteration\":" + std::to_string(r.iteration) + ",\"residual\":" +
       number(r.residual) + ",\"relative_residual\":" + number(r.relativeResidual) +
       ",\"cfl\":" + number(r.cfl) + ",\"relaxation\":" + number(r.relaxation) +
       ",\"first_order\":" + (r.firstOrder ? "true" : "false") +
       ",\"limiter_frozen\":" + (r.limiterFrozen ? "true" : "false") +
       (r.limiterRefreshed ? ",\"limiter_refreshed\":true" : "") +
       (r.krylovVectors > 0 ? ",\"krylov_vectors\":" + std::to_string(r.krylovVectors) +
                                  ",\"linear_residual\":" + number(r.linearResidual)
                            : std::string()) +
       (r.preconditionerSweeps > 0
            ? ",\"preconditioner_sweeps\":" + std::to_string(r.preconditionerSweeps)
            : std::string()) +
       ",\"seconds\":" + number(r.seconds) + "}");
  ++stepsSeen_;
  unprintedIteration_ = r;
  if (progress_.quiet)
    return;
  const bool due = progress_.everySteps > 0
                       ? r.iteration % progress_.everySteps == 0
                       : stepsSeen_ == 1 || sinceLine_.seconds() >= progress_.everySeconds;
  if (due)
    printIteration(r);
}

void RunLog::printIteration(const IterationReport& r) {
  // What shaped the step beyond the CFL ramp, only where something did.
  std::string notes;
  if (r.relaxation < 1.0) {
    char text[48];
    std::snprintf(text, sizeof text, "  relaxed to %.3g", r.relaxation);
    notes += text;
  }
  if (r.firstOrder)
    notes += "  first order";
  if (r.limiterRefreshed)
    notes += "  limiter refreshed";
  else if (r.limiterFrozen)
    notes += "  limiter frozen";
  std::printf("iteration %5lld  density residual %.3e (relative %.3e)  CFL %.3g%s  %s\n",
              r.iteration, r.residual, r.relativeResidual, r.cfl, notes.c_str(),
              duration(steppingSeconds_).c_str());
  unprintedIteration_.reset();
  sinceLine_.restart();
}

void RunLog::output(long long step, double time, const std::filesystem::path& file,
                    double seconds) {
  line("{\"event\":\"output\",\"step\":" + std::to_string(step) + ",\"time\":" + number(time) +
       ",\"file\":" + quoted(file.string()) + ",\"seconds\":" + number(seconds) + "}");
  ++outputs_;
  outputSeconds_ += seconds;
  if (!progress_.quiet && unprinted_ && unprinted_->step == step)
    printStep(*unprinted_);
}

void RunLog::checkpoint(long long step, double time, const std::filesystem::path& folder) {
  lastCheckpoint_ = folder;
  line("{\"event\":\"checkpoint\",\"step\":" + std::to_string(step) + ",\"time\":" + number(time) +
       ",\"folder\":" + quoted(folder.string()) + "}");
}

void RunLog::atomicStrategy(std::string_view scatter, const atomics::TunerChoice& choice) {
  std::string json = "{\"event\":\"atomic_strategy\",\"scatter\":";
  json += quoted(std::string(scatter));
  json += ",\"strategy\":";
  json += quoted(std::string(atomics::strategyName(choice.strategy)));
  json += choice.forced ? ",\"forced\":true" : ",\"forced\":false";
  json += ",\"median_seconds\":{";
  for (const auto& [s, seconds] : choice.medianSeconds) {
    json += quoted(std::string(atomics::strategyName(s)));
    json += ':';
    json += number(seconds);
    json += ',';
  }
  if (json.back() == ',')
    json.pop_back();
  json += "}}";
  line(json);
}

void RunLog::finish(long long steps, double time, const PhaseSeconds& phases,
                    long long firstOrderFallbacks) {
  const RegridTimes& regrid = phases.regrid;
  line("{\"event\":\"finish\",\"steps\":" + std::to_string(steps) + ",\"time\":" + number(time) +
       ",\"stepping_seconds\":" + number(steppingSeconds_) +
       ",\"halo_seconds\":" + number(phases.halo) + ",\"update_seconds\":" + number(phases.update) +
       ",\"reflux_seconds\":" + number(phases.reflux) + ",\"exchange_seconds\":" +
       number(phases.exchange) + ",\"regrid_seconds\":" + number(regrid.total()) +
       ",\"regrid_phase_seconds\":{\"flags\":" + number(regrid.flags) +
       ",\"forest\":" + number(regrid.forest) + ",\"remap\":" + number(regrid.remap) +
       ",\"partition\":" + number(regrid.partition) + ",\"migration\":" + number(regrid.migration) +
       ",\"plans\":" + number(regrid.plans) + ",\"remesh\":" + number(regrid.remesh) +
       ",\"overlapped\":" + number(regrid.overlapped) + ",\"exposed_stages\":[" +
       number(regrid.exposedStages[0]) + "," + number(regrid.exposedStages[1]) + "," +
       number(regrid.exposedStages[2]) + "]},\"output_seconds\":" + number(outputSeconds_) +
       ",\"cell_updates_per_second\":" + number(cellUpdatesPerSecond()) +
       ",\"first_order_fallbacks\":" + std::to_string(firstOrderFallbacks) + "}");
  if (!progress_.quiet && unprinted_)
    printStep(*unprinted_);
  std::printf("tessera: finished at step %lld, t = %.6g\n", steps, time);
  if (firstCells_ >= 0)
    std::printf("  %-16s %lld at the first step, %lld at the last\n", "cells", firstCells_,
                lastCells_);
  std::printf("  %-16s %.3e over %s of stepping (%lld steps in this run)\n", "cell-updates/s",
              cellUpdatesPerSecond(), duration(steppingSeconds_).c_str(), stepsSeen_);
  if (phases.halo + phases.update + phases.reflux + regrid.total() > 0)
    std::printf("  %-16s halo fill %s, update %s, refluxing %s, regrid %s%s\n", "time split",
                duration(phases.halo).c_str(), duration(phases.update).c_str(),
                duration(phases.reflux).c_str(), duration(regrid.total()).c_str(),
                phases.exchange > 0
                    ? (", waiting for other ranks " + duration(phases.exchange)).c_str()
                    : "");
  if (regrid.total() > 0)
    std::printf("  %-16s flags %s, forest %s, remap %s, partition %s, migration %s, plans %s, "
                "remesh %s; %s of it while the device stepped, past the steps: adapt %s, plans %s, "
                "halo plans %s\n",
                "regrid split", duration(regrid.flags).c_str(), duration(regrid.forest).c_str(),
                duration(regrid.remap).c_str(), duration(regrid.partition).c_str(),
                duration(regrid.migration).c_str(), duration(regrid.plans).c_str(),
                duration(regrid.remesh).c_str(), duration(regrid.overlapped).c_str(),
                duration(regrid.exposedStages[0]).c_str(),
                duration(regrid.exposedStages[1]).c_str(),
                duration(regrid.exposedStages[2]).c_str());
  if (firstOrderFallbacks > 0)
    std::printf("  %-16s %lld cell reconstructions (per axis and stage) fell back to first "
                "order\n",
                "positivity", firstOrderFallbacks);
  printForceRows();
  printOutputRows();
}

void RunLog::finishSteady(long long iterations, double relativeResidual,
                          double liveRelativeResidual) {
  const bool frozen = liveRelativeResidual >= 0.0;
  line("{\"event\":\"finish\",\"iterations\":" + std::to_string(iterations) +
       ",\"relative_residual\":" + number(relativeResidual) +
       (frozen ? ",\"live_limiter_relative_residual\":" + number(liveRelativeResidual) : "") +
       ",\"stepping_seconds\":" + number(steppingSeconds_) +
       ",\"output_seconds\":" + number(outputSeconds_) + "}");
  if (!progress_.quiet && unprintedIteration_)
    printIteration(*unprintedIteration_);
  std::printf("tessera: finished at iteration %lld\n", iterations);
  std::printf("  %-16s dropped to %.3e of the first\n", "density residual", relativeResidual);
  if (frozen)
    std::printf("  %-16s frozen; with it live the residual is %.3e of the first\n", "limiter",
                liveRelativeResidual);
  std::printf("  %-16s %s\n", "iterating", duration(steppingSeconds_).c_str());
  printForceRows();
  printOutputRows();
}

void RunLog::forces(long long step, const std::vector<BoundaryForce>& walls,
                    const std::optional<ForceCoefficientsRecord>& coefficients) {
  const auto vector = [](const std::array<double, 3>& v) {
    std::string text(1, '[');
    for (std::size_t a = 0; a < 3; ++a) {
      if (a > 0)
        text += ',';
      text += number(v[a]);
    }
    return text + ']';
  };
  std::string json = "{\"event\":\"forces\",\"step\":" + std::to_string(step) + ",\"walls\":{";
  for (std::size_t i = 0; i < walls.size(); ++i) {
    if (i > 0)
      json += ',';
    json += '"';
    json += walls[i].name;
    json += "\":{\"force\":";
    json += vector(walls[i].force);
    json += ",\"moment\":";
    json += vector(walls[i].moment);
    json += '}';
  }
  json += '}';
  if (coefficients)
    json += ",\"lift_coefficient\":" + number(coefficients->lift) +
            ",\"drag_coefficient\":" + number(coefficients->drag) +
            ",\"moment_coefficient\":" + number(coefficients->moment);
  line(json + "}");
  lastForces_ = walls;
  lastCoefficients_ = coefficients;
}

void RunLog::printForceRows() const {
  for (const BoundaryForce& wall : lastForces_)
    std::printf("  %-16s force (%.6g, %.6g, %.6g), moment (%.6g, %.6g, %.6g)\n",
                ("on " + wall.name).c_str(), wall.force[0], wall.force[1], wall.force[2],
                wall.moment[0], wall.moment[1], wall.moment[2]);
  if (lastCoefficients_)
    std::printf("  %-16s lift %.6f, drag %.6f, moment %.6f\n", "coefficients",
                lastCoefficients_->lift, lastCoefficients_->drag, lastCoefficients_->moment);
}

void RunLog::printOutputRows() const {
  if (outputs_ > 0)
    std::printf("  %-16s %lld steps in %s: %s\n", "output", outputs_,
                duration(outputSeconds_).c_str(), series_.string().c_str());
  else
    std::printf("  %-16s none\n", "output");
  if (!lastCheckpoint_.empty())
    std::printf("  %-16s %s\n", "checkpoint", lastCheckpoint_.string().c_str());
}

void RunLog::line(const std::string& json) {
  json_ << json << '\n';
  json_.flush(); // a run that dies still leaves a readable log
  if (!json_)
    throw std::runtime_error(path_.string() + ": cannot write the run log");
}

} // namespace tessera::io

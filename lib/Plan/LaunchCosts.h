#ifndef LAUNCHOPT_PLAN_LAUNCHCOSTS_H
#define LAUNCHOPT_PLAN_LAUNCHCOSTS_H

// The constants of --auto's cost model, read from a GPU description
// (gpus/h100-launch.json, which extends gpus/h100.json). Each constant keeps
// its source, so that the report can say which numbers were measured and
// which are guesses.

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>

namespace launchopt {

struct CostConstant {
  double Value = 0;
  std::string Unit;
  std::string Source; // "measured: ..." or "guess: ..."
  bool measured() const { return llvm::StringRef(Source).starts_with("measured"); }
};

struct LaunchCosts {
  std::string Gpu;
  unsigned Multiprocessors = 0;
  unsigned MaxThreadsPerMultiprocessor = 0;
  unsigned MaxBlocksPerMultiprocessor = 0;
  std::map<std::string, CostConstant> Constants;

  // The value of a constant the model names; every name the model reads is
  // checked when the file is read (requiredCostConstants).
  double operator[](const std::string &Name) const { return Constants.at(Name).Value; }
};

// The constants the model reads.
const char *const *requiredCostConstants();

// LaunchJson is the launch-cost file, GpuJson the description it extends.
llvm::Expected<LaunchCosts> parseLaunchCosts(llvm::StringRef LaunchJson, llvm::StringRef GpuJson);
// Reads Path and the file its "extends" names, beside it.
llvm::Expected<LaunchCosts> loadLaunchCosts(const std::string &Path);
// The description shipped with the tool for the H100.
std::string defaultLaunchCostsPath();

} // namespace launchopt

#endif

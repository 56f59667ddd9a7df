#ifndef LAUNCHOPT_DRIVER_COVERAGESUMMARY_H
#define LAUNCHOPT_DRIVER_COVERAGESUMMARY_H

// `--list-launches --summary`: over a set of files, how many device-side
// launch sites each registered pass can transform, and its refusals grouped
// by reason — the first figure a user looks at.

#include "Frontend/CompilerFlags.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace launchopt {

struct PassCoverage {
  std::string Pass;  // the registry's flag
  std::string Value; // the flag's value the summary ran it with ("" when none)
  unsigned Transformable = 0;
  // Reason (quoted names replaced by '<name>') -> device-side sites.
  std::map<std::string, unsigned> Refusals;
};

struct Coverage {
  unsigned Files = 0;
  unsigned DeviceSites = 0; // including launches the analysis cannot resolve
  unsigned HostSites = 0;
  unsigned ByAnyPass = 0;
  // Files left out, with why: they do not parse or cannot be read.
  std::vector<std::pair<std::string, std::string>> NotRead;
  std::vector<PassCoverage> Passes; // in pipeline order
};

// Runs every registered pass on each file as written (not one after
// another). A file that cannot be read or parsed is listed in NotRead and
// left out of the counts; the error is an internal one.
llvm::Expected<Coverage> measureCoverage(const clang::tooling::CompilationDatabase &Compilations,
                                         const std::vector<std::string> &Files,
                                         const ParseEnvironment &Env);

void printCoverageText(llvm::raw_ostream &OS, const Coverage &C);
void printCoverageJson(llvm::raw_ostream &OS, const Coverage &C);

} // namespace launchopt

#endif

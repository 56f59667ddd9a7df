#ifndef LAUNCHOPT_TRANSFORMS_LAUNCHPASS_H
#define LAUNCHOPT_TRANSFORMS_LAUNCHPASS_H

// The interface of a launch pass and the registry that lists them. The
// registry's order and names come from Passes.def; each pass folder defines
// describe<Id>Pass(), which gives its options and makes the pass.

#include "Analysis/LaunchSites.h"
#include "Transforms/PassResult.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace launchopt {

// A source-to-source transformation of launch sites: edits to the parsed
// text and a remark per site it considered. Passes run one after another,
// each on the previous one's output.
class LaunchPass {
public:
  virtual ~LaunchPass() = default;
  virtual PassResult run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const = 0;

  // Whether the pass can take launches of Child, a kernel of this file, from
  // other files of the program: it then writes Child's copies into this
  // file's output with external linkage (LaunchAnalysis::ExportedChildren)
  // and rewrites those launches in their own files, declaring the copies
  // there (LaunchAnalysis::ExternalChildren). The error is the reason the
  // launches are left; a pass that does not reach such children keeps this.
  virtual llvm::Error acceptChildOfOtherFiles(clang::ASTContext &Ctx,
                                              const LaunchAnalysis &Launches,
                                              const clang::FunctionDecl &Child) const;
};

// Settings of the command line that several passes read.
struct SharedPassSettings {
  // Serialize or aggregate launches that follow another launch into the same
  // stream from the same parent thread (they are assumed independent).
  bool AssumeIndependentChildren = false;
  // A later pass of the pipeline aggregates launches: an earlier pass keeps
  // launches where aggregation can reach them (directly in a kernel).
  bool AggregationFollows = false;
};

// An option of a pass besides its flag: --<Name>=<value>.
struct PassOption {
  std::string Name;
  std::string Description; // --help adds "(default <Default>)"
  std::string Default;
  bool IsNumber = true; // an unsigned number, else any text
};

// Whether the pass's flag takes a value (--aggregate=grid).
enum class FlagValue { None, Optional, Required };

// What the command line gave a pass.
struct PassArguments {
  std::string Value;                          // --<flag>=<Value>; empty without one
  std::map<std::string, std::string> Options; // every option: given, else its default
  SharedPassSettings Shared;

  // The option Name as a number (an option declared IsNumber).
  unsigned number(const std::string &Name) const;
};

// Made from the arguments, or the usage error that stops the run.
using PassFactory =
    std::function<llvm::Expected<std::unique_ptr<LaunchPass>>(const PassArguments &)>;

struct PassDescription {
  std::string Help; // of the flag, for --help
  FlagValue Value = FlagValue::None;
  std::string ValueName; // "granularity"
  // The value the coverage summary runs the pass with, when its flag needs one.
  std::string SummaryValue;
  std::vector<PassOption> Options;
  PassFactory Create;
};

// A pass as the registry lists it.
struct RegisteredPass {
  std::string Id;     // the folder: Threshold
  std::string Flag;   // --threshold, and the report's name for it
  std::string Letter; // T
  std::string Verb;   // "not thresholded: <reason>"
  PassDescription Description;

  // The arguments with every option at its default.
  PassArguments defaultArguments() const;
};

// Every pass, in pipeline order.
const std::vector<RegisteredPass> &registeredPasses();
// The pass whose flag (or remark name) is Flag; nullptr when none.
const RegisteredPass *findPass(llvm::StringRef Flag);

} // namespace launchopt

#endif

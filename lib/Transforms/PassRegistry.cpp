#include "Transforms/Common/Refusal.h"
#include "Transforms/LaunchPass.h"

#include <cstdlib>

namespace launchopt {

#define LAUNCHOPT_PASS(Id, Flag, Letter, Verb) PassDescription describe##Id##Pass();
#include "Transforms/Passes.def"

unsigned PassArguments::number(const std::string &Name) const {
  auto It = Options.find(Name);
  return It == Options.end() ? 0
                             : static_cast<unsigned>(std::strtoul(It->second.c_str(), nullptr, 10));
}

llvm::Error LaunchPass::acceptChildOfOtherFiles(clang::ASTContext &, const LaunchAnalysis &,
                                                const clang::FunctionDecl &) const {
  return refusal("this pass transforms only launches of children defined in the launching file");
}

PassArguments RegisteredPass::defaultArguments() const {
  PassArguments Arguments;
  for (const PassOption &O : Description.Options)
    Arguments.Options[O.Name] = O.Default;
  return Arguments;
}

const std::vector<RegisteredPass> &registeredPasses() {
  static const std::vector<RegisteredPass> Passes = {
#define LAUNCHOPT_PASS(Id, Flag, Letter, Verb) {#Id, Flag, Letter, Verb, describe##Id##Pass()},
#include "Transforms/Passes.def"
  };
  return Passes;
}

const RegisteredPass *findPass(llvm::StringRef Flag) {
  for (const RegisteredPass &P : registeredPasses())
    if (P.Flag == Flag)
      return &P;
  return nullptr;
}

} // namespace launchopt

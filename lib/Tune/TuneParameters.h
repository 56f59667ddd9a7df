#ifndef LAUNCHOPT_TUNE_TUNEPARAMETERS_H
#define LAUNCHOPT_TUNE_TUNEPARAMETERS_H

// What the tuner sweeps, read from the pass registry (Transforms/Passes.def):
// one variant (a pass flag's value: one transformed file each) and the
// macros of the transformed file. Plain C++17, for launchopt-tune.

#include <string>
#include <vector>

namespace launchopt {

struct TuneVariantParameter {
  std::string PassFlag; // the pass whose flag takes the value: --<PassFlag>=<value>
  std::string List;     // --<List> and the plan.txt key
  std::string Noun;     // "granularity"
  std::string Grammar;  // "warp|block|multiblock:<N>|grid"
  std::string Values;   // the default list
  std::string Start;
  std::string Example;
};

struct TuneMacroParameter {
  std::string PassFlag;
  std::string List;
  std::string Macro;
  std::string NamePrefix;
  std::string Column;
  std::string Label;
  std::string Values;
  unsigned Start = 0;
  std::string Example;
  bool ShownAtDefault = true;
  std::vector<std::string> OnlyForVariants; // empty: every variant
};

const TuneVariantParameter &tuneVariant();
// In registry order; a configuration's values follow this order.
const std::vector<TuneMacroParameter> &tuneMacros();
// The flags of the passes that have a tunable, in pipeline order: the
// pipeline every transformed file of a tune runs.
const std::vector<std::string> &tunedPassFlags();

// The order in which names, plan.txt, tune.csv and the space summary list
// the tunables: the macros shown at their default, the variant, then the
// other macros. A macro is its index in tuneMacros(); the variant is
// VariantSlot.
constexpr int VariantSlot = -1;
const std::vector<int> &parameterOrder();

// Whether the code of Variant reads the macro.
bool macroApplies(const TuneMacroParameter &Macro, const std::string &Variant);

} // namespace launchopt

#endif

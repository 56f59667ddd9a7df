#include "TuneParameters.h"

#include "Transforms/ChoiceGrammar.h"

#include <algorithm>

namespace launchopt {

namespace {

// "warp,block" -> its names; "" -> none.
std::vector<std::string> splitNames(const std::string &Text) {
  return Text.empty() ? std::vector<std::string>() : splitAt(Text, ',');
}

struct Registry {
  TuneVariantParameter Variant;
  std::vector<TuneMacroParameter> Macros;
  std::vector<std::string> TunedPasses;

  Registry() {
    std::vector<std::pair<std::string, std::string>> Passes; // Id -> flag
#define LAUNCHOPT_PASS(Id, Flag, Letter, Verb) Passes.push_back({#Id, Flag});
#define LAUNCHOPT_TUNE_VARIANT(Pass, List, Noun, Grammar, Values, Start, Example)                  \
  Variant = {flagOf(Passes, #Pass), List, Noun, Grammar, Values, Start, Example};                  \
  markTuned(Passes, #Pass);
#define LAUNCHOPT_TUNE_MACRO(Pass, List, Macro, NamePrefix, Column, Label, Values, Start, Example, \
                             ShownAtDefault, OnlyForVariants)                                      \
  Macros.push_back({flagOf(Passes, #Pass), List, Macro, NamePrefix, Column, Label, Values, Start,  \
                    Example, ShownAtDefault != 0, splitNames(OnlyForVariants)});                   \
  markTuned(Passes, #Pass);
#include "Transforms/Passes.def"
    // Pipeline order, whatever order the tunables were declared in.
    std::vector<std::string> Ordered;
    for (const auto &[Id, Flag] : Passes)
      if (std::find(TunedPasses.begin(), TunedPasses.end(), Flag) != TunedPasses.end())
        Ordered.push_back(Flag);
    TunedPasses = Ordered;
  }

  static std::string flagOf(const std::vector<std::pair<std::string, std::string>> &Passes,
                            const std::string &Id) {
    for (const auto &[PassId, Flag] : Passes)
      if (PassId == Id)
        return Flag;
    return Id;
  }

  void markTuned(const std::vector<std::pair<std::string, std::string>> &Passes,
                 const std::string &Id) {
    std::string Flag = flagOf(Passes, Id);
    if (std::find(TunedPasses.begin(), TunedPasses.end(), Flag) == TunedPasses.end())
      TunedPasses.push_back(Flag);
  }
};

const Registry &registry() {
  static const Registry R;
  return R;
}

} // namespace

const TuneVariantParameter &tuneVariant() { return registry().Variant; }
const std::vector<TuneMacroParameter> &tuneMacros() { return registry().Macros; }
const std::vector<std::string> &tunedPassFlags() { return registry().TunedPasses; }

const std::vector<int> &parameterOrder() {
  static const std::vector<int> Order = [] {
    std::vector<int> Slots;
    for (size_t M = 0; M < tuneMacros().size(); ++M)
      if (tuneMacros()[M].ShownAtDefault)
        Slots.push_back(static_cast<int>(M));
    Slots.push_back(VariantSlot);
    for (size_t M = 0; M < tuneMacros().size(); ++M)
      if (!tuneMacros()[M].ShownAtDefault)
        Slots.push_back(static_cast<int>(M));
    return Slots;
  }();
  return Order;
}

bool macroApplies(const TuneMacroParameter &Macro, const std::string &Variant) {
  return Macro.OnlyForVariants.empty() ||
         std::find(Macro.OnlyForVariants.begin(), Macro.OnlyForVariants.end(), Variant) !=
             Macro.OnlyForVariants.end();
}

} // namespace launchopt

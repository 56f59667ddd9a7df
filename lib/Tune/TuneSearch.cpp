#include "TuneSearch.h"

#include "TuneParameters.h"
#include "Transforms/ChoiceGrammar.h"

#include <algorithm>
#include <limits>

namespace launchopt {

std::vector<unsigned> TuneSpace::valuesFor(size_t M, const std::string &Variant) const {
  const TuneMacroParameter &Macro = tuneMacros()[M];
  if (M >= Values.size() || Values[M].empty())
    return {Macro.Start};
  if (!macroApplies(Macro, Variant))
    return {Values[M].front()};
  return Values[M];
}

std::vector<TuneConfig> TuneSpace::configs() const {
  std::vector<TuneConfig> All;
  for (const std::string &V : Variants) {
    std::vector<TuneConfig> Partial = {TuneConfig{V, {}}};
    for (size_t M = 0; M < tuneMacros().size(); ++M) {
      std::vector<TuneConfig> Longer;
      for (const TuneConfig &P : Partial)
        for (unsigned Value : valuesFor(M, V)) {
          Longer.push_back(P);
          Longer.back().Values.push_back(Value);
        }
      Partial = std::move(Longer);
    }
    All.insert(All.end(), Partial.begin(), Partial.end());
  }
  return All;
}

bool TuneSpace::contains(const TuneConfig &C) const {
  auto Has = [](const auto &Values, const auto &V) {
    return std::find(Values.begin(), Values.end(), V) != Values.end();
  };
  if (!Has(Variants, C.Variant) || C.Values.size() != tuneMacros().size())
    return false;
  for (size_t M = 0; M < C.Values.size(); ++M)
    if (!Has(valuesFor(M, C.Variant), C.Values[M]))
      return false;
  return true;
}

TuneConfig defaultTuneConfig() {
  TuneConfig C{tuneVariant().Start, {}};
  for (const TuneMacroParameter &M : tuneMacros())
    C.Values.push_back(M.Start);
  return C;
}

std::string variantFileName(const std::string &Variant) {
  std::string Name;
  for (char Ch : Variant)
    if (Ch != ':')
      Name += Ch;
  return Name;
}

namespace {

// Whether macro M is written into names, -D flags and plans for Value.
bool shown(size_t M, unsigned Value) {
  return tuneMacros()[M].ShownAtDefault || Value != tuneMacros()[M].Start;
}

} // namespace

std::string configName(const TuneConfig &C) {
  std::string Name;
  for (int Slot : parameterOrder()) {
    std::string Part = Slot == VariantSlot ? variantFileName(C.Variant)
                       : shown(Slot, C.Values[Slot])
                           ? tuneMacros()[Slot].NamePrefix + std::to_string(C.Values[Slot])
                           : "";
    if (!Part.empty())
      Name += (Name.empty() ? "" : "_") + Part;
  }
  return Name;
}

std::string configDefines(const TuneConfig &C) {
  std::string Defines;
  for (size_t M = 0; M < C.Values.size(); ++M)
    if (shown(M, C.Values[M]))
      Defines += (Defines.empty() ? "-D" : " -D") + tuneMacros()[M].Macro + "=" +
                 std::to_string(C.Values[M]);
  return Defines;
}

namespace {

bool isPositiveDecimal(const std::string &Text) {
  return !Text.empty() && Text.size() <= 9 &&
         std::all_of(Text.begin(), Text.end(), [](char Ch) { return Ch >= '0' && Ch <= '9'; }) &&
         std::stoul(Text) > 0;
}

} // namespace

std::optional<std::vector<unsigned>> parseUnsignedList(const std::string &Text) {
  std::vector<unsigned> Values;
  if (Text.empty())
    return std::nullopt;
  for (const std::string &Item : splitAt(Text, ',')) {
    if (!isPositiveDecimal(Item))
      return std::nullopt;
    unsigned V = static_cast<unsigned>(std::stoul(Item));
    if (std::find(Values.begin(), Values.end(), V) == Values.end())
      Values.push_back(V);
  }
  return Values;
}

std::optional<std::vector<std::string>> parseNameList(const std::string &Text) {
  std::vector<std::string> Names;
  if (Text.empty())
    return std::nullopt;
  for (const std::string &Item : splitAt(Text, ',')) {
    if (Item.empty())
      return std::nullopt;
    if (std::find(Names.begin(), Names.end(), Item) == Names.end())
      Names.push_back(Item);
  }
  return Names;
}

std::string formatList(const std::vector<unsigned> &Values) {
  std::string Text;
  for (unsigned V : Values)
    Text += (Text.empty() ? "" : ",") + std::to_string(V);
  return Text;
}

std::string formatList(const std::vector<std::string> &Names) {
  std::string Text;
  for (const std::string &N : Names)
    Text += (Text.empty() ? "" : ",") + N;
  return Text;
}

OrError<TuneSpace> parseTuneSpace(const std::map<std::string, std::string> &Lists) {
  auto ListOf = [&](const std::string &Option, const std::string &Default) {
    auto It = Lists.find(Option);
    return It == Lists.end() ? Default : It->second;
  };
  const TuneVariantParameter &Variant = tuneVariant();
  TuneSpace Parsed;
  std::string VariantText = ListOf(Variant.List, Variant.Values);
  auto Names = parseNameList(VariantText);
  if (!Names)
    return TuneError{"--" + Variant.List + " takes a list of " + Variant.List + " (e.g. " +
                     Variant.Example + "), got '" + VariantText + "'"};
  for (const std::string &Name : *Names)
    if (!matchChoice(Variant.Grammar, Name))
      return TuneError{"unknown " + Variant.Noun + " '" + Name + "' (" +
                       describeChoices(Variant.Grammar) + ")"};
  Parsed.Variants = *Names;
  for (const TuneMacroParameter &Macro : tuneMacros()) {
    std::string Text = ListOf(Macro.List, Macro.Values);
    auto Values = parseUnsignedList(Text);
    if (!Values)
      return TuneError{"--" + Macro.List + " takes a list of positive numbers (e.g. " +
                       Macro.Example + "), got '" + Text + "'"};
    Parsed.Values.push_back(*Values);
  }
  return Parsed;
}

std::map<std::string, std::string> formatTuneSpace(const TuneSpace &Space) {
  std::map<std::string, std::string> Lists = {{tuneVariant().List, formatList(Space.Variants)}};
  for (size_t M = 0; M < tuneMacros().size() && M < Space.Values.size(); ++M)
    Lists[tuneMacros()[M].List] = formatList(Space.Values[M]);
  return Lists;
}

TuneSpace defaultTuneSpace() { return *parseTuneSpace({}); }

TuneSearchResult exhaustiveSearch(const TuneSpace &Space, const MeasureFn &Measure) {
  TuneSearchResult Result;
  for (const TuneConfig &C : Space.configs()) {
    std::optional<double> Ms = Measure(C);
    ++Result.Runs;
    if (Ms && (!Result.Best || *Ms < Result.BestMs)) {
      Result.Best = C;
      Result.BestMs = *Ms;
    }
  }
  return Result;
}

TuneSearchResult guidedSearch(const TuneSpace &Space, const TuneConfig &Start, unsigned Budget,
                              const MeasureFn &Measure) {
  TuneSearchResult Result;
  std::vector<TuneConfig> Tried;
  std::vector<TuneConfig> All = Space.configs();
  if (All.empty() || Budget == 0)
    return Result;
  // The current point of the descent; it may have failed (then anything that
  // runs is better), which is why it is kept apart from Result.Best.
  TuneConfig Current = Space.contains(Start) ? Start : All.front();
  double CurrentMs = std::numeric_limits<double>::infinity();
  auto Try = [&](const TuneConfig &C) {
    if (Result.Runs >= Budget || std::find(Tried.begin(), Tried.end(), C) != Tried.end())
      return false;
    Tried.push_back(C);
    ++Result.Runs;
    std::optional<double> Ms = Measure(C);
    if (!Ms || *Ms >= CurrentMs)
      return false;
    Current = C;
    CurrentMs = *Ms;
    Result.Best = C;
    Result.BestMs = *Ms;
    return true;
  };
  Try(Current);
  bool Improved = true;
  while (Improved && Result.Runs < Budget) {
    Improved = false;
    // The variant first: it changes the generated code, the macros only tune it.
    for (size_t Axis = 0; Axis <= tuneMacros().size(); ++Axis) {
      size_t Count =
          Axis == 0 ? Space.Variants.size() : Space.valuesFor(Axis - 1, Current.Variant).size();
      for (size_t I = 0; I < Count; ++I) {
        TuneConfig C = Current;
        if (Axis == 0) {
          C.Variant = Space.Variants[I];
          // A variant that does not read a macro has one value of it.
          for (size_t M = 0; M < C.Values.size(); ++M) {
            std::vector<unsigned> Allowed = Space.valuesFor(M, C.Variant);
            if (std::find(Allowed.begin(), Allowed.end(), C.Values[M]) == Allowed.end())
              C.Values[M] = Allowed.front();
          }
        } else {
          C.Values[Axis - 1] = Space.valuesFor(Axis - 1, Current.Variant)[I];
        }
        Improved |= Try(C);
      }
    }
  }
  return Result;
}

double ConfirmedTimes::median() const {
  if (Ms.empty())
    return 0;
  std::vector<double> Sorted = Ms;
  std::sort(Sorted.begin(), Sorted.end());
  size_t Mid = Sorted.size() / 2;
  return Sorted.size() % 2 ? Sorted[Mid] : (Sorted[Mid - 1] + Sorted[Mid]) / 2;
}

std::vector<TuneConfig> fastestConfigs(const std::vector<std::pair<TuneConfig, double>> &Times,
                                       unsigned Count) {
  std::vector<std::pair<TuneConfig, double>> Lowest;
  for (const auto &[Config, Ms] : Times) {
    auto It = std::find_if(Lowest.begin(), Lowest.end(),
                           [&](const auto &P) { return P.first == Config; });
    if (It == Lowest.end())
      Lowest.push_back({Config, Ms});
    else
      It->second = std::min(It->second, Ms);
  }
  std::stable_sort(Lowest.begin(), Lowest.end(),
                   [](const auto &A, const auto &B) { return A.second < B.second; });
  std::vector<TuneConfig> Result;
  for (size_t I = 0; I < Lowest.size() && I < Count; ++I)
    Result.push_back(Lowest[I].first);
  return Result;
}

ConfirmResult confirmBest(const std::vector<TuneConfig> &Candidates, unsigned Rounds,
                          const MeasureFn &Measure) {
  ConfirmResult R;
  for (const TuneConfig &C : Candidates)
    R.Candidates.push_back({C, {}, false});
  for (unsigned Round = 0; Round < Rounds; ++Round)
    for (ConfirmedTimes &T : R.Candidates) {
      if (T.Failed)
        continue;
      ++R.Runs;
      if (std::optional<double> Ms = Measure(T.Config))
        T.Ms.push_back(*Ms);
      else
        T.Failed = true;
    }
  for (const ConfirmedTimes &T : R.Candidates)
    if (!T.Failed && !T.Ms.empty() && (!R.Best || T.median() < R.BestMs)) {
      R.Best = T.Config;
      R.BestMs = T.median();
    }
  return R;
}

} // namespace launchopt

#include "TuneSearch.h"

#include <algorithm>
#include <limits>

namespace launchopt {

bool aggThresholdApplies(const std::string &Granularity) {
  return Granularity == "warp" || Granularity == "block";
}

namespace {

// The aggregation thresholds a granularity is tried with.
std::vector<unsigned> aggThresholdsFor(const TuneSpace &Space, const std::string &Granularity) {
  if (Space.AggThresholds.empty())
    return {DefaultAggThreshold};
  if (!aggThresholdApplies(Granularity))
    return {Space.AggThresholds.front()};
  return Space.AggThresholds;
}

} // namespace

std::vector<TuneConfig> TuneSpace::configs() const {
  std::vector<TuneConfig> All;
  for (const std::string &G : Granularities)
    for (unsigned T : Thresholds)
      for (unsigned F : CoarsenFactors)
        for (unsigned A : aggThresholdsFor(*this, G))
          All.push_back(TuneConfig{T, F, G, A});
  return All;
}

bool TuneSpace::contains(const TuneConfig &C) const {
  auto Has = [](const auto &Values, const auto &V) {
    return std::find(Values.begin(), Values.end(), V) != Values.end();
  };
  return Has(Thresholds, C.Threshold) && Has(CoarsenFactors, C.CoarsenFactor) &&
         Has(Granularities, C.Granularity) &&
         Has(aggThresholdsFor(*this, C.Granularity), C.AggThreshold);
}

TuneConfig defaultTuneConfig() { return TuneConfig{256, 4, "block", DefaultAggThreshold}; }

std::string granularityFileName(const std::string &Granularity) {
  std::string Name;
  for (char Ch : Granularity)
    if (Ch != ':')
      Name += Ch;
  return Name;
}

std::string configName(const TuneConfig &C) {
  return "t" + std::to_string(C.Threshold) + "_c" + std::to_string(C.CoarsenFactor) + "_" +
         granularityFileName(C.Granularity) +
         (C.AggThreshold == DefaultAggThreshold ? "" : "_a" + std::to_string(C.AggThreshold));
}

std::string configDefines(const TuneConfig &C) {
  return "-DLAUNCHOPT_THRESHOLD=" + std::to_string(C.Threshold) +
         " -DLAUNCHOPT_CFACTOR=" + std::to_string(C.CoarsenFactor) +
         (C.AggThreshold == DefaultAggThreshold
              ? ""
              : " -DLAUNCHOPT_AGG_THRESHOLD=" + std::to_string(C.AggThreshold));
}

namespace {

std::vector<std::string> splitCommas(const std::string &Text) {
  std::vector<std::string> Items;
  size_t Start = 0;
  while (true) {
    size_t Comma = Text.find(',', Start);
    Items.push_back(Text.substr(Start, Comma == std::string::npos ? Comma : Comma - Start));
    if (Comma == std::string::npos)
      return Items;
    Start = Comma + 1;
  }
}

bool isPositiveDecimal(const std::string &Text) {
  return !Text.empty() && Text.size() <= 9 &&
         std::all_of(Text.begin(), Text.end(), [](char Ch) { return Ch >= '0' && Ch <= '9'; }) &&
         std::stoul(Text) > 0;
}

} // namespace

bool isValidGranularity(const std::string &Granularity) {
  static const std::string MultiBlock = "multiblock:";
  if (Granularity == "warp" || Granularity == "block" || Granularity == "grid")
    return true;
  return Granularity.compare(0, MultiBlock.size(), MultiBlock) == 0 &&
         isPositiveDecimal(Granularity.substr(MultiBlock.size()));
}

std::optional<std::vector<unsigned>> parseUnsignedList(const std::string &Text) {
  std::vector<unsigned> Values;
  if (Text.empty())
    return std::nullopt;
  for (const std::string &Item : splitCommas(Text)) {
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
  for (const std::string &Item : splitCommas(Text)) {
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

std::string parseTuneSpace(const std::string &Thresholds, const std::string &CoarsenFactors,
                           const std::string &Granularities, TuneSpace &Space,
                           const std::string &AggThresholds) {
  auto T = parseUnsignedList(Thresholds);
  if (!T)
    return "--thresholds takes a list of positive numbers (e.g. 32,128,256,1024), got '" +
           Thresholds + "'";
  auto F = parseUnsignedList(CoarsenFactors);
  if (!F)
    return "--cfactors takes a list of positive numbers (e.g. 1,2,4,8), got '" + CoarsenFactors +
           "'";
  auto G = parseNameList(Granularities);
  if (!G)
    return "--granularities takes a list of granularities (e.g. warp,block,multiblock:8,grid), "
           "got '" +
           Granularities + "'";
  for (const std::string &Name : *G)
    if (!isValidGranularity(Name))
      return "unknown granularity '" + Name + "' (warp, block, multiblock:<N> or grid)";
  auto A = parseUnsignedList(AggThresholds);
  if (!A)
    return "--agg-thresholds takes a list of positive numbers (e.g. 2,8,32), got '" +
           AggThresholds + "'";
  Space = TuneSpace{*T, *F, *G, *A};
  return "";
}

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
    // Granularity first: it changes the generated code, the macros only tune it.
    for (unsigned Axis = 0; Axis < 4; ++Axis) {
      std::vector<unsigned> Aggs = aggThresholdsFor(Space, Current.Granularity);
      size_t Count = Axis == 0   ? Space.Granularities.size()
                     : Axis == 1 ? Space.Thresholds.size()
                     : Axis == 2 ? Space.CoarsenFactors.size()
                                 : Aggs.size();
      for (size_t I = 0; I < Count; ++I) {
        TuneConfig C = Current;
        if (Axis == 0) {
          C.Granularity = Space.Granularities[I];
          // A granularity the aggregation threshold does not apply to has one.
          std::vector<unsigned> Allowed = aggThresholdsFor(Space, C.Granularity);
          if (std::find(Allowed.begin(), Allowed.end(), C.AggThreshold) == Allowed.end())
            C.AggThreshold = Allowed.front();
        } else if (Axis == 1) {
          C.Threshold = Space.Thresholds[I];
        } else if (Axis == 2) {
          C.CoarsenFactor = Space.CoarsenFactors[I];
        } else {
          C.AggThreshold = Aggs[I];
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

#include "Candidates.h"

#include "Transforms/LaunchPass.h"

namespace launchopt {

const std::vector<Candidate> &autoCandidates() {
  auto ThresholdCoarsenAggregate = [](const char *Granularity) {
    return Candidate{
        std::string("T+C+A:") + Granularity,
        {{"threshold", "", false}, {"coarsen", "", false}, {"aggregate", Granularity, true}},
        costThresholdAggregate};
  };
  auto Promotion = [](const char *Mode) {
    return Candidate{
        std::string("P") + (*Mode ? ":" : "") + Mode, {{"promote", Mode, true}}, costPromotion};
  };
  static const std::vector<Candidate> All = {
      {"as written", {}, costAsWritten},
      // The removal pass picks its version (T1-T4) itself at each site.
      {"R", {{"remove-launches", "auto", true}}, costRemoval},
      ThresholdCoarsenAggregate("warp"),
      ThresholdCoarsenAggregate("block"),
      ThresholdCoarsenAggregate("multiblock:8"),
      ThresholdCoarsenAggregate("grid"),
      ThresholdCoarsenAggregate("threads"),
      // Launched by the host after a host-launched parent: for large grids
      // only (smaller ones aggregate in multi-block scopes), or for all.
      // Listed first, host-or-device wins a tie with host.
      ThresholdCoarsenAggregate("host-or-device"),
      ThresholdCoarsenAggregate("threads:host-or-device"),
      ThresholdCoarsenAggregate("host"),
      ThresholdCoarsenAggregate("threads:host"),
      {"T", {{"threshold", "", true}}, costThresholdOnly},
      {"T+S", {{"threshold", "", false}, {"spawn", "", true}}, costSpawn},
      // Pools of 32 (the bench's PA and PAO) and 1,024 successors.
      Promotion(""),
      Promotion("PO"),
      Promotion("PA:32"),
      Promotion("PAO:32"),
      Promotion("PA:1024"),
      Promotion("PAO:1024"),
  };
  return All;
}
std::string takenName(const Candidate &C, const TakenSteps &Taken) {
  if (Taken.empty())
    return C.Name;
  std::string Name, Value;
  for (const PassStep *S : Taken) {
    const RegisteredPass *P = findPass(S->Flag);
    Name += (Name.empty() ? "" : "+") + (P ? P->Letter : S->Flag);
    if (!S->Value.empty())
      Value = S->Value;
  }
  return Value.empty() ? Name : Name + ":" + Value;
}

} // namespace launchopt

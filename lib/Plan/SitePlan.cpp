#include "SitePlan.h"

#include "Transforms/LaunchPass.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace launchopt {

namespace {

struct Priced {
  const Candidate *Of = nullptr;
  TakenSteps Taken;
  Estimate Cost;
  std::string name() const { return takenName(*Of, Taken); }
};

// A candidate a pass did not take: the pass's flag as run (`--promote=PO`)
// and what it said (`refuses: ...`, or `was not tried`).
struct Refusal {
  std::string Candidate, Flag, FlagValue, Said;
  std::string text() const {
    return Candidate + ": not possible: " + Flag + FlagValue + " " + Said;
  }
};

struct SiteChoice {
  const SiteFacts *Facts = nullptr;
  std::vector<Priced> Possible;     // in the table's order
  std::vector<Refusal> Refused;
  size_t Chosen = 0;
  std::string ProgramNote;
};

std::string microseconds(double V) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, V < 10 ? "%.2f us" : "%.0f us", V);
  return Buffer;
}

// The refusals with one pass's flag and one reason as one entry
// ("P, P:PO: not possible: --promote refuses: ..."): the promotion and
// aggregation variants of a site are often refused alike. A refusal alone
// keeps its flag's value.
std::vector<std::string> groupedRefusals(const std::vector<Refusal> &Refused) {
  std::vector<std::vector<const Refusal *>> Groups;
  for (const Refusal &R : Refused) {
    auto Group = std::find_if(Groups.begin(), Groups.end(), [&](const auto &G) {
      return G.front()->Flag == R.Flag && G.front()->Said == R.Said &&
             llvm::StringRef(R.Said).starts_with("refuses: ");
    });
    if (Group == Groups.end())
      Groups.push_back({&R});
    else
      Group->push_back(&R);
  }
  std::vector<std::string> Out;
  for (const std::vector<const Refusal *> &G : Groups) {
    if (G.size() == 1) {
      Out.push_back(G.front()->text());
      continue;
    }
    std::string Names;
    for (const Refusal *R : G)
      Names += (Names.empty() ? "" : ", ") + R->Candidate;
    Out.push_back(Names + ": not possible: " + G.front()->Flag + " " + G.front()->Said);
  }
  return Out;
}

std::string flagText(const PassStep &S) {
  return "--" + S.Flag + (S.Value.empty() ? "" : "=" + S.Value);
}

// Steps that would hide the child's own launches (a recursion's, or a
// launching child's) from aggregation, which such a launch then does
// without: coarsening that runs the child's body, launches and all, in a
// device function per original block (the coarsen probe's loop-body),
// which aggregation must leave; and a threshold that launches every child
// (1): it gains nothing, while its serial copy would hold the launches in a
// device function too.
void dropStepsHidingTheRecursion(const SiteFacts &F, Priced &P) {
  bool Aggregates = std::any_of(P.Taken.begin(), P.Taken.end(),
                                [](const PassStep *S) { return S->Flag == "aggregate"; });
  if (!(F.Recursive || F.ChildLaunches) || !Aggregates)
    return;
  auto Threshold = P.Cost.Options.find("threshold-value");
  bool DropThreshold = Threshold != P.Cost.Options.end() && Threshold->second == "1";
  // Only where no threshold stays: thresholded, the child's launches are
  // in its serial copy anyway, and the copies of a coarsened child were
  // seen to keep the recursion aggregated (test/lit/Auto/recursive-child.cu).
  bool Thresholded =
      !DropThreshold && std::any_of(P.Taken.begin(), P.Taken.end(),
                                    [](const PassStep *S) { return S->Flag == "threshold"; });
  auto Coarsen = F.Probes.find("coarsen");
  bool DropCoarsen = !Thresholded && Coarsen != F.Probes.end() &&
                     Coarsen->second.Parameters.count("loop-body") &&
                     Coarsen->second.Parameters.at("loop-body").rfind("a per-block", 0) == 0;
  auto Dropped = [&](const PassStep *S) {
    return (DropCoarsen && S->Flag == "coarsen") || (DropThreshold && S->Flag == "threshold");
  };
  P.Taken.erase(std::remove_if(P.Taken.begin(), P.Taken.end(), Dropped), P.Taken.end());
  if (DropCoarsen)
    P.Cost.Options.erase("coarsen-factor");
  if (DropThreshold)
    P.Cost.Options.erase("threshold-value");
  for (auto &[Key, Text] : P.Cost.Numbers)
    if (Key == "coarsen-factor" && DropCoarsen)
      Text = "not taken (coarsening a launching child moves its launches into a device "
             "function, which aggregation leaves)";
    else if (Key == "threshold" && DropThreshold)
      Text = "not taken (a launching child launched every time: its serial copy would hold "
             "its launches in a device function, which aggregation leaves)";
}

SiteChoice priceSite(const SiteFacts &F, const LaunchCosts &Costs) {
  SiteChoice Choice;
  Choice.Facts = &F;
  for (const Candidate &C : autoCandidates()) {
    Priced P{&C, {}, {}};
    std::optional<Refusal> Refused;
    for (const PassStep &S : C.Steps) {
      auto Probe = F.Probes.find(S.probeKey());
      bool Applied = Probe != F.Probes.end() && Probe->second.Applied;
      if (Applied)
        P.Taken.push_back(&S);
      else if (S.Required) {
        Refused =
            Refusal{C.Name, "--" + S.Flag, S.Value.empty() ? "" : "=" + S.Value,
                    Probe == F.Probes.end() ? "was not tried" : "refuses: " + Probe->second.Reason};
        break;
      }
    }
    if (Refused) {
      Choice.Refused.push_back(std::move(*Refused));
      continue;
    }
    P.Cost = C.Cost(F, Costs, P.Taken);
    dropStepsHidingTheRecursion(F, P);
    Choice.Possible.push_back(std::move(P));
  }
  return Choice;
}

// The cheapest of the possible candidates that Allowed accepts; the earlier
// in the table on a tie (launch removal before aggregation: no launch left).
template <typename Filter> size_t cheapest(const SiteChoice &Choice, Filter Allowed) {
  size_t Best = 0;
  bool Found = false;
  for (size_t I = 0; I < Choice.Possible.size(); ++I)
    if (Allowed(Choice.Possible[I]) && (!Found || Choice.Possible[I].Cost.Microseconds <
                                                      Choice.Possible[Best].Cost.Microseconds)) {
      Best = I;
      Found = true;
    }
  return Best; // "as written" is always possible and allowed
}

std::string valueFor(const Priced &P, const std::string &Flag, bool &Has) {
  for (const PassStep *S : P.Taken)
    if (S->Flag == Flag) {
      Has = true;
      return S->Value;
    }
  Has = false;
  return "";
}

// A child's launch of itself that the persistent grid of a removed launch
// of the child records (launch removal's probe says so): it is no partner
// of that launch, and it stays as written for every other pass, whose
// edits would hide it from the grid's copies.
bool recordedByPersistentGrid(const SiteFacts &F) {
  auto Probe = F.Probes.find("remove-launches=auto");
  return Probe != F.Probes.end() && Probe->second.Parameters.count("recorded-by");
}

// Whether launch removal's choice records the launch in its parent's
// persistent grid (T1, T2, the megakernel), which records every launch of
// the parent or none: a cooperative kernel cannot launch.
bool recordedInParentGrid(const SiteFacts &F) {
  auto Probe = F.Probes.find("remove-launches=auto");
  if (Probe == F.Probes.end() || !Probe->second.Parameters.count("version"))
    return false;
  llvm::StringRef Version = Probe->second.Parameters.at("version");
  return Version.starts_with("megakernel") || Version.starts_with("T1") ||
         Version.starts_with("T2");
}

bool removes(const SiteChoice &C) {
  bool Removes = false;
  valueFor(C.Possible[C.Chosen], "remove-launches", Removes);
  return Removes;
}

// Where a launch of a recursive child is removed into a persistent grid, the
// child's launches of itself stay as written: the grid records them.
void leaveRecordedRecursion(std::vector<SiteChoice> &Choices) {
  for (const SiteChoice &Removed : Choices) {
    if (!removes(Removed))
      continue;
    for (SiteChoice &Own : Choices) {
      const SiteFacts &F = *Own.Facts;
      if (&Own == &Removed || F.File != Removed.Facts->File || F.Parent != Removed.Facts->Child ||
          !recordedByPersistentGrid(F))
        continue;
      size_t AsWritten = cheapest(Own, [](const Priced &P) { return P.Of->Steps.empty(); });
      if (AsWritten == Own.Chosen)
        continue;
      Own.ProgramNote = "the launch at line " + std::to_string(Removed.Facts->Position.Line) +
                        " is removed into a persistent grid that records this launch (" +
                        Removed.Possible[Removed.Chosen].name() + "), so not " +
                        Own.Possible[Own.Chosen].name();
      Own.Chosen = AsWritten;
    }
  }
}

// Launches that passes must take alike get one candidate, the cheapest
// possible for all of them: launches of one parent thread into one ordered
// stream, which keep their order only when taken alike (aggregation's
// ordered scopes, the removal of all of them, the order guard); and a launch
// whose choice removes it together with its child's own launches, which
// the removal copies into the parent's code, out of every other pass's
// reach; and the launches of one parent that launch removal records in the
// parent's persistent grid, which takes all of them or none (exclusive_branches
// on the H200: removal at two of three sites and aggregation at the third
// ran 0.79x the program as written, removal at all three 12.6x). Groups are
// as far as these links reach.
void agreeWithinLinkedGroups(std::vector<SiteChoice> &Choices) {
  std::vector<size_t> Group(Choices.size());
  for (size_t I = 0; I < Choices.size(); ++I)
    Group[I] = I;
  std::function<size_t(size_t)> Root = [&](size_t I) {
    return Group[I] == I ? I : Group[I] = Root(Group[I]);
  };
  for (size_t I = 0; I < Choices.size(); ++I)
    for (unsigned Partner : Choices[I].Facts->OrderedPartners)
      for (size_t J = 0; J < Choices.size(); ++J)
        if (Choices[J].Facts->File == Choices[I].Facts->File &&
            Choices[J].Facts->LaunchId == Partner)
          Group[Root(J)] = Root(I);
  for (size_t I = 0; I < Choices.size(); ++I)
    for (size_t J = I + 1; J < Choices.size(); ++J)
      if (Choices[J].Facts->File == Choices[I].Facts->File &&
          Choices[J].Facts->Parent == Choices[I].Facts->Parent &&
          recordedInParentGrid(*Choices[I].Facts) && recordedInParentGrid(*Choices[J].Facts))
        Group[Root(J)] = Root(I);
  for (size_t I = 0; I < Choices.size(); ++I)
    if (removes(Choices[I]))
      for (size_t J = 0; J < Choices.size(); ++J)
        if (J != I && Choices[J].Facts->File == Choices[I].Facts->File &&
            Choices[J].Facts->Parent == Choices[I].Facts->Child &&
            !recordedByPersistentGrid(*Choices[J].Facts))
          Group[Root(J)] = Root(I);
  std::map<size_t, std::vector<size_t>> Members;
  for (size_t I = 0; I < Choices.size(); ++I)
    Members[Root(I)].push_back(I);
  for (const auto &[Key, Sites] : Members) {
    if (Sites.size() < 2 || std::all_of(Sites.begin(), Sites.end(), [&](size_t I) {
          return Choices[I].Possible[Choices[I].Chosen].Of ==
                 Choices[Sites[0]].Possible[Choices[Sites[0]].Chosen].Of;
        }))
      continue;
    // The candidate every member may take that costs least over the group
    // ("as written" is possible everywhere).
    const Candidate *Best = nullptr;
    double BestTotal = 0;
    for (const Priced &P : Choices[Sites[0]].Possible) {
      double Total = 0;
      bool Everywhere = true;
      for (size_t I : Sites) {
        auto Same = std::find_if(Choices[I].Possible.begin(), Choices[I].Possible.end(),
                                 [&](const Priced &Q) { return Q.Of == P.Of; });
        if (Same == Choices[I].Possible.end()) {
          Everywhere = false;
          break;
        }
        Total += Same->Cost.Microseconds;
      }
      if (Everywhere && (!Best || Total < BestTotal)) {
        Best = P.Of;
        BestTotal = Total;
      }
    }
    std::vector<std::string> Lines;
    for (size_t I : Sites)
      Lines.push_back("line " + std::to_string(Choices[I].Facts->Position.Line));
    for (size_t I : Sites) {
      SiteChoice &C = Choices[I];
      size_t Again = cheapest(C, [&](const Priced &P) { return P.Of == Best; });
      if (Again != C.Chosen)
        C.ProgramNote = "the launches at " + llvm::join(Lines, ", ") +
                        " take one candidate (they share an ordered stream, removing one "
                        "would copy the others into its parent, or one persistent grid records "
                        "them all), " +
                        C.Possible[Again].name() + ", the cheapest for all of them, so not " +
                        C.Possible[C.Chosen].name();
      C.Chosen = Again;
    }
  }
}

// A pass runs once per program, with one value: where sites chose different
// values of one flag, the value whose sites cost least in total wins, and
// those sites choose again among the candidates with that value or without
// the flag.
void agreeOnValues(std::vector<SiteChoice> &Choices) {
  for (const RegisteredPass &Pass : registeredPasses()) {
    std::set<std::string> Values;
    for (const SiteChoice &C : Choices) {
      bool Has = false;
      std::string V = valueFor(C.Possible[C.Chosen], Pass.Flag, Has);
      if (Has)
        Values.insert(V);
    }
    if (Values.size() < 2)
      continue;
    auto Compatible = [&](const std::string &Value) {
      return [&, Value](const Priced &P) {
        bool Has = false;
        std::string V = valueFor(P, Pass.Flag, Has);
        return !Has || V == Value;
      };
    };
    std::string Best;
    double BestTotal = 0;
    for (const std::string &V : Values) {
      double Total = 0;
      for (const SiteChoice &C : Choices)
        Total += C.Possible[cheapest(C, Compatible(V))].Cost.Microseconds;
      if (Best.empty() || Total < BestTotal) {
        Best = V;
        BestTotal = Total;
      }
    }
    for (SiteChoice &C : Choices) {
      size_t Again = cheapest(C, Compatible(Best));
      if (Again != C.Chosen)
        C.ProgramNote = "--" + Pass.Flag + "=" + Best + " for the whole program (sites chose " +
                        llvm::join(Values.begin(), Values.end(), ", ") +
                        "; a pass runs once per program), so not " + C.Possible[C.Chosen].name();
      C.Chosen = Again;
    }
  }
}

// A site whose choice uses a flag of Fixed takes the cheapest candidate with
// the fixed value instead, where one takes it; the others keep their choice.
void fixValues(std::vector<SiteChoice> &Choices, const std::map<std::string, std::string> &Fixed) {
  for (const auto &[Flag, Value] : Fixed)
    for (SiteChoice &C : Choices) {
      bool Has = false;
      std::string Chosen = valueFor(C.Possible[C.Chosen], Flag, Has);
      if (!Has || Chosen == Value)
        continue;
      bool Found = false;
      size_t With = cheapest(C, [&](const Priced &P) {
        bool PHas = false;
        bool Match = valueFor(P, Flag, PHas) == Value && PHas;
        Found |= Match;
        return Match;
      });
      if (!Found)
        continue;
      C.ProgramNote = "--" + Flag + "=" + Value + " fixed for this file (launchopt tune --auto), " +
                      "so not " + C.Possible[C.Chosen].name();
      C.Chosen = With;
    }
}

// Why a site stays as written: the cheapest candidate that would change it
// and by how much the model prices it higher, then what refused the site.
std::string keptAsWrittenBecause(const SiteChoice &C) {
  const Priced &Chosen = C.Possible[C.Chosen];
  std::vector<std::string> Why;
  const Priced *Next = nullptr;
  for (size_t I = 0; I < C.Possible.size(); ++I)
    if (I != C.Chosen && (!Next || C.Possible[I].Cost.Microseconds < Next->Cost.Microseconds))
      Next = &C.Possible[I];
  double Extra = Next ? Next->Cost.Microseconds - Chosen.Cost.Microseconds : 0;
  if (!C.ProgramNote.empty())
    Why.push_back(C.ProgramNote);
  else if (Next && Extra > 0)
    Why.push_back("the model prices every candidate that changes it higher (the cheapest, " +
                  Next->name() + ", by " + microseconds(Extra) + ")");
  else if (Next)
    Why.push_back(Extra == 0 ? "a tie with " + Next->name() + ": the candidate listed first wins"
                             : "the program's value of a pass excludes " + Next->name());
  std::vector<std::string> Refused = groupedRefusals(C.Refused);
  if (!Refused.empty())
    Why.push_back((Next ? "the other passes refuse it: " : "no pass takes it: ") +
                  llvm::join(Refused, "; "));
  if (Why.empty())
    return "kept as written";
  return "kept as written: " + llvm::join(Why, "; ");
}

LaunchRemark decisionRemark(const SiteChoice &C) {
  const SiteFacts &F = *C.Facts;
  const Priced &Chosen = C.Possible[C.Chosen];
  LaunchRemark R;
  R.LaunchId = F.LaunchId;
  R.Position = F.Position;
  R.Pass = "auto";
  R.Parent = F.Parent;
  R.Child = F.Child;
  // Keeping the launch as written changes nothing: the remark says why,
  // since a remark on standard error shows its message alone.
  R.Applied = !Chosen.Taken.empty();
  if (!R.Applied)
    R.Message = keptAsWrittenBecause(C);
  R.Parameters = describeFacts(F);
  R.Parameters["choice"] = Chosen.name() + " (" + microseconds(Chosen.Cost.Microseconds) + ")";
  std::vector<std::string> Flags, Model, Lost;
  for (const PassStep *S : Chosen.Taken)
    Flags.push_back(flagText(*S));
  R.Parameters["passes"] = Flags.empty() ? "none" : llvm::join(Flags, " ");
  for (const auto &[Key, Value] : Chosen.Cost.Numbers)
    Model.push_back(Key + ": " + Value);
  R.Parameters["model"] = Model.empty() ? "-" : llvm::join(Model, "; ");
  for (size_t I = 0; I < C.Possible.size(); ++I)
    if (I != C.Chosen) {
      double Extra = C.Possible[I].Cost.Microseconds - Chosen.Cost.Microseconds;
      Lost.push_back(C.Possible[I].name() + ": " + microseconds(C.Possible[I].Cost.Microseconds) +
                     (Extra > 0    ? " (+" + microseconds(Extra) + ")"
                      : Extra == 0 ? " (a tie: the candidate listed first wins)"
                                   : " (the program's value of a pass excludes it)"));
    }
  std::vector<std::string> Refused = groupedRefusals(C.Refused);
  Lost.insert(Lost.end(), Refused.begin(), Refused.end());
  R.Parameters["rejected"] = llvm::join(Lost, "; ");
  if (!C.ProgramNote.empty())
    R.Parameters["program"] = C.ProgramNote;
  return R;
}

} // namespace

ProgramPlan planProgram(const std::vector<SiteFacts> &Sites, size_t Files, const LaunchCosts &Costs,
                        const std::map<std::string, std::string> &Fixed) {
  std::vector<SiteChoice> Choices;
  for (const SiteFacts &F : Sites) {
    Choices.push_back(priceSite(F, Costs));
    Choices.back().Chosen = cheapest(Choices.back(), [](const Priced &) { return true; });
  }
  agreeWithinLinkedGroups(Choices);
  agreeOnValues(Choices);
  fixValues(Choices, Fixed);
  leaveRecordedRecursion(Choices);

  ProgramPlan Plan;
  for (const SiteChoice &C : Choices)
    Plan.Decisions.push_back(decisionRemark(C));
  for (const RegisteredPass &Pass : registeredPasses()) {
    PlannedPass Planned{Pass.Flag, "", {}, {}};
    Planned.Left.resize(Files);
    bool Used = false;
    double Heaviest = -1;
    for (const SiteChoice &C : Choices) {
      const Priced &P = C.Possible[C.Chosen];
      bool Has = false;
      std::string Value = valueFor(P, Pass.Flag, Has);
      const SiteFacts &F = *C.Facts;
      if (!Has) {
        Planned.Left[F.File][{F.Position.Line, F.Position.Column}] =
            "--auto chose " + P.name() + " for this launch";
        continue;
      }
      Used = true;
      Planned.Value = Value;
      // Options are macros of the output, one per program: the site the
      // model prices highest sets them.
      if (P.Cost.Microseconds > Heaviest) {
        Heaviest = P.Cost.Microseconds;
        for (const PassOption &O : Pass.Description.Options) {
          auto Set = P.Cost.Options.find(O.Name);
          if (Set != P.Cost.Options.end())
            Planned.Options[O.Name] = Set->second;
        }
      }
    }
    if (Used)
      Plan.Passes.push_back(std::move(Planned));
  }
  return Plan;
}

} // namespace launchopt

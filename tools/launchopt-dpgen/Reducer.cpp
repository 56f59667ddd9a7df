#include "Reducer.h"
#include "Printer.h"
#include <algorithm>
#include <map>
#include <thread>

namespace dpgen {
namespace {

void collectStatements(const std::vector<Stmt> &Body, std::vector<int> &Ids) {
  for (const Stmt &S : Body) {
    Ids.push_back(S.Id);
    collectStatements(S.Body, Ids);
  }
}

/// Largest first: a removed kernel takes its launches with it, a removed
/// branch or loop its body, so they are tried before what they contain.
std::vector<int> removableItems(const Program &P) {
  std::vector<int> Ids;
  for (size_t I = 1; I < P.Kernels.size(); ++I)
    Ids.push_back(P.Kernels[I].Id);
  for (const Callee &C : P.Callees)
    Ids.push_back(C.Id);
  for (const Kernel &K : P.Kernels)
    collectStatements(K.Body, Ids);
  return Ids;
}

} // namespace

Reduction reduceProgram(const Program &P, const FailurePredicate &StillFails, unsigned Jobs,
                        const std::function<void(const std::string &)> &OnSmaller) {
  Reduction R;
  Jobs = std::max(Jobs, 1u);
  std::vector<int> Kept = removableItems(P);
  R.Items = static_cast<unsigned>(Kept.size());
  std::map<std::string, bool> Seen; // items already dead print the same text
  Seen[printFile({P}, R.Removed)] = true;

  // The trials of one round, Jobs at a time; the answer is the first that
  // still fails in trial order, so any Jobs reduces to the same program.
  auto FirstFailing = [&](const std::vector<RemovedSet> &Trials) -> int {
    for (size_t Begin = 0; Begin < Trials.size(); Begin += Jobs) {
      size_t End = std::min(Trials.size(), Begin + Jobs);
      std::vector<std::string> Sources;
      std::vector<char> Known(End - Begin, 0), Failed(End - Begin, 0);
      for (size_t I = Begin; I < End; ++I) {
        Sources.push_back(printFile({P}, Trials[I]));
        auto Found = Seen.find(Sources.back());
        if (Found != Seen.end()) {
          Known[I - Begin] = 1;
          Failed[I - Begin] = Found->second;
        }
      }
      std::vector<std::thread> Workers;
      for (size_t I = 0; I < Sources.size(); ++I)
        if (!Known[I])
          Workers.emplace_back(
              [&, I] { Failed[I] = StillFails(Sources[I], static_cast<unsigned>(I)); });
      for (std::thread &Worker : Workers)
        Worker.join();
      R.Tests += static_cast<unsigned>(Workers.size());
      for (size_t I = 0; I < Sources.size(); ++I)
        Seen[Sources[I]] = Failed[I];
      for (size_t I = 0; I < Sources.size(); ++I)
        if (Failed[I])
          return static_cast<int>(Begin + I);
    }
    return -1;
  };

  size_t Chunks = 2;
  while (!Kept.empty()) {
    Chunks = std::min(Chunks, Kept.size());
    size_t Size = (Kept.size() + Chunks - 1) / Chunks;
    std::vector<RemovedSet> Trials;
    std::vector<std::pair<size_t, size_t>> Ranges;
    for (size_t Start = 0; Start < Kept.size(); Start += Size) {
      size_t End = std::min(Kept.size(), Start + Size);
      RemovedSet Trial = R.Removed;
      Trial.insert(Kept.begin() + Start, Kept.begin() + End);
      Trials.push_back(std::move(Trial));
      Ranges.emplace_back(Start, End);
    }
    int Hit = FirstFailing(Trials);
    if (Hit >= 0) {
      R.Removed = Trials[Hit];
      Kept.erase(Kept.begin() + Ranges[Hit].first, Kept.begin() + Ranges[Hit].second);
      Chunks = std::max<size_t>(Chunks - 1, 2);
      if (OnSmaller)
        OnSmaller(printFile({P}, R.Removed));
      continue;
    }
    if (Chunks >= Kept.size())
      break;
    Chunks = std::min(Kept.size(), Chunks * 2);
  }
  R.Source = printFile({P}, R.Removed);
  return R;
}

} // namespace dpgen

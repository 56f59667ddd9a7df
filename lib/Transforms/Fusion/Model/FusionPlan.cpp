#include "FusionPlan.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace launchopt {

std::string whyAlone(const ProjectionModel &Model, unsigned K) {
  const FusionProblem &P = Model.problem();
  // Partners nearest in launch order first: their pairing is the fusion a
  // reader expects.
  std::set<unsigned> Partners;
  for (unsigned J = 0; J < P.Kernels.size(); ++J)
    if (J != K && P.Kernels[J].Segment == P.Kernels[K].Segment)
      for (const ArrayUse &U : P.Kernels[K].Uses)
        if (P.Kernels[J].use(U.Array))
          Partners.insert(J);
  if (Partners.empty()) {
    // What ends its sequence: the boundary before the next segment, else the
    // one that started its own.
    std::string Boundary = P.Kernels[K].SegmentBoundary;
    unsigned Peers = 0;
    for (const OriginalKernel &Other : P.Kernels) {
      Peers += Other.Segment == P.Kernels[K].Segment;
      if (Other.Segment == P.Kernels[K].Segment + 1 && !Other.SegmentBoundary.empty())
        Boundary = Other.SegmentBoundary;
    }
    if (Peers > 1)
      return "it shares no array with another launch of its sequence";
    return "the only launch of its sequence" + (Boundary.empty() ? "" : " (" + Boundary + ")");
  }
  std::vector<unsigned> Nearest(Partners.begin(), Partners.end());
  std::stable_sort(Nearest.begin(), Nearest.end(), [&](unsigned A, unsigned B) {
    return std::abs(int(A) - int(K)) < std::abs(int(B) - int(K));
  });
  std::string Slower;
  for (unsigned J : Nearest) {
    NewKernelProjection F = Model.project({std::min(J, K), std::max(J, K)});
    std::string With = "not fused with '" + P.Kernels[J].Name + "': ";
    if (F.Feasible)
      continue;
    // Constraint (1.1) alone: feasible, only not faster.
    if (F.ProjectedSeconds > 0 && F.ProjectedSeconds >= F.OriginalSum) {
      std::string Issue =
          F.boundByInstructions()
              ? llvm::formatv(" (bound by instruction issue, {0:F1} us: a producer run again "
                              "at neighbour sites repeats its instructions)",
                              F.InstructionSeconds * 1e6)
                    .str()
              : "";
      if (Slower.empty())
        Slower = With +
                 llvm::formatv("projected {0:F1} us together, not below {1:F1} us apart",
                               F.ProjectedSeconds * 1e6, F.OriginalSum * 1e6)
                     .str() +
                 Issue;
      continue;
    }
    return With + F.Infeasibility;
  }
  return Slower;
}

FusionPlan makeFusionPlan(const ProjectionModel &Model, const Grouping &Groups) {
  FusionPlan Plan;
  Plan.WhyAlone.resize(Model.problem().Kernels.size());
  for (const std::vector<unsigned> &F : Groups) {
    NewKernelProjection Projection = Model.project(F);
    if (F.size() == 1) {
      Projection.ProjectedSeconds = Model.originalSeconds(F.front());
      Plan.WhyAlone[F.front()] = whyAlone(Model, F.front());
    }
    for (unsigned K : F)
      Plan.OriginalSeconds += Model.originalSeconds(K);
    Plan.ProjectedSeconds += Projection.ProjectedSeconds;
    Plan.NewKernels.push_back(std::move(Projection));
  }
  return Plan;
}

namespace {

// Where the projected time of a new kernel with halo layers goes: traffic
// at its own sites, the halo ring, GMEM round trips and barriers.
llvm::json::Object haloJson(const NewKernelProjection &F, const FusionProblem &P) {
  llvm::json::Array Arrays;
  for (const HaloArrayPath &H : F.HaloArrays) {
    llvm::json::Object A{{"array", P.Arrays[H.Array].Name},
                         {"radius", H.Radius},
                         {"path", H.SharedTile             ? "shared-tile"
                                  : H.RecomputedNeighbours ? "recomputed"
                                                           : "global"}};
    if (H.SharedTile)
      A["tile_bytes"] = H.TileBytes;
    else if (H.RecomputedNeighbours)
      A["neighbours"] = H.RecomputedNeighbours;
    else
      A["why"] = H.Why;
    Arrays.push_back(std::move(A));
  }
  return llvm::json::Object{{"arrays", std::move(Arrays)},
                            {"tile_shared_memory_per_block", F.TileSharedMemory},
                            {"reuse_seconds", F.seconds(F.ReuseBytes)},
                            {"halo_ring_seconds", F.seconds(F.HaloRingBytes)},
                            {"global_round_trip_seconds", F.seconds(F.GlobalRoundTripBytes)},
                            {"barriers", F.Barriers},
                            {"barrier_seconds", F.BarrierSeconds},
                            {"bandwidth_efficiency", F.Efficiency}};
}

void printHaloTerms(llvm::raw_ostream &OS, const NewKernelProjection &F, const FusionProblem &P) {
  OS << "    halo terms:";
  for (const HaloArrayPath &H : F.HaloArrays) {
    OS << " " << P.Arrays[H.Array].Name << " (halo " << H.Radius << ", ";
    if (H.SharedTile)
      OS << "tile " << H.TileBytes << " B)";
    else if (H.RecomputedNeighbours)
      OS << "recomputed at " << H.RecomputedNeighbours << " neighbour"
         << (H.RecomputedNeighbours == 1 ? ")" : "s)");
    else
      OS << "GMEM: " << H.Why << ")";
  }
  OS << llvm::format("; own sites %.3f us + halo ring %.3f us + GMEM round trip %.3f us + "
                     "%u barriers %.3f us at %.0f%% bandwidth; tiles %u B/block\n",
                     F.seconds(F.ReuseBytes) * 1e6, F.seconds(F.HaloRingBytes) * 1e6,
                     F.seconds(F.GlobalRoundTripBytes) * 1e6, F.Barriers, F.BarrierSeconds * 1e6,
                     F.Efficiency * 100, F.TileSharedMemory);
}

} // namespace

llvm::json::Value toJson(const FusionPlan &Plan, const FusionProblem &P) {
  llvm::json::Array Kernels;
  for (const NewKernelProjection &F : Plan.NewKernels) {
    llvm::json::Array Members, Pivot, Halo;
    for (unsigned I = 0; I < F.Members.size(); ++I) {
      Members.push_back(P.Kernels[F.Members[I]].Name);
      Halo.push_back(F.MemberHalo.empty() ? 0 : F.MemberHalo[I]);
    }
    for (unsigned A : F.Pivot)
      Pivot.push_back(P.Arrays[A].Name);
    Kernels.push_back(llvm::json::Object{{"members", std::move(Members)},
                                         {"kind", F.Members.size() == 1 ? "original"
                                                  : F.Complex           ? "complex"
                                                                        : "simple"},
                                         {"pivot", std::move(Pivot)},
                                         {"member_halo", std::move(Halo)},
                                         {"registers", F.Registers},
                                         {"blocks_per_multiprocessor", F.BlocksPerMultiprocessor},
                                         {"shared_memory_per_block", F.SharedMemoryPerBlock},
                                         {"blocking_factor", F.BlockingFactor},
                                         {"projected_seconds", F.ProjectedSeconds},
                                         {"original_sum_seconds", F.OriginalSum}});
    if (F.HaloPoints && F.Efficiency > 0)
      Kernels.back().getAsObject()->insert({"halo", haloJson(F, P)});
    if (F.RenamingCopyBytes)
      Kernels.back().getAsObject()->insert(
          {"renaming_copy_seconds", F.seconds(F.RenamingCopyBytes)});
    if (!F.StoresLeftOut.empty()) {
      llvm::json::Array Left;
      for (unsigned A : F.StoresLeftOut)
        Left.push_back(P.Arrays[A].Name);
      Kernels.back().getAsObject()->insert({"stores_left_out", std::move(Left)});
    }
  }
  return llvm::json::Object{{"original_seconds", Plan.OriginalSeconds},
                            {"projected_seconds", Plan.ProjectedSeconds},
                            {"new_kernels", std::move(Kernels)}};
}

llvm::Expected<Grouping> groupingFromPlanJson(const llvm::json::Value &V, const FusionProblem &P) {
  std::map<std::string, unsigned> Ids;
  for (unsigned K = 0; K < P.Kernels.size(); ++K)
    Ids[P.Kernels[K].Name] = K;
  auto Bad = [](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "malformed plan: " + Why);
  };
  const llvm::json::Object *O = V.getAsObject();
  const llvm::json::Array *New = O ? O->getArray("new_kernels") : nullptr;
  if (!New)
    return Bad("expected 'new_kernels'");
  Grouping Groups;
  std::vector<bool> Seen(P.Kernels.size(), false);
  for (const llvm::json::Value &F : *New) {
    const llvm::json::Array *Members =
        F.getAsObject() ? F.getAsObject()->getArray("members") : nullptr;
    if (!Members || Members->empty())
      return Bad("a new kernel without members");
    Groups.emplace_back();
    for (const llvm::json::Value &M : *Members) {
      auto Name = M.getAsString();
      if (!Name || !Ids.count(Name->str()) || Seen[Ids[Name->str()]])
        return Bad("unknown or repeated kernel in a new kernel");
      Seen[Ids[Name->str()]] = true;
      Groups.back().push_back(Ids[Name->str()]);
    }
  }
  for (unsigned K = 0; K < P.Kernels.size(); ++K)
    if (!Seen[K])
      return Bad("kernel '" + P.Kernels[K].Name + "' is in no new kernel");
  return Groups;
}

void printPlanReport(llvm::raw_ostream &OS, const FusionPlan &Plan, const FusionProblem &P) {
  unsigned Fused = 0, New = 0;
  for (const NewKernelProjection &F : Plan.NewKernels)
    if (F.Members.size() > 1) {
      Fused += F.Members.size();
      ++New;
    }
  OS << "fusion plan: " << Fused << " of " << P.Kernels.size() << " kernels fused into " << New
     << " new kernels; " << Plan.NewKernels.size() << " launches instead of " << P.Kernels.size()
     << "\n";
  OS << llvm::format("projected time %.3f us (original %.3f us, %.2fx)\n",
                     Plan.ProjectedSeconds * 1e6, Plan.OriginalSeconds * 1e6,
                     Plan.OriginalSeconds / Plan.ProjectedSeconds);
  for (const OriginalKernel &K : P.Kernels)
    if (!K.SegmentBoundary.empty())
      OS << "  segment " << K.Segment << " from '" << K.Name << "': " << K.SegmentBoundary
         << "; no kernel fuses across it\n";
  for (unsigned I = 0; I < Plan.NewKernels.size(); ++I) {
    const NewKernelProjection &F = Plan.NewKernels[I];
    OS << "  launch " << I << ": ";
    if (F.Members.size() == 1) {
      OS << P.Kernels[F.Members.front()].Name << " (unfused)";
      OS << llvm::format(", %.3f us", F.ProjectedSeconds * 1e6)
         << (P.Kernels[F.Members.front()].MeasuredSeconds > 0 ? " measured\n" : " projected\n");
      continue;
    }
    OS << (F.Complex ? "complex" : "simple") << " fusion of";
    for (unsigned J = 0; J < F.Members.size(); ++J) {
      OS << " " << P.Kernels[F.Members[J]].Name;
      if (F.MemberHalo[J])
        OS << "(halo " << F.MemberHalo[J] << ")";
    }
    OS << "; pivot";
    for (unsigned A : F.Pivot)
      OS << " " << P.Arrays[A].Name;
    unsigned Measured = 0;
    for (unsigned M : F.Members)
      Measured += P.Kernels[M].MeasuredSeconds > 0;
    OS << llvm::format("; projected %.3f us vs original sum %.3f us", F.ProjectedSeconds * 1e6,
                       F.OriginalSum * 1e6);
    if (Measured)
      OS << " (" << Measured << " of " << F.Members.size() << " measured)";
    OS << llvm::format("; %u registers, %u blocks/SM\n", F.Registers, F.BlocksPerMultiprocessor);
    if (F.HaloPoints && F.Efficiency > 0)
      printHaloTerms(OS, F, P);
    if (F.RenamingCopyBytes)
      OS << llvm::format("    renaming copies before the kernel: %.3f us\n", F.copySeconds() * 1e6);
    if (F.boundByInstructions())
      OS << llvm::format("    bound by instruction issue: %.3f us (its traffic %.3f us)\n",
                         F.InstructionSeconds * 1e6, (F.MemorySeconds - F.copySeconds()) * 1e6);
    if (!F.StoresLeftOut.empty()) {
      OS << "    stores left out (scratch arrays read on chip only):";
      for (unsigned A : F.StoresLeftOut)
        OS << " " << P.Arrays[A].Name;
      OS << "\n";
    }
  }
}

} // namespace launchopt

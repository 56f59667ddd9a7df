#include "FusionGraphs.h"

namespace launchopt {

const char *intentName(ArrayIntent I) {
  switch (I) {
  case ArrayIntent::ReadOnly:
    return "read-only";
  case ArrayIntent::ReadWrite:
    return "read-write";
  case ArrayIntent::ExpandableReadWrite:
    return "expandable read-write";
  case ArrayIntent::WriteOnly:
    return "write-only";
  case ArrayIntent::Unused:
    return "unused";
  }
  return "";
}

FusionGraphs buildFusionGraphs(const FusionProblem &P, bool RelaxExpandable) {
  return buildFusionGraphs(P, std::vector<bool>(P.Arrays.size(), RelaxExpandable));
}

FusionGraphs buildFusionGraphs(const FusionProblem &P, const std::vector<bool> &RelaxArray) {
  FusionGraphs G;
  unsigned N = P.Kernels.size(), L = P.Arrays.size();
  G.UseVersions.resize(N);
  G.VersionCount.assign(L, 0);
  std::vector<unsigned> Writers(L, 0), Readers(L, 0);
  std::vector<bool> Overwritten(L, false); // a later writer does not read first
  for (unsigned K = 0; K < N; ++K) {
    for (const ArrayUse &U : P.Kernels[K].Uses) {
      bool PureWrite = U.Writes && !U.Reads;
      if (PureWrite && Writers[U.Array] > 0)
        Overwritten[U.Array] = true;
      // The first write of an array that earlier kernels only read, in
      // place at the thread's own site (`J[i] = J[i] + ...`): its reads see
      // the array as it came in, so a copy of that can serve the earlier
      // readers while it writes.
      bool FirstInPlaceUpdate = U.Reads && U.Writes && !U.HaloRadius && !U.Indirect &&
                                !Writers[U.Array] && Readers[U.Array] > 0;
      if (G.VersionCount[U.Array] == 0 ||
          (RelaxArray[U.Array] && PureWrite && Writers[U.Array] > 0) ||
          (RelaxArray[U.Array] && FirstInPlaceUpdate))
        ++G.VersionCount[U.Array];
      G.UseVersions[K].push_back(G.VersionCount[U.Array] - 1);
      Writers[U.Array] += U.Writes;
      Readers[U.Array] += U.Reads;
    }
  }
  for (unsigned A = 0; A < L; ++A)
    G.Intents.push_back(!Writers[A] && !Readers[A]         ? ArrayIntent::Unused
                        : !Writers[A]                      ? ArrayIntent::ReadOnly
                        : !Readers[A]                      ? ArrayIntent::WriteOnly
                        : Writers[A] > 1 && Overwritten[A] ? ArrayIntent::ExpandableReadWrite
                                                           : ArrayIntent::ReadWrite);

  G.Successors.assign(N, llvm::BitVector(N));
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = I + 1; J < N; ++J)
      for (unsigned UI = 0; UI < P.Kernels[I].Uses.size(); ++UI) {
        const ArrayUse &A = P.Kernels[I].Uses[UI];
        for (unsigned UJ = 0; UJ < P.Kernels[J].Uses.size(); ++UJ) {
          const ArrayUse &B = P.Kernels[J].Uses[UJ];
          if (A.Array != B.Array || G.UseVersions[I][UI] != G.UseVersions[J][UJ])
            continue;
          auto Add = [&](DependenceKind Kind, unsigned Radius) {
            G.Dependences.push_back({I, J, A.Array, Kind, Radius});
            G.Successors[I].set(J);
          };
          if (A.Writes && B.Reads)
            Add(DependenceKind::Flow, B.HaloRadius);
          if (A.Reads && B.Writes)
            Add(DependenceKind::Anti, A.HaloRadius);
          if (A.Writes && B.Writes)
            Add(DependenceKind::Output, 0);
        }
      }

  // Edges only go forward in launch order, so one backward sweep closes them.
  G.Descendants.assign(N, llvm::BitVector(N));
  G.Ancestors.assign(N, llvm::BitVector(N));
  for (unsigned I = N; I-- > 0;)
    for (unsigned J : G.Successors[I].set_bits()) {
      G.Descendants[I].set(J);
      G.Descendants[I] |= G.Descendants[J];
    }
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J : G.Descendants[I].set_bits())
      G.Ancestors[J].set(I);
  return G;
}

static const char *intentColour(ArrayIntent I) {
  switch (I) {
  case ArrayIntent::ReadOnly:
    return "red";
  case ArrayIntent::ReadWrite:
    return "yellow";
  case ArrayIntent::ExpandableReadWrite:
    return "lightblue";
  case ArrayIntent::WriteOnly:
    return "green";
  case ArrayIntent::Unused:
    return "white";
  }
  return "white";
}

void writeDataDependencyDot(llvm::raw_ostream &OS, const FusionProblem &P, const FusionGraphs &G) {
  OS << "digraph data_dependency {\n  rankdir=LR;\n";
  for (unsigned A = 0; A < P.Arrays.size(); ++A)
    OS << "  a" << A << " [shape=diamond, style=filled, fillcolor=" << intentColour(G.Intents[A])
       << ", label=\"" << P.Arrays[A].Name << "\", tooltip=\"" << intentName(G.Intents[A])
       << "\"];\n";
  for (unsigned K = 0; K < P.Kernels.size(); ++K) {
    OS << "  k" << K << " [shape=circle, label=\"" << K << ": " << P.Kernels[K].Name << "\"];\n";
    for (unsigned U = 0; U < P.Kernels[K].Uses.size(); ++U) {
      const ArrayUse &Use = P.Kernels[K].Uses[U];
      std::string Label = "thread load " + std::to_string(Use.ThreadLoad);
      if (Use.HaloRadius)
        Label += ", radius " + std::to_string(Use.HaloRadius);
      if (G.VersionCount[Use.Array] > 1)
        Label += ", version " + std::to_string(G.UseVersions[K][U]);
      if (Use.Reads)
        OS << "  a" << Use.Array << " -> k" << K << " [label=\"" << Label << "\"];\n";
      if (Use.Writes)
        OS << "  k" << K << " -> a" << Use.Array << (Use.Reads ? " [style=dashed]" : "") << ";\n";
    }
  }
  OS << "}\n";
}

void writeOrderOfExecutionDot(llvm::raw_ostream &OS, const FusionProblem &P, const FusionGraphs &G,
                              const std::vector<std::vector<unsigned>> *Groups) {
  unsigned N = P.Kernels.size();
  OS << "digraph order_of_execution {\n";
  if (Groups) {
    for (unsigned F = 0; F < Groups->size(); ++F) {
      if ((*Groups)[F].size() < 2)
        continue;
      OS << "  subgraph cluster_F" << F << " {\n    style=dotted;\n    label=\"F" << F << "\";\n";
      for (unsigned K : (*Groups)[F])
        OS << "    k" << K << ";\n";
      OS << "  }\n";
    }
  }
  for (unsigned K = 0; K < N; ++K)
    OS << "  k" << K << " [shape=circle, label=\"" << K << ": " << P.Kernels[K].Name << "\"];\n";
  // Transitive reduction: an edge implied by a longer path is left out.
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J : G.Successors[I].set_bits()) {
      bool Implied = false;
      for (unsigned M : G.Successors[I].set_bits())
        Implied |= M != J && G.Descendants[M].test(J);
      if (!Implied)
        OS << "  k" << I << " -> k" << J << ";\n";
    }
  OS << "}\n";
}

} // namespace launchopt

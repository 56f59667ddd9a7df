#ifndef LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONGRAPHS_H
#define LAUNCHOPT_TRANSFORMS_FUSION_MODEL_FUSIONGRAPHS_H

#include "FusionProblem.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace launchopt {

// How the program touches an array over its lifetime (paper §II-B1, Fig. 1).
enum class ArrayIntent { ReadOnly, ReadWrite, ExpandableReadWrite, WriteOnly, Unused };
const char *intentName(ArrayIntent I);

enum class DependenceKind { Flow, Anti, Output };

// One precedence of the order-of-execution graph: From must run before To
// because both touch Array and at least one writes it.
struct KernelDependence {
  unsigned From = 0, To = 0;
  unsigned Array = 0;
  DependenceKind Kind = DependenceKind::Flow;
  // Stencil radius of the access that makes the dependence cross threads:
  // the reader's for Flow and Anti, 0 for Output.
  unsigned Radius = 0;
};

// The data-dependency graph (kernels and arrays) and the order-of-execution
// DAG derived from it (paper §II-B1, §II-B2).
struct FusionGraphs {
  std::vector<ArrayIntent> Intents;
  // Per kernel and use (parallel to OriginalKernel::Uses): which version of
  // the array the use touches. A kernel that overwrites an expandable array
  // without reading it starts a new version (renaming relaxes precedences),
  // and so does the first kernel that updates an array in place at its own
  // sites after others read it.
  std::vector<std::vector<unsigned>> UseVersions;
  std::vector<unsigned> VersionCount; // per array
  std::vector<KernelDependence> Dependences;
  std::vector<llvm::BitVector> Successors;  // direct precedences
  std::vector<llvm::BitVector> Descendants; // transitive, excluding self
  std::vector<llvm::BitVector> Ancestors;
};

// With RelaxExpandable, precedences that only order different versions of an
// expandable array are dropped (they disappear when the versions get
// separate buffers).
FusionGraphs buildFusionGraphs(const FusionProblem &P, bool RelaxExpandable);
// The same, relaxing only the arrays whose RelaxArray entry is true (arrays
// that code generation cannot rename keep one version).
FusionGraphs buildFusionGraphs(const FusionProblem &P, const std::vector<bool> &RelaxArray);

// Graphviz: kernels as circles in launch order, arrays as diamonds coloured
// by intent as in the paper's Fig. 1.
void writeDataDependencyDot(llvm::raw_ostream &OS, const FusionProblem &P, const FusionGraphs &G);
// The order-of-execution DAG (transitive reduction); with Groups, each new
// kernel of a plan is drawn as a dotted cluster (Fig. 2).
void writeOrderOfExecutionDot(llvm::raw_ostream &OS, const FusionProblem &P, const FusionGraphs &G,
                              const std::vector<std::vector<unsigned>> *Groups = nullptr);

} // namespace launchopt

#endif

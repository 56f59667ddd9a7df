#ifndef LAUNCHOPT_TRANSFORMS_COMMON_ORDERGUARD_H
#define LAUNCHOPT_TRANSFORMS_COMMON_ORDERGUARD_H
// A launch that may follow other launches of its thread into one ordered
// stream (a second half after the first, a launch in a loop) can be
// serialized without proving the children independent: the parent thread
// keeps a flag that its launches into ordered streams set, and the guarded
// launch runs serially only while the flag is clear. Children serialized
// before any launch ran in order, in the parent thread; once one child is
// launched, the later ones are launched too, and the stream orders them.
#include "Analysis/ChildIndependence.h"
#include "Analysis/LaunchSites.h"
#include "Transforms/PassResult.h"
#include "clang/AST/ASTContext.h"
#include <map>
#include <set>
#include <string>

namespace launchopt {

struct OrderGuards {
  // Sites (indices into LaunchAnalysis::Sites) serialized only while the flag is clear.
  std::set<unsigned> Guarded;
  // Sites whose launch sets the flag.
  std::set<unsigned> Setters;
  // The parents that must declare the flag, at the offset just inside their
  // body (not those that an earlier pass of the run declared it in).
  std::map<const clang::FunctionDecl *, unsigned> Declarations;
  // Sites the pass took that must be left after all, and why: a launch
  // into their stream that the thread may make first is left as written, or
  // the parent's body cannot be edited.
  std::map<unsigned, std::string> Refused;
};

// The guards for the sites in NeedGuard, given the sites the pass takes
// (Taken, guarded ones included); a guarded site whose partner
// (orderedStreamPartners) is not taken is refused, which may refuse others
// in turn.
OrderGuards planOrderGuards(const clang::ASTContext &Ctx, const LaunchAnalysis &A,
                            const std::set<unsigned> &NeedGuard, std::set<unsigned> Taken);

// The remark's message for a site the plan refused (OrderGuards::Refused):
// what the proof could not show (Proof), and why no guard (Why).
std::string orderGuardRefusal(const Independence &Proof, const std::string &Why);

// What the remark of a taken site that may follow others into its stream
// says about their order: the proof, the guard, or the warning of
// --assume-independent-children.
void noteStreamOrder(LaunchRemark &Remark, const Independence &Proof, bool Guarded,
                     bool MayReorder);

// The flag's declaration, inserted just inside the parent's body.
std::string orderFlagDeclaration();
// The flag's name.
std::string orderFlag();

} // namespace launchopt

#endif

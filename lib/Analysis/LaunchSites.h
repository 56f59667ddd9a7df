#ifndef LAUNCHOPT_ANALYSIS_LAUNCHSITES_H
#define LAUNCHOPT_ANALYSIS_LAUNCHSITES_H

#include "KernelFeatures.h"
#include "SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

// Which stream a device-side launch goes into; it decides what ordering the
// original program relies on.
enum class LaunchStream { Default, FireAndForget, TailLaunch, Named };
const char *streamName(LaunchStream S);

// One `kernel<<<grid, block, shmem, stream>>>(args)` in the main file.
struct LaunchSite {
  unsigned Id = 0;
  const clang::CUDAKernelCallExpr *Call = nullptr;
  const clang::FunctionDecl *Parent = nullptr; // the enclosing function
  // The child kernel's definition (the template pattern for templates), or
  // null when it cannot be resolved or is defined elsewhere.
  const clang::FunctionDecl *Child = nullptr;
  std::string ParentName;
  std::string ChildName;
  std::string UnresolvedReason; // why Child is null
  bool DeviceSide = false;      // launched from a __global__/__device__ function
  PresumedPosition Position;

  // The configuration as written; SharedMemory and Stream are null when omitted.
  const clang::Expr *Grid = nullptr;
  const clang::Expr *Block = nullptr;
  const clang::Expr *SharedMemory = nullptr;
  const clang::Expr *Stream = nullptr;
  LaunchStream StreamKind = LaunchStream::Default;
  // A named stream that is a local of the parent, created there by
  // cudaStreamCreate[WithFlags](&s, ...) and otherwise only launched into or
  // destroyed: a stream of its own, unordered with every other one.
  const clang::VarDecl *CreatedStream = nullptr;
  std::vector<const clang::Expr *> Arguments; // written arguments only

  // In a loop the user wrote. The loops of a coarsened kernel (over
  // generated::coarsen::BlockLoopVariables) do not count: each iteration is
  // another block of the original grid, whose launches were never ordered
  // with this one's.
  // A launch written inside a lambda counts as in a loop too: the closure
  // may run it any number of times, at any point after its definition.
  bool InLoop = false;
  bool InBranch = false;
  // The branches around the launch, innermost first: an if's then (arm 0)
  // or else (1) branch, or a switch's case (arms counted from the first
  // label), with the first arm from this one on that control cannot leave
  // for a later one (an if's arm itself; a case that ends in break or
  // return; past the last arm when every case falls through).
  struct Branch {
    const clang::Stmt *Statement = nullptr; // the IfStmt or SwitchStmt
    unsigned Arm = 0;
    unsigned ExitArm = 0;
  };
  std::vector<Branch> EnclosingBranches;
  // Written inside a lambda (the parent is the function around it).
  bool InClosure = false;
  // Inside a closure handed to launchopt's deferral runtime (a launch that
  // spawn defers): a drain launches it at some later time, and spawn defers
  // only where that order does not matter, so it is no launch's ordering
  // partner.
  bool InDeferredClosure = false;
  // Launches of other calls, which no pairing of the parent's sites shows,
  // may come before this one into its ordered stream (the parent is a
  // __device__ function a thread may enter more than once or after its
  // caller launched, or it calls one that launches), or after it (it calls
  // one that launches). UnseenOrder says why (Analysis/UnseenLaunchOrder.h).
  bool FollowsUnseenLaunches = false;
  bool FollowedByUnseenLaunches = false;
  std::string UnseenOrder;
  // Whether the child can reach the parent again through launches.
  bool Recursive = false;
  // At most one thread of a parent block reaches the launch, once: it is
  // not in a loop, and an enclosing `if` requires threadIdx == 0 along x and
  // along every axis of the block that some launch of the parent may give
  // more than one thread (a constant dim3 along its axes above 1; any axis,
  // when the parent is launched with a block not known or out of sight).
  bool OneThreadPerBlock = false;
  // Bit 0/1/2: threadIdx.x/y/z is zero where the launch is: the then branch
  // of `threadIdx.x == 0 && ...`, the else branch of `threadIdx.x != 0`, or
  // after an early `if (threadIdx.x != 0) return;` (Analysis/IndexGuards.h).
  unsigned ZeroThreadAxes = 0;
  // The axes along which threadIdx has one value for the whole block where
  // the launch is: zero, or another value all of the block's threads share
  // (`threadIdx.x == blockDim.x - 1`). OneThreadPerBlock reads these.
  unsigned FixedThreadAxes = 0;
  // OneThreadPerBlock, with that one thread thread zero (what a pass that
  // makes thread zero its block's leader needs).
  bool ThreadZeroPerBlock = false;
  // The same for blockIdx (`if (blockIdx.x == 0 && threadIdx.x == 0)`).
  unsigned ZeroBlockAxes = 0;
  // One thread of the whole parent grid reaches the launch, once: it is
  // OneThreadPerBlock in a kernel, and guarded to block zero along every
  // axis some launch of the parent may give more than one block.
  bool OneThreadPerGrid = false;
  // Set by the driver when the plan of --auto gives this launch to other
  // passes than the one about to run: every pass then leaves it, with this
  // as the reason.
  std::string LeftByPlan;
};

// A `<<<...>>>` launch Clang 19 could not build: a kernel launched from
// device code where overload resolution must happen there (a template kernel
// from a non-template parent, or a name several __global__ overloads share).
// Clang keeps only an error node, so nothing about it is known but where it
// is; every pass leaves it untouched.
struct UnresolvedLaunch {
  PresumedPosition Position;
  std::string Text;
  std::string Cause;      // "Clang 19 cannot resolve ..."
  std::string Workaround; // what the user can write instead
};

// A launch written in a file the main file includes (not a system header):
// no pass edits it, but the report names it, so that no launch is passed
// over in silence (a helper in a header that launches a child).
struct IncludedFileLaunch {
  PresumedPosition Position;
  std::string Parent;
  std::string Child;
  bool DeviceSide = false;
};

// A child that a device-side launch of this file names and another file of
// the program defines (launchopt given several files as one program, built
// with -rdc). The driver fills it for the pass about to run.
struct ExternalChild {
  // The child's declaration in this file, which the launch resolved to.
  const clang::FunctionDecl *Declaration = nullptr;
  std::string DefiningFile;
  // Why the running pass leaves launches of it, as the defining file sees
  // the child; empty when that file's output gets the pass's copies of it.
  std::string Refusal;
};

// Everything the passes need to know about the launches of one file.
struct LaunchAnalysis {
  std::vector<LaunchSite> Sites;
  std::vector<UnresolvedLaunch> Unresolved;
  // Launches in included files, when the analysis leaves them out.
  std::vector<IncludedFileLaunch> InIncludedFiles;
  // Features of every child kernel with a visible definition, by declaration.
  std::map<const clang::FunctionDecl *, KernelFeatures> ChildFeatures;
  // Launch sites per parent function, in source order.
  std::map<const clang::FunctionDecl *, std::vector<unsigned>> SitesByParent;
  // With several files of one program: the sites (by id) whose child
  // another file defines, and the kernels defined here that other files
  // launch, whose copies this file's output holds with external linkage.
  std::map<unsigned, ExternalChild> ExternalChildren;
  std::set<const clang::FunctionDecl *> ExportedChildren;
  // The kernels defined here that device code of other files launches,
  // whether the running pass takes those launches or not.
  std::set<const clang::FunctionDecl *> LaunchedFromOtherFiles;
};

// IncludedFiles: also the launches in files the main file includes (not
// system headers), for analyses that read them without editing them.
LaunchAnalysis analyzeLaunches(clang::ASTContext &Ctx, bool IncludedFiles = false);

// The features of Kernel: the analysis's entry when it launches Kernel, else
// computed (a kernel only other files launch).
KernelFeatures featuresOf(const LaunchAnalysis &Launches, const clang::FunctionDecl &Kernel);

// The host-side launches of a kernel in this file.
std::vector<const LaunchSite *> hostLaunchesOf(const LaunchAnalysis &Launches,
                                               const clang::FunctionDecl &Kernel);

// Whether the child launches itself, perhaps through other kernels: a
// launch of it whose parent it reaches is recursive.
bool inLaunchCycle(const LaunchAnalysis &Launches, const clang::FunctionDecl *Child);

// The kernel as the launch names it (`k`, `k<T>`): without implicit casts,
// and without the `(*&k<float>)` through which the driver makes Clang 19
// parse a device-side launch of a template kernel it would drop
// (Driver/DroppedLaunchRecovery.h).
const clang::Expr *launchedKernel(const clang::CUDAKernelCallExpr &Call);

// The kernel a launch calls: its direct callee, or the kernel a constexpr
// reference names when the launch goes through one (the driver's recovery of
// launches of overloaded kernels, Driver/DroppedLaunchRecovery.h).
const clang::FunctionDecl *launchedFunction(const clang::CUDAKernelCallExpr &Call);

// The names of the references that recovery declares; they are not the
// program's (a kernel named in one is not a kernel whose address is taken).
inline constexpr const char *RecoveredReferencePrefix = "__lo_ovl";
bool isRecoveredLaunchReference(const clang::VarDecl &Var);

// Whether the launch goes into cudaStreamTailLaunch.
bool isTailLaunch(const clang::ASTContext &Ctx, const clang::CUDAKernelCallExpr &Call);

// Whether two launches of one parent thread may go into the same stream, so
// that the second waits for the first: false when either goes into a stream
// the parent created (CreatedStream) and the other does not go into it.
bool mayShareStream(const LaunchSite &A, const LaunchSite &B);

// The expression the user wrote for a launch configuration operand, without
// the implicit conversion to dim3 / size_t the compiler added.
const clang::Expr *writtenOperand(const clang::Expr *E);

} // namespace launchopt

#endif

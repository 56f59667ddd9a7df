#ifndef LAUNCHOPT_TRANSFORMS_AGGREGATE_AGGREGATIONCODE_H
#define LAUNCHOPT_TRANSFORMS_AGGREGATE_AGGREGATIONCODE_H

#include "AggregatePass.h"
#include "Transforms/Common/KernelCopy.h"
#include <string>
#include <vector>

namespace launchopt {

// Text generation for the aggregation pass; the device logic itself is in
// runtime/include/launchopt/aggregation.cuh.

// One aggregated launch site inside a parent kernel.
struct AggregatedSite {
  std::string ScopeVar;     // generated::aggregate::ScopeVariablePrefix<site id>
  std::string ChildName;
  // The child's namespaces ("::kern::") where the code that records and
  // launches it is in another namespace than the child, whose argument
  // structs, launcher and direct copy are defined beside it; else "".
  std::string ChildScope;
  std::string TemplateArgs; // as written at the launch: "<T>" or ""
  std::string GroupArray;   // file-scope scope array (multi-block, grid)
  bool UniformArguments = false; // the child has a struct of uniform arguments
  // At most one thread of a parent block launches here (LaunchSite): a
  // scope holds a record per block, not per thread.
  bool OneThreadPerBlock = false;
  // What a launch that cannot be recorded launches: the child, or the child's
  // direct copy (directKernel) when the child aggregates at group granularity.
  std::string DirectChild;
  // The parent tail-launches work of its own (or may, through a callee). Its
  // grid-granularity launch then goes into fire-and-forget: tail launches run
  // in enqueue order, and the last block's would run after the parent's own,
  // which must see what the children wrote.
  bool ParentTailLaunches = false;
  // An ordered scope (warp and block granularity): the parent thread's
  // launches into the block's NULL stream keep their order. The records'
  // arguments go to the thread's slot `OrderSlot` (an expression), the
  // aggregated grid goes into the NULL stream after those of the earlier
  // sites, and a launch that cannot be recorded is made at once, in order
  // (openOrderedScope, launchInOrder).
  bool Ordered = false;
  std::string OrderSlot;
  // The child's aggregated grid packs child threads, not whole blocks
  // (--aggregate=threads, a child whose threads are independent).
  bool PackThreads = false;
  // --aggregate=host: the file-scope launchopt::HostAggregation the parent
  // records into (generated::aggregate::HostScopePrefix), and the block
  // size and shared memory of the grid the host launches; empty otherwise.
  std::string HostScope;
  std::string ParentName; // named by the check that the host armed the scope
  std::string HostBlockThreads, HostSharedMemory;
  // --aggregate=host-or-device: the host arms the scope for large parent
  // grids only; every parent thread reads whether it did.
  bool HostWhenLarge = false;
  // What a launch that cannot be recorded calls instead of launching: the
  // child run by the launching thread (hostOverflowFunction); empty: it is
  // launched as written.
  std::string SerialFallback;
};

// The name of a kernel's direct copy (see directKernel).
std::string directKernelName(const std::string &Kernel);

// The names of a child's argument structs (see argumentStruct below).
std::string argsStructName(const std::string &Child);
std::string uniformStructName(const std::string &Child);

// The size of a site's uniform arguments, as code ("0" when it has none).
std::string uniformBytes(const AggregatedSite &Site);

// Per parameter of a child: whether its argument is the same at every
// launch of a scope, at every site of the child, and is therefore stored
// once per scope instead of once per record. Empty when none is.
using UniformParameters = std::vector<bool>;

bool anyUniform(const UniformParameters &Uniform);

// Before the child: the struct its per-launch arguments are kept in and,
// when some are uniform, the struct of the uniform ones.
std::string argumentStruct(const KernelCopy &Child, const UniformParameters &Uniform);

// The body of a kernel as a device function taking the four built-in index
// variables (shadowed) and the scopes of its own aggregated launches.
// CalleeScopes: the scopes that copies of device functions take
// (DeviceFunctionScopes); those not among its own are null in it.
std::string partFunction(const clang::ASTContext &Ctx, const KernelCopy &K,
                         const std::vector<SourceEdit> &Edits,
                         const std::vector<AggregatedSite> &Sites,
                         const std::vector<std::string> &CalleeScopes);

// A declaration of the part function, for a recursive kernel whose part
// function is defined after the kernel it launches.
std::string partPrototype(const KernelCopy &K, const std::vector<AggregatedSite> &Sites);

// After the child: the aggregated kernel and the function that launches a
// finished scope (aggregated, or one by one under the threshold). With
// PackThreads (ChildSites then empty) the aggregated grid packs the child
// threads densely.
// A child that aggregates its own launches at multi-block or grid
// granularity gives each aggregated grid its own group scopes; DirectName is
// what the launcher launches one by one under the threshold. Exported: other
// files of the program launch the child, and call the launcher (external
// linkage); Child's parameter names are then the record's field names, the
// generated names every file reads the child's declaration with.
// LaunchedInOrder: an ordered scope launches the child (stream 0), whose
// grid the launcher then makes in order (launchInOrder); an exported
// launcher takes such launches from other files too.
std::string aggregatedKernelAndLauncher(const KernelCopy &Child,
                                        const std::vector<AggregatedSite> &ChildSites,
                                        const AggregateOptions &Options,
                                        const UniformParameters &Uniform,
                                        const std::string &DirectName, bool PackThreads,
                                        bool Exported, bool LaunchedInOrder);

// A copy of a parent kernel for launches from device code that could not be
// recorded: it runs the part function with no scopes, so its own launches go
// directly too (to direct copies). Its grids may run next to other grids of
// the kernel, which must not share the file-scope group scopes.
std::string directKernel(const KernelCopy &K, const std::vector<AggregatedSite> &Sites);
std::string directKernelPrototype(const KernelCopy &K);

// A declaration of the launcher, for parents written before its definition
// or, Exported, in another file of the program than the child.
std::string launcherPrototype(const KernelCopy &Child, bool Exported);

// The new body of a parent kernel: open scopes, run the part, launch.
std::string parentWrapper(const KernelCopy &Parent, const std::vector<AggregatedSite> &Sites,
                          const AggregateOptions &Options);

// --aggregate=host-or-device: the parent's copy that the host launches for
// the grids it aggregates (the parent as written has no scopes).
std::string hostedParentKernel(const KernelCopy &Parent, const std::vector<AggregatedSite> &Sites,
                               const AggregateOptions &Options);

// The scopes and epilogue shared by a parent wrapper and an aggregated kernel
// that is a parent too. The group scopes come from file-scope arrays, or
// with InstanceScopes from the aggregated kernel's parameter
// (generated::aggregate::AggregatedLaunch).
std::string scopePrologue(const std::vector<AggregatedSite> &Sites, const AggregateOptions &Options,
                          const std::string &Indent, bool InstanceScopes = false);
std::string scopeEpilogue(const std::vector<AggregatedSite> &Sites, const AggregateOptions &Options,
                          const std::string &Indent);

// File-scope scope arrays for multi-block and grid scopes, and the scopes
// of host-launched sites.
std::string groupArrays(const std::vector<AggregatedSite> &Sites);

} // namespace launchopt

#endif

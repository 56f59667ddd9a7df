#include "AggregationCode.h"

#include "Support/GeneratedNames.h"
#include "Transforms/Common/AtomicSlots.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

// The names of the generated functions, structs and variables (GeneratedNames.h).
using namespace generated::aggregate;

std::string argsStructName(const std::string &Child) { return ArgumentsStructPrefix + Child; }
std::string uniformStructName(const std::string &Child) {
  return UniformArgumentsStructPrefix + Child;
}
std::string directKernelName(const std::string &Kernel) { return DirectPrefix + Kernel; }

std::string uniformBytes(const AggregatedSite &Site) {
  if (!Site.UniformArguments)
    return "0";
  return "sizeof(" + Site.ChildScope + uniformStructName(Site.ChildName) + Site.TemplateArgs + ")";
}

namespace {

bool isUniformParameter(const UniformParameters &Uniform, size_t I) {
  return I < Uniform.size() && Uniform[I];
}

// A struct holding the child's parameters for which Uniform[i] == Wanted.
std::string parameterStruct(const KernelCopy &Child, const std::string &Name,
                            const UniformParameters &Uniform, bool Wanted) {
  std::string S = Child.TemplateHeader + "struct " + Name + " {\n";
  std::vector<std::string> Params, Inits;
  for (size_t I = 0; I < Child.ParamNames.size(); ++I) {
    if (isUniformParameter(Uniform, I) != Wanted)
      continue;
    const std::string &P = Child.ParamNames[I];
    S += "  " + Child.ParamTexts[I] + ";\n";
    Params.push_back(Child.ParamTexts[I]);
    Inits.push_back(P + "(" + P + ")");
  }
  S += "  __device__ " + Name + "(" + llvm::join(Params, ", ") + ")" +
       (Inits.empty() ? "" : "\n      : " + llvm::join(Inits, ", ")) + " {}\n};\n\n";
  return S;
}

// The scope pointers a part function receives, one per aggregated site.
std::string scopeParameters(const std::vector<AggregatedSite> &Sites) {
  std::string S;
  for (const AggregatedSite &Site : Sites)
    S += ", launchopt::AggregationScope *" + Site.ScopeVar;
  return S;
}

std::string scopeArguments(const std::vector<AggregatedSite> &Sites) {
  std::string S;
  for (const AggregatedSite &Site : Sites)
    S += ", " + Site.ScopeVar;
  return S;
}

// `a.p1, u.p2`: each parameter from the per-launch struct `Object` or the
// uniform struct `UniformObject`.
std::string fieldsOf(const KernelCopy &K, const std::string &Object,
                     const std::string &UniformObject, const UniformParameters &Uniform) {
  std::vector<std::string> Fields;
  for (size_t I = 0; I < K.ParamNames.size(); ++I)
    Fields.push_back((isUniformParameter(Uniform, I) ? UniformObject : Object) + "." +
                     K.ParamNames[I]);
  return llvm::join(Fields, ", ");
}

// `const S &a = *static_cast<const S *>(Pointer);` for the structs in use.
std::string argumentReferences(const KernelCopy &K, const std::string &Indent,
                               const std::string &Arguments, const std::string &UniformArguments,
                               const UniformParameters &Uniform) {
  std::string S;
  bool AnyPerLaunch = false;
  for (size_t I = 0; I < K.ParamNames.size(); ++I)
    AnyPerLaunch |= !isUniformParameter(Uniform, I);
  std::string Args = argsStructName(K.Name) + K.TemplateArgs;
  if (AnyPerLaunch)
    S += Indent + "const " + Args + " &" + ArgumentsReference + " = *static_cast<const " + Args +
         " *>(" + Arguments + ");\n";
  if (anyUniform(Uniform)) {
    std::string UArgs = uniformStructName(K.Name) + K.TemplateArgs;
    S += Indent + "const " + UArgs + " &" + UniformArgumentsReference + " = *static_cast<const " +
         UArgs + " *>(" + UniformArguments + ");\n";
  }
  return S;
}

} // namespace

bool anyUniform(const UniformParameters &Uniform) {
  return std::find(Uniform.begin(), Uniform.end(), true) != Uniform.end();
}

std::string argumentStruct(const KernelCopy &Child, const UniformParameters &Uniform) {
  std::string S;
  if (anyUniform(Uniform))
    S += "// launchopt: the arguments of '" + Child.Name +
         "' that are the same at every launch of a scope,\n// kept once per scope next to its "
         "records.\n" +
         parameterStruct(Child, uniformStructName(Child.Name), Uniform, true);
  S += "// launchopt: the arguments of one launch of '" + Child.Name +
       "', kept in the pool until its\n// aggregated grid runs.\n";
  return S + parameterStruct(Child, argsStructName(Child.Name), Uniform, false);
}

// `static __device__ void <PartPrefix>k(...)`, without a body.
std::string partSignature(const KernelCopy &K, const std::vector<AggregatedSite> &Sites) {
  // A host-or-device parent's part is inlined into its two kernels with
  // the flag a constant, so that the host-aggregated copy keeps none of the
  // device-side launches.
  bool Hosted = std::any_of(Sites.begin(), Sites.end(),
                            [](const AggregatedSite &Site) { return Site.HostWhenLarge; });
  return K.TemplateHeader + "static __device__ " + (Hosted ? "__forceinline__ " : "") + "void " +
         PartPrefix + K.Name + "(" + K.parameters(true) + passedBuiltinParameters() +
         scopeParameters(Sites) + (Hosted ? ", const bool " + HostedFlag : "") + ")";
}

std::string partPrototype(const KernelCopy &K, const std::vector<AggregatedSite> &Sites) {
  return partSignature(K, Sites) + ";\n\n";
}

std::string partFunction(const clang::ASTContext &Ctx, const KernelCopy &K,
                         const std::vector<SourceEdit> &Edits,
                         const std::vector<AggregatedSite> &Sites,
                         const std::vector<std::string> &CalleeScopes) {
  std::string S = "// launchopt: the body of '" + K.Name +
                  "' for one thread whose built-in index variables are\n"
                  "// passed in (they differ from the real ones inside an aggregated grid).\n";
  S += partSignature(K, Sites) + "\n{\n";
  S += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  for (const std::string &Scope : CalleeScopes)
    if (std::none_of(Sites.begin(), Sites.end(),
                     [&](const AggregatedSite &Site) { return Site.ScopeVar == Scope; }))
      S += "  launchopt::AggregationScope *const " + Scope +
           " = nullptr; // not gathered here\n"
           "  (void)" +
           Scope + ";\n";
  S += "  " + K.body(Ctx, withWarpAtomics(K, Edits)) + "\n}\n\n";
  return S;
}

std::string groupArrays(const std::vector<AggregatedSite> &Sites) {
  std::string S;
  for (const AggregatedSite &Site : Sites)
    if (!Site.HostScope.empty())
      S += "// launchopt: the scope of the launches of '" + Site.ChildName +
           "' here, whose aggregated grid\n// the host launches after this kernel.\n"
           "static __device__ launchopt::HostAggregation " +
           Site.HostScope + ";\n\n";
  // A host-or-device site has both: its parent as written aggregates in
  // multi-block scopes.
  for (const AggregatedSite &Site : Sites)
    if (!Site.GroupArray.empty())
      // Unused (and warned about) when the parent is a template that is
      // only instantiated through its aggregated copies.
      S += "// launchopt: aggregation scopes of the groups of parent blocks.\n"
           "static __device__ __attribute__((unused)) launchopt::AggregationScope " +
           Site.GroupArray + "[LAUNCHOPT_MAX_GROUPS];\n\n";
  return S;
}

namespace {

// The call that opens a warp or block scope, its arguments given.
std::string openCall(const AggregatedSite &Site, const std::string &Arguments) {
  if (!Site.Ordered)
    return "openScope(" + Arguments + ")";
  return "openOrderedScope(" + Arguments + ", sizeof(" + Site.ChildScope +
         argsStructName(Site.ChildName) + Site.TemplateArgs + "))";
}

// Ordered scopes open together or not at all (launchopt::joinOrderedScopes):
// by the block's first thread, or by each warp's opener.
std::string joinOrderedScopes(const std::vector<AggregatedSite> &Sites, AggregationGranularity G,
                              const std::string &In) {
  std::vector<std::string> Scopes;
  for (const AggregatedSite &Site : Sites)
    if (Site.Ordered)
      Scopes.push_back("&" + Site.ScopeVar +
                       (G == AggregationGranularity::Warp ? "_warps[" + LinearThread + "]"
                                                          : std::string("_block")));
  if (Scopes.size() < 2)
    return "";
  std::string Opener = G == AggregationGranularity::Warp
                           ? LinearThread + " < (" + BlockThreads + " + 31) / 32"
                           : LinearThread + " == 0";
  return In + "if (" + Opener + ") {\n" + In + "  launchopt::AggregationScope *const " +
         generated::code("@ordered") + "[] = {" + llvm::join(Scopes, ", ") + "};\n" + In +
         "  launchopt::joinOrderedScopes(" + generated::code("@ordered") + ", " +
         std::to_string(Scopes.size()) + "u);\n" + In + "}\n";
}

} // namespace

std::string scopePrologue(const std::vector<AggregatedSite> &Sites, const AggregateOptions &Options,
                          const std::string &In, bool InstanceScopes) {
  if (Sites.empty())
    return "";
  AggregationGranularity G = Options.Granularity;
  const std::string &T = LinearThread, &Threads = BlockThreads;
  std::string S = In + "const unsigned " + T + " = launchopt::linearThread();\n";
  S += In + "const unsigned " + Threads + " = blockDim.x * blockDim.y * blockDim.z;\n";
  S += In + "(void)" + Threads + ";\n";
  for (unsigned K = 0; K < Sites.size(); ++K) {
    const AggregatedSite &Site = Sites[K];
    const std::string &V = Site.ScopeVar;
    // Records a block may need: one per thread, or one when a single
    // thread of the block launches.
    std::string Launchers = Site.OneThreadPerBlock ? "1u" : Threads;
    std::string Uniform = uniformBytes(Site);
    if (G == AggregationGranularity::Warp) {
      // Only the block's own warps get a scope: each allocates its records.
      S += In + "__shared__ launchopt::AggregationScope " + V + "_warps[32];\n";
      S += In + "if (" + T + " < (" + Threads + " + 31) / 32) {\n" + In +
           "  launchopt::clearScope(&" + V + "_warps[" + T + "]);\n" + In + "  launchopt::" +
           openCall(Site,
                    "&" + V + "_warps[" + T + "], " +
                        (Site.OneThreadPerBlock ? std::string("1u")
                                                : "min(32u, " + Threads + " - 32 * " + T + ")") +
                        ", " + Uniform) +
           ";\n" + In + "}\n";
      S += In + "launchopt::AggregationScope *" + V + " = &" + V + "_warps[" + T + " / 32];\n";
    } else if (G == AggregationGranularity::Block) {
      S += In + "__shared__ launchopt::AggregationScope " + V + "_block;\n";
      S += In + "if (" + T + " == 0) {\n" + In + "  launchopt::clearScope(&" + V + "_block);\n" +
           In +
           "  launchopt::" + openCall(Site, "&" + V + "_block, " + Launchers + ", " + Uniform) +
           ";\n" + In + "}\n";
      S += In + "launchopt::AggregationScope *" + V + " = &" + V + "_block;\n";
    } else if (!Site.HostScope.empty()) {
      // One scope for the grid, opened by the host's arming kernel before
      // the launch; the first block checks that it was (host_aggregation.cuh).
      S += In + "launchopt::AggregationScope *" + V + " = &" + Site.HostScope + ".scope;\n";
      S += In + "if (" + T + " == 0 && launchopt::linearBlock() == 0)\n" + In +
           "  launchopt::expectHostLaunch(&" + Site.HostScope + ", \"" + Site.ParentName + "\");\n";
    } else {
      bool Grid = G == AggregationGranularity::Grid;
      std::string GroupBlocks = Grid ? "launchopt::blocksPerGrid()" : V + "_span";
      // The last group of a grid may have fewer blocks than the span: its
      // records are sized for those, as the host's pool estimate counts
      // them (a group sized for the whole span took the pool that later
      // launches were promised, and they launched one by one).
      std::string BlocksInGroup = Grid ? GroupBlocks
                                       : "min(" + V + "_span, launchopt::blocksPerGrid() - " + V +
                                             "_group * " + V + "_span)";
      if (!Grid)
        S += In + "const unsigned " + V + "_span = launchopt::groupSpan(" +
             std::to_string(Options.GroupBlocks) + "u);\n";
      S +=
          In + "const unsigned " + V + "_group = launchopt::linearBlock() / " + GroupBlocks + ";\n";
      if (InstanceScopes)
        S += In + "launchopt::AggregationScope *" + V + " = launchopt::groupScope(" +
             AggregatedLaunch + ", " + std::to_string(K) + ", " + V + "_group);\n";
      else
        S += In + "launchopt::AggregationScope *" + V + " = " + V +
             "_group < LAUNCHOPT_MAX_GROUPS ? &" + Site.GroupArray + "[" + V +
             "_group] : nullptr;\n";
      S += In + "if (" + T + " == 0 && " + V + ")\n" + In + "  launchopt::openGroupScope(" + V +
           ", (unsigned long long)" + BlocksInGroup + " * " + Launchers + ", " + Uniform + ");\n";
    }
  }
  S += joinOrderedScopes(Sites, G, In);
  // The scopes opened here are open for every thread of the block; the
  // host's arming kernel opened its scopes before the grid started.
  bool OpenedHere =
      llvm::any_of(Sites, [](const AggregatedSite &Site) { return Site.HostScope.empty(); });
  if (OpenedHere)
    S += In + "__syncthreads();\n";
  return S;
}

std::string scopeEpilogue(const std::vector<AggregatedSite> &Sites, const AggregateOptions &Options,
                          const std::string &In) {
  // The host launches what host-launched sites record.
  if (std::all_of(Sites.begin(), Sites.end(),
                  [](const AggregatedSite &Site) { return !Site.HostScope.empty(); }))
    return "";
  AggregationGranularity G = Options.Granularity;
  // Every record of the block is written before its launcher reads them.
  const std::string &T = LinearThread;
  std::string S = In + "__syncthreads();\n";
  for (const AggregatedSite &Site : Sites) {
    if (!Site.HostScope.empty())
      continue;
    const std::string &V = Site.ScopeVar;
    std::string Launch =
        Site.ChildScope + LauncherPrefix + Site.ChildName + Site.TemplateArgs + "(" + V;
    // An ordered scope's grid goes into the block's NULL stream, after those
    // of the sites before it (Sites are in source order), always as one grid.
    if (Site.Ordered)
      S += In + "if (" + T + (G == AggregationGranularity::Warp ? " % 32" : "") + " == 0)\n" + In +
           "  " + Launch + ", 0, false);\n";
    else if (G == AggregationGranularity::Warp)
      S += In + "if (" + T + " % 32 == 0)\n" + In + "  " + Launch +
           ", cudaStreamFireAndForget, true);\n";
    else if (G == AggregationGranularity::Block)
      S +=
          In + "if (" + T + " == 0)\n" + In + "  " + Launch + ", cudaStreamFireAndForget, true);\n";
    else {
      bool Grid = G == AggregationGranularity::Grid;
      std::string InScope = Grid ? "launchopt::blocksPerGrid()"
                                 : "min(" + V + "_span, launchopt::blocksPerGrid() - " + V +
                                       "_group * " + V + "_span)";
      // paper §V-A: the last block of the group to finish launches; for the
      // grid it is a tail launch, so nothing returns to the host, unless the
      // parent tail-launches its own work (ParentTailLaunches).
      S += In + "if (" + T + " == 0 && " + V + " && launchopt::lastBlockOfScope(" + V + ", " +
           InScope + ")) {\n";
      bool Tail = Grid && !Site.ParentTailLaunches;
      S += In + "  " + Launch + ", " + (Tail ? "cudaStreamTailLaunch" : "cudaStreamFireAndForget") +
           ", false);\n";
      S += In + "  launchopt::clearScope(" + V + ");\n" + In + "}\n";
    }
  }
  return S;
}

namespace {

// The parameter names matter to the launcher's body alone
// (aggregatedKernelAndLauncher); its prototype merely repeats them. The
// launcher of a child that other files launch has external linkage, and
// takes the scope as void *: the runtime's types have internal linkage, one
// of the same layout in every output (each embeds the same runtime header).
std::string launcherSignature(const KernelCopy &Child, bool Exported) {
  return Child.TemplateHeader + (Exported ? "" : "static ") + "__device__ void " + LauncherPrefix +
         Child.Name +
         generated::code(
             std::string(Exported ? "(void *@anyScope" : "(launchopt::AggregationScope *@scope") +
             ", cudaStream_t @stream,\n    bool @allowDirect)");
}

} // namespace

std::string launcherPrototype(const KernelCopy &Child, bool Exported) {
  return launcherSignature(Child, Exported) + ";\n\n";
}

std::string aggregatedKernelAndLauncher(const KernelCopy &Child,
                                        const std::vector<AggregatedSite> &ChildSites,
                                        const AggregateOptions &Options,
                                        const UniformParameters &Uniform,
                                        const std::string &DirectName, bool PackThreads,
                                        bool Exported, bool LaunchedInOrder) {
  bool GroupScopes = !ChildSites.empty() && usesGroupScopes(Options.Granularity);
  const std::string &N = Child.Name;
  std::string S =
      "\n\n// launchopt: '" + N +
      (PackThreads
           ? "' aggregated thread by thread: the threads of the scope's launches\n"
             "// are packed densely; each finds the launch it belongs to and its place in it.\n"
           : "' aggregated: each block finds the launch it belongs to and runs\n"
             "// as that launch's original block (disaggregation).\n");
  S += Child.TemplateHeader + "__global__ void " + AggregatedPrefix + N +
       "(const launchopt::AggregatedLaunch *" + AggregatedLaunch + ")\n{\n";
  S += scopePrologue(ChildSites, Options, "  ", GroupScopes);
  // Threads beyond their launch's block size exit rather than skip the body:
  // barriers wait only for threads that have not exited, so the child's own
  // __syncthreads and the epilogue's are met by the original block's threads
  // alone (a skipping thread would meet the child's first barrier at the
  // epilogue's).
  S += generated::code("  launchopt::OriginalThread @t;\n") +
       "  if (!launchopt::" + (PackThreads ? "findPackedOriginal(" : "findOriginal(") +
       AggregatedLaunch + generated::code(", &@t))\n    return;\n");
  S += argumentReferences(Child, "  ", generated::code("@t.arguments"),
                          generated::code("@t.uniformArguments"), Uniform);
  std::string Fields = fieldsOf(Child, ArgumentsReference, UniformArgumentsReference, Uniform);
  S += "  " + PartPrefix + N + Child.TemplateArgs + "(" + (Fields.empty() ? "" : Fields + ", ") +
       generated::code("@t.blockIdx, @t.threadIdx,\n      @t.blockDim, @t.gridDim") +
       scopeArguments(ChildSites) + ");\n";
  S += scopeEpilogue(ChildSites, Options, "  ");
  S += "}\n\n";
  S += "// launchopt: launches the records of a finished scope: one aggregated grid,\n"
       "// or one by one when there are fewer than LAUNCHOPT_AGG_THRESHOLD.\n";
  S += launcherSignature(Child, Exported) + "\n{\n";
  if (Exported)
    S += generated::code("  launchopt::AggregationScope *@scope =\n"
                         "      static_cast<launchopt::AggregationScope *>(@anyScope);\n");
  S += generated::code("  launchopt::ScopeSummary @s;\n") +
       "  if (!launchopt::" + (PackThreads ? "summarizePacked" : "summarize") +
       generated::code("(@scope, &@s))\n    return;\n"
                       "  if (@allowDirect && @s.count < LAUNCHOPT_AGG_THRESHOLD) {\n"
                       "    for (unsigned @i = 0; @i < @s.count; ++@i) {\n") +
       (PackThreads ? generated::code("      const launchopt::PackedRecord &@r =\n"
                                      "          launchopt::packedRecords(@s.launch)[@i];\n")
                    : generated::code("      const launchopt::ChildRecord &@r = "
                                      "@s.launch->records[@i];\n"));
  S += argumentReferences(Child, "      ", generated::code("@r.arguments"),
                          generated::code("@s.launch->uniformArguments"), Uniform);
  // A parent that tail-launches work of its own could not see a deferred
  // launch (deferral's drain is a tail launch too): its launches go as
  // before. Otherwise none is dropped: each is made, or deferred when the
  // pending-launch pool is near full or refuses it (launchopt/deferral.cuh).
  bool Deferrable =
      std::none_of(ChildSites.begin(), ChildSites.end(),
                   [](const AggregatedSite &Site) { return Site.ParentTailLaunches; });
  if (Deferrable)
    S += generated::code("      launchopt::deferral::launchOrDefer([=](cudaStream_t @st) {\n  ") +
         "      " + DirectName + Child.TemplateArgs +
         generated::code("<<<@r.grid, @r.block, @r.sharedMemory, @st>>>(") + Fields +
         ");\n        return cudaGetLastError() == cudaSuccess;\n"
         "      }, cudaStreamFireAndForget);\n    }\n    return;\n  }\n";
  else
    S += "      " + DirectName + Child.TemplateArgs +
         generated::code("<<<@r.grid, @r.block, @r.sharedMemory, cudaStreamFireAndForget>>>(") +
         Fields + ");\n    }\n    return;\n  }\n";
  if (GroupScopes) {
    std::string Groups = Options.Granularity == AggregationGranularity::Grid
                             ? std::string("1u")
                             : generated::code("launchopt::groupCount(@s.blocks, ") +
                                   std::to_string(Options.GroupBlocks) + "u)";
    S += "  // The grid's own scopes for its launches: other grids of '" + N +
         "' may run at the same time.\n";
    S += generated::code("  launchopt::attachGroupScopes(@s.launch, ") +
         std::to_string(ChildSites.size()) + "u, " + Groups + ");\n";
  }
  // A packed grid has blocks of its own size and no shared memory: the
  // child uses none.
  std::string Configuration = PackThreads ? "@s.blocks, LAUNCHOPT_PACKED_BLOCK, 0"
                                          : "@s.blocks, @s.maxThreads, @s.maxSharedMemory";
  if (!Deferrable)
    return S + "  " + AggregatedPrefix + N + Child.TemplateArgs +
           generated::code("<<<" + Configuration + ", @stream>>>(@s.launch);\n}");
  // An ordered scope's grid (stream 0) keeps its place in the NULL stream:
  // never deferred.
  if (LaunchedInOrder || Exported)
    S += generated::code("  if (@stream == 0) {\n"
                         "    const launchopt::ScopeSummary @ordered = @s;\n"
                         "    launchopt::deferral::launchInOrder([=](cudaStream_t @st) {\n"
                         "      const launchopt::ScopeSummary &@s = @ordered;\n      ") +
         AggregatedPrefix + N + Child.TemplateArgs +
         generated::code("<<<" + Configuration + ", @st>>>(@s.launch);\n") +
         "      return cudaGetLastError();\n    });\n    return;\n  }\n";
  S += generated::code("  const launchopt::ScopeSummary @summary = @s;\n"
                       "  launchopt::deferral::launchOrDefer([=](cudaStream_t @st) {\n"
                       "    const launchopt::ScopeSummary &@s = @summary;\n    ") +
       AggregatedPrefix + N + Child.TemplateArgs +
       generated::code("<<<" + Configuration + ", @st>>>(@s.launch);\n") +
       "    return cudaGetLastError() == cudaSuccess;\n" + generated::code("  }, @stream);\n}");
  return S;
}

std::string directKernelPrototype(const KernelCopy &K) {
  return K.TemplateHeader + "__global__ void " + directKernelName(K.Name) + "(" + K.parameters() +
         ");\n\n";
}

std::string directKernel(const KernelCopy &K, const std::vector<AggregatedSite> &Sites) {
  std::string S = "\n\n// launchopt: '" + K.Name +
                  "' launched from device code where the launch could not be\n"
                  "// recorded: its own launches are not aggregated either (no scopes).\n";
  S += K.TemplateHeader + "__global__ void " + directKernelName(K.Name) + "(" + K.parameters() +
       ")\n{\n";
  S += "  " + PartPrefix + K.Name + K.TemplateArgs + "(" + K.arguments(true) +
       "blockIdx, threadIdx, blockDim, gridDim";
  for (size_t I = 0; I < Sites.size(); ++I)
    S += ", nullptr";
  return S + ");\n}";
}

namespace {
// The parent kernel's call of its part function; Hosted: the constant a
// host-or-device parent's two kernels pass ("" for the others).
std::string parentPartCall(const KernelCopy &Parent, const std::vector<AggregatedSite> &Sites,
                           const std::string &Hosted) {
  return "  " + PartPrefix + Parent.Name + Parent.TemplateArgs + "(" + Parent.arguments(true) +
         "blockIdx, threadIdx, blockDim, gridDim" + scopeArguments(Sites) +
         (Hosted.empty() ? "" : ", " + Hosted) + ");\n";
}
} // namespace

std::string parentWrapper(const KernelCopy &Parent, const std::vector<AggregatedSite> &Sites,
                          const AggregateOptions &Options) {
  if (Options.HostWhenLarge) {
    // The same sites with the file-scope group scopes in place of the host's.
    std::vector<AggregatedSite> DeviceSites = Sites;
    for (AggregatedSite &Site : DeviceSites)
      Site.HostScope.clear();
    const AggregateOptions Device = deviceSideOptions(Options);
    std::string S = "{\n  // launchopt: the grids the host does not aggregate (" +
                    HostedParentPrefix + Parent.Name +
                    "\n  // records the others' launches): multi-block scopes, "
                    "their grids launched from the device.\n";
    S += scopePrologue(DeviceSites, Device, "  ");
    S += parentPartCall(Parent, DeviceSites, "false");
    S += scopeEpilogue(DeviceSites, Device, "  ");
    return S + "}";
  }
  std::string S = "{\n  // launchopt: this kernel's launches are aggregated (" +
                  std::string(granularityName(Options.Granularity)) + " granularity" +
                  (Options.HostLaunch ? ", launched by the host" : "") + ").\n";
  S += scopePrologue(Sites, Options, "  ");
  S += parentPartCall(Parent, Sites, "");
  S += scopeEpilogue(Sites, Options, "  ");
  S += "}";
  return S;
}

std::string hostedParentKernel(const KernelCopy &Parent, const std::vector<AggregatedSite> &Sites,
                               const AggregateOptions &Options) {
  std::string S = "\n\n// launchopt: '" + Parent.Name +
                  "' as the host launches it for a grid whose children it\n"
                  "// aggregates: its launches are recorded in the scopes the host armed.\n" +
                  Parent.TemplateHeader + "__global__ void " + Parent.LaunchBounds +
                  HostedParentPrefix + Parent.Name + "(" + Parent.parameters() + ")\n{\n";
  S += scopePrologue(Sites, Options, "  ");
  return S + parentPartCall(Parent, Sites, "true") + "}";
}

} // namespace launchopt

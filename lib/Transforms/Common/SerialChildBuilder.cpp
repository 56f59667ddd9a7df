#include "SerialChildBuilder.h"

#include "AtomicSlots.h"
#include "IncludedFileCopies.h"
#include "Support/GeneratedNames.h"
#include "Transforms/Common/Refusal.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

namespace {

std::string depthParameter(bool InCycle) {
  return InCycle ? ", const unsigned " + generated::threshold::SerialDepth : "";
}

std::string serialSignature(const KernelCopy &K, const SerialCopyOptions &Options) {
  return K.TemplateHeader + (Options.Exported ? "" : "static ") + "__device__ void " +
         serialNameFor(K.Name, Options.Names) + "(" + K.parameters(true) +
         generated::code("const dim3 @gridDim, const dim3 @blockDim") +
         depthParameter(Options.InCycle) + ")";
}

} // namespace

llvm::Error serialCopyBlocker(const KernelFeatures &F) {
  if (!F.Barriers.empty())
    return refusal("child uses " + *F.Barriers.begin());
  if (F.UsesSharedMemory)
    return refusal("child uses shared memory");
  if (!F.WarpPrimitives.empty())
    return refusal("child uses warp primitive " + *F.WarpPrimitives.begin());
  if (F.UsesInlineAsm)
    return refusal(inlineAsmUse(F));
  if (!F.OpaqueCallees.empty())
    return refusal("child calls '" + *F.OpaqueCallees.begin() +
                   "', whose definition is not in this translation unit");
  // Run by a parent thread, the child's tail launches would be made by many
  // threads of the parent grid beside its other launches, which CUDA 13.0
  // can leave unfinished forever (test/random/results/tail-launch-hang).
  if (F.TailLaunches)
    return refusal("child tail-launches kernels: run in parent threads, its tail launches would "
                   "come from many threads of the parent grid, which CUDA 13.0 can leave "
                   "unfinished");
  return llvm::Error::success();
}

llvm::Error headerCopyBlocker(const clang::FunctionDecl &Child, const KernelFeatures &F) {
  if (!includedFileOf(Child.getASTContext(), Child).isValid() ||
      F.CalleesReadingThreadIdentity.empty())
    return llvm::Error::success();
  return refusal("the child kernel is defined in an included header and calls functions that "
                 "read the built-in index variables (" +
                 llvm::join(F.CalleesReadingThreadIdentity, ", ") +
                 "), which its copy here cannot redirect");
}

SerialCopyNames thresholdSerialNames() {
  return {generated::threshold::SerialPrefix, generated::threshold::ThreadPrefix};
}

std::string serialNameFor(llvm::StringRef KernelName, const SerialCopyNames &Names) {
  return Names.SerialPrefix + KernelName.str();
}

std::string serialPrototype(const KernelCopy &K, const SerialCopyOptions &Options) {
  return serialSignature(K, Options) + ";\n";
}

namespace {
// Serial copies that call each other recursively have a stack nvcc cannot
// size, and the device's default (1 KiB per thread) overflows a few levels
// down: an illegal memory access. The host raises it before main.
std::string serialStackLimit() {
  return "// launchopt: serial copies that call each other need more stack than the\n"
         "// default; it is raised to LAUNCHOPT_SERIAL_STACK bytes per thread before main\n"
         "// (0 leaves it as it is).\n"
         "#ifndef LAUNCHOPT_SERIAL_STACK\n"
         "#define LAUNCHOPT_SERIAL_STACK (1024 + 768 * LAUNCHOPT_SERIAL_DEPTH)\n"
         "#endif\n"
         "#ifndef __CUDA_ARCH__\n"
         "namespace {\n"
         "struct __lo_SerialStackLimit {\n"
         "  __lo_SerialStackLimit() {\n"
         "    size_t Bytes = 0;\n"
         "    if (LAUNCHOPT_SERIAL_STACK > 0 &&\n"
         "        cudaDeviceGetLimit(&Bytes, cudaLimitStackSize) == cudaSuccess &&\n"
         "        Bytes < (size_t)(LAUNCHOPT_SERIAL_STACK))\n"
         "      cudaDeviceSetLimit(cudaLimitStackSize, LAUNCHOPT_SERIAL_STACK);\n"
         "    (void)cudaGetLastError();\n"
         "  }\n"
         "} __lo_serialStackLimit;\n"
         "} // namespace\n"
         "#endif\n";
}
} // namespace

std::string serialDepthDefinitions() {
  return "// launchopt: a child that launches itself runs serially in at most\n"
         "// LAUNCHOPT_SERIAL_DEPTH nested serial copies; deeper launches are launched.\n"
         "#ifndef LAUNCHOPT_SERIAL_DEPTH\n#define LAUNCHOPT_SERIAL_DEPTH 4\n#endif\n"
         "static constexpr unsigned " +
         generated::threshold::SerialDepth + " = 0;\n" + serialStackLimit() + "\n";
}

// A child thread of fewer estimated instructions runs serially: side by side
// on the H200 (bench/results/packing), pooling children of 19 to 41
// instructions (bfs, sssp, spmv, gc, sp) gained nothing overall (0.80x to
// 1.20x over 50 pairs, geomean 0.99x), while children that loop, run
// serially, gained 1.44x to 2.71x (tc).
constexpr unsigned MinPooledThreadInstructions = 96;

std::optional<std::string> lanePooling(const KernelCopy &K) {
  // A child of another file is estimated, and its copy written, there.
  if (K.Body.Begin == K.Body.End)
    return std::nullopt;
  if (K.InstructionsPerThread == 0)
    return "the lanes of a warp pool their children's threads (the child's threads loop, or "
           "call what the estimate cannot follow)";
  if (K.InstructionsPerThread < MinPooledThreadInstructions)
    return std::nullopt;
  return "the lanes of a warp pool their children's threads (" +
         std::to_string(K.InstructionsPerThread) + " instructions per thread)";
}

std::optional<std::string> serialAtomics(const KernelCopy &K) {
  if (std::optional<std::string> Combined = combinedAtomics(K))
    return *Combined + ": combined per serial run, applied once";
  return std::nullopt;
}

namespace {
std::string linearExitName(const KernelCopy &K, const SerialCopyOptions &Options) {
  return Options.Names.ThreadPrefix + "exit_" + K.Name;
}

// Whether the child's guard on its linear x index ends a thread: the
// declarations before the guard, evaluated as the thread would.
std::string linearExitFunction(const KernelCopy &K, const SerialCopyOptions &Options) {
  if (K.LinearExit.Condition.empty())
    return "";
  std::string D = "// launchopt: whether the guard of '" + K.Name +
                  "' ends this thread and every later one in x:\n// " + K.LinearExit.Condition +
                  "\n";
  D += K.TemplateHeader + "static __device__ bool " + linearExitName(K, Options) + "(" +
       K.parameters(true) + passedBuiltinParameters() + ")\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  D += K.LinearExit.Declarations;
  for (const std::string &Name : K.LinearExit.Names)
    D += "  (void)" + Name + ";\n";
  return D + "  return " + K.LinearExit.Condition + ";\n}\n\n";
}

// The serial function's first statement: the lanes that reach it together
// run their children's threads together (runtime/include/launchopt/packing.cuh);
// nothing for a child too cheap to gain from it.
std::string packedAttempt(const KernelCopy &K, const SerialCopyOptions &Options,
                          const std::string &ThreadName) {
  if (!Options.MayPool || !lanePooling(K))
    return "";
  const std::string Builtins = generated::code("@b, @t, @bd, @gd");
  const std::string Lambda =
      generated::code("[=](const uint3 @b, const uint3 @t, const dim3 @bd, const dim3 @gd) {\n");
  std::string D = "  if (launchopt::packing::runTogether(" +
                  generated::code("@gridDim, @blockDim") + ",\n          " + Lambda +
                  "            " + ThreadName + K.TemplateArgs + "(" + K.arguments(true) +
                  Builtins + (Options.InCycle ? ", " + generated::threshold::SerialDepth : "") +
                  ");\n          },\n          ";
  if (K.LinearExit.Condition.empty())
    D += "nullptr";
  else
    D += Lambda + "            return " + linearExitName(K, Options) + K.TemplateArgs + "(" +
         K.arguments(true) + Builtins + ");\n          }";
  return D + ", " + std::to_string(K.InstructionsPerThread) + "u))\n    return;\n";
}
} // namespace

void includeSerialRuntime(SourceEdits &Edits) {
  auto Uses = [&](const char *Namespace) {
    return std::any_of(Edits.edits().begin(), Edits.edits().end(), [&](const SourceEdit &E) {
      return E.Text.find(Namespace) != std::string::npos;
    });
  };
  if (Uses("launchopt::accumulate::"))
    Edits.insert(0, "#include <launchopt/accumulate.cuh>\n");
  if (Uses("launchopt::packing::"))
    Edits.insert(0, "#include <launchopt/packing.cuh>\n");
}

std::string serialDefinitions(const clang::ASTContext &Ctx, const KernelCopy &K,
                              const std::vector<SourceEdit> &BodyEdits,
                              const SerialCopyOptions &Options) {
  const bool InCycle = Options.InCycle;
  std::string ThreadName = Options.Names.ThreadPrefix + K.Name;
  std::string D;
  D += "\n\n// launchopt: one thread of '" + K.Name +
       "', run by a parent thread; the locals below\n"
       "// shadow the built-in index variables with that thread's values.\n";
  D += K.TemplateHeader + "static __device__ void " + ThreadName + "(" + K.parameters(true) +
       passedBuiltinParameters() + depthParameter(InCycle) + atomicSlotParameters(K) + ")\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  D += "  " + K.body(Ctx, withAtomicSlots(K, BodyEdits, SlotsArePointers)) + "\n}\n\n";
  D += linearExitFunction(K, Options);
  D += "// launchopt: every thread of a '" + K.Name +
       "' grid, one after another (serial version).\n";
  D += serialSignature(K, Options) + "\n{\n";
  D += packedAttempt(K, Options, ThreadName);
  D += atomicSlotDeclarations(K, "  ");
  std::string Call =
      ThreadName + K.TemplateArgs + "(" + K.arguments(true) +
      generated::code("make_uint3(@bx, @by, @bz),\n"
                      "                  make_uint3(@tx, @ty, @tz), @blockDim, @gridDim") +
      (InCycle ? ", " + generated::threshold::SerialDepth : "") + atomicSlotArguments(K) + ");\n";
  if (K.LinearExit.Condition.empty()) {
    D += generated::code("  for (unsigned @bz = 0; @bz < @gridDim.z; ++@bz)\n"
                         "    for (unsigned @by = 0; @by < @gridDim.y; ++@by)\n"
                         "      for (unsigned @bx = 0; @bx < @gridDim.x; ++@bx)\n"
                         "        for (unsigned @tz = 0; @tz < @blockDim.z; ++@tz)\n"
                         "          for (unsigned @ty = 0; @ty < @blockDim.y; ++@ty)\n"
                         "            for (unsigned @tx = 0; @tx < @blockDim.x; ++@tx)\n");
    return D + "              " + Call + atomicSlotFlushes(K, "  ") + "}";
  }
  // The x loops stop at the first x index whose thread the child's guard
  // ends: every later one would return at once too.
  D += generated::code("  for (unsigned @bz = 0; @bz < @gridDim.z; ++@bz)\n"
                       "    for (unsigned @by = 0; @by < @gridDim.y; ++@by) {\n"
                       "      bool @xEnded = false;\n"
                       "      for (unsigned @bx = 0; @bx < @gridDim.x && !@xEnded; ++@bx)\n"
                       "        for (unsigned @tz = 0; @tz < @blockDim.z; ++@tz)\n"
                       "          for (unsigned @ty = 0; @ty < @blockDim.y; ++@ty)\n"
                       "            for (unsigned @tx = 0; @tx < @blockDim.x; ++@tx) {\n");
  D += "              if (" + linearExitName(K, Options) + K.TemplateArgs + "(" +
       K.arguments(true) +
       generated::code("make_uint3(@bx, @by, @bz),\n"
                       "                  make_uint3(@tx, @ty, @tz), @blockDim, @gridDim)) {\n"
                       "                @xEnded = true;\n"
                       "                break;\n"
                       "              }\n");
  D += "              " + Call;
  D += "            }\n    }\n" + atomicSlotFlushes(K, "  ") + "}";
  return D;
}

} // namespace launchopt

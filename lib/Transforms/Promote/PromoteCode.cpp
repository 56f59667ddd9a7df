#include "PromoteCode.h"

#include "Support/GeneratedNames.h"

namespace launchopt {

namespace {

// A template kernel's generated struct and functions are templates with the
// kernel's parameters; their uses name every argument.
const std::string &header(const PromotedKernel &K) { return K.Kernel.TemplateHeader; }
const std::string &templateArgs(const PromotedKernel &K) { return K.Kernel.TemplateArgs; }

std::string argsName(const PromotedKernel &K) {
  return generated::promote::ArgsPrefix + K.Kernel.Name;
}
std::string argsType(const PromotedKernel &K) { return argsName(K) + templateArgs(K); }
std::string siteType(const PromotedKernel &K) {
  return "launchopt::promotion::Site<" + argsType(K) + ">";
}
std::string poolType(const PromotedKernel &K) {
  return "launchopt::promotion::Pool<" + argsType(K) + ">";
}
std::string bodyName(const PromotedKernel &K) {
  return generated::promote::BodyPrefix + K.Kernel.Name;
}
std::string poolName(const PromotedKernel &K) {
  return generated::promote::PoolPrefix + K.Kernel.Name;
}
std::string packName(const PromotedKernel &K) {
  return generated::promote::PackPrefix + K.Kernel.Name;
}
const std::string &site() { return generated::promote::Site; }

// With overlap: the successor's arguments known at the start, released
// at once when the launch condition (without its choice of thread) holds;
// else the chain ends here.
std::string earlyRelease(const PromotedKernel &K) {
  if (!K.Overlap)
    return "";
  std::string Puts;
  for (size_t I = 0; I < K.Kernel.ParamNames.size(); ++I)
    if (K.Overlap->Available[I])
      Puts += "      launchopt::promotion::put(" + generated::code("@succ.") +
              K.Kernel.ParamNames[I] + ", " + K.Launch.ArgumentTexts[I] + ");\n";
  return "  if (launchopt::promotion::isLeader() && " + site() + ".pool) {\n    if (" +
         K.Overlap->EarlyCondition + ") {\n      " + argsType(K) +
         generated::code(" &@succ = launchopt::promotion::successorArgs(") + site() + ");\n" +
         Puts + "      launchopt::promotion::publish(" + site() +
         ");\n    } else {\n      launchopt::promotion::abortSuccessor(" + site() +
         ");\n    }\n  }\n";
}

// The successor's pool, launched by the block's leader before the body runs.
// It goes into the fire-and-forget stream: in the block's own stream it would
// hold back nothing (the kernel has no other launch) but would keep the
// block's stream busy for the whole chain.
std::string poolLaunch(const PromotedKernel &K) {
  const LaunchText &L = K.Launch;
  std::string Shared = L.SharedMemory.empty() ? "0" : L.SharedMemory;
  return "  if (launchopt::promotion::needsPool(" + site() + ")) {\n    " + poolType(K) +
         generated::code(" *@next =\n        launchopt::promotion::makePool<") + argsType(K) +
         ">(LAUNCHOPT_PROMOTE_POOL);\n" + generated::code("    if (@next) {\n      ") +
         poolName(K) + templateArgs(K) + generated::code("<<<@next->size, ") + L.Block + ", " +
         Shared + generated::code(", cudaStreamFireAndForget>>>(@next);\n") +
         "      launchopt::promotion::launched(" + site() +
         generated::code(", @next, cudaGetLastError() == cudaSuccess);\n    }\n  }\n") +
         earlyRelease(K) + "  __syncthreads();\n";
}

} // namespace

std::string promotedPrologue(const PromotedKernel &K, const std::string &BodyWithSite) {
  std::string Members;
  for (const std::string &P : K.Kernel.ParamTexts)
    Members += "  " + P + ";\n";
  std::string Out = "// launchopt: " + K.Kernel.Name +
                    " is promoted: each step launches its successor at its start and "
                    "releases it at its end.\n" +
                    header(K) + "struct " + argsName(K) + " {\n" + Members + "};\n";
  Out += K.Signature + ";\n";
  Out += header(K) + "__global__ void " + poolName(K) + "(" + poolType(K) +
         generated::code(" *@pool);\n");
  if (!K.Overlap) // with overlap the arguments are stored one by one
    Out += header(K) + "__device__ inline " + argsType(K) + " " + packName(K) + "(" +
           K.Kernel.parameters() + ") {\n  return " + argsType(K) + "{" + K.Kernel.arguments() +
           "};\n}\n";
  // The body sees the block index and grid size of the original launch: a
  // pool block is block 0 of a grid of one, whatever its place in the pool.
  Out += header(K) + "__device__ void " + bodyName(K) + "(" + K.Kernel.parameters(true) +
         siteType(K) + " &" + site() + ", const uint3 " + generated::passedBuiltin("blockIdx") +
         ", const dim3 " + generated::passedBuiltin("gridDim") +
         ") {\n  const uint3 blockIdx = " + generated::passedBuiltin("blockIdx") +
         ";\n  const dim3 gridDim = " + generated::passedBuiltin("gridDim") +
         ";\n  (void)blockIdx;\n  (void)gridDim;\n" + poolLaunch(K) + "  " + BodyWithSite + "\n}\n";
  return Out;
}

std::string promotedSite(const PromotedKernel &K) {
  const LaunchText &L = K.Launch;
  std::string Launch =
      L.Callee + "<<<" + L.Grid + ", " + L.Block + L.trailingConfig() + ">>>(" + L.Arguments + ");";
  if (K.Overlap) {
    std::string Puts;
    for (size_t I = 0; I < K.Kernel.ParamNames.size(); ++I)
      if (!K.Overlap->Available[I])
        Puts += " launchopt::promotion::put(" + generated::code("@succ.") + K.Kernel.ParamNames[I] +
                ", " + L.ArgumentTexts[I] + ");";
    return "{ if (" + site() + ".pool) { " + argsType(K) +
           generated::code(" &@succ = launchopt::promotion::successorArgs(") + site() + ");" +
           Puts + " launchopt::promotion::stored(" + site() + "); } else " + Launch + " }";
  }
  return "{ if (" + site() + ".pool) launchopt::promotion::store(" + site() + ", " + packName(K) +
         templateArgs(K) + "(" + L.Arguments + ")); else " + Launch + " }";
}

std::string promotedFirstBody(const PromotedKernel &K) {
  return "{\n  __shared__ " + siteType(K) + " " + site() + ";\n  launchopt::promotion::begin(" +
         site() + ");\n  " + bodyName(K) + templateArgs(K) + "(" + K.Kernel.arguments(true) +
         site() + ", blockIdx, gridDim);\n  launchopt::promotion::finish(" + site() + ");\n}";
}

std::string promotedAcquire(const PromotedKernel &K) {
  std::string Takes;
  for (size_t I = 0; I < K.Kernel.ParamNames.size(); ++I)
    if (!K.Overlap->Available[I])
      Takes += "    " + K.Kernel.ParamNames[I] + generated::code(" = @own.") +
               K.Kernel.ParamNames[I] + ";\n";
  return "// launchopt: the independent start of the body ends here; the rest waits for the "
         "release.\n  if (!launchopt::promotion::awaitPostponed(" +
         site() + "))\n    return;\n  if (launchopt::promotion::inPool(" + site() +
         ")) {\n    const " + argsType(K) +
         generated::code(" &@own = launchopt::promotion::arguments(") + site() + ");\n" + Takes +
         "  }\n  ";
}

std::string promotedPoolKernel(const PromotedKernel &K) {
  std::string Arguments;
  for (const std::string &N : K.Kernel.ParamNames)
    Arguments += generated::code("@in.") + N + ", ";
  return "\n" + header(K) + "__global__ void " + poolName(K) + "(" + poolType(K) +
         generated::code(" *@pool) {\n  __shared__ ") + siteType(K) + " " + site() +
         generated::code(";\n  if (!launchopt::promotion::enter(@pool, ") + site() +
         (K.Overlap ? ", true" : "") + "))\n    return;\n  const " + argsType(K) +
         generated::code(" &@in = launchopt::promotion::arguments(") + site() + ");\n  " +
         bodyName(K) + templateArgs(K) + "(" + Arguments + site() +
         ", make_uint3(0, 0, 0), dim3(1, 1, 1));\n  launchopt::promotion::finish(" + site() +
         generated::code(");\n  launchopt::promotion::exitPool(@pool);\n}\n");
}

std::string promotionPreamble(unsigned PoolSize) {
  return "// launchopt: promoted launches go in pools of LAUNCHOPT_PROMOTE_POOL successors\n"
         "// (1: basic promotion). Override with -DLAUNCHOPT_PROMOTE_POOL=<n>.\n"
         "#ifndef LAUNCHOPT_PROMOTE_POOL\n#define LAUNCHOPT_PROMOTE_POOL " +
         std::to_string(PoolSize) + "u\n#endif\n#include <launchopt/promotion.cuh>\n\n";
}

} // namespace launchopt

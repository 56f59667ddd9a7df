#include "BlockRunCode.h"

#include "Support/GeneratedNames.h"
#include "Transforms/Common/AtomicSlots.h"

namespace launchopt {

namespace {

std::string recordName(const std::string &Child) {
  return generated::removal::RecordPrefix + Child;
}

std::string listName(const std::string &Child) { return generated::removal::ListPrefix + Child; }

std::string threadName(const std::string &Child) {
  return generated::removal::BlockThreadPrefix + Child;
}

} // namespace

std::string blockRunDefinitions(const clang::ASTContext &Ctx, const BlockRunChild &Child,
                                const std::vector<SourceEdit> &BodyEdits) {
  const KernelCopy &K = Child.Copy;
  std::string D = "\n\n// launchopt: a launch of '" + K.Name +
                  "' recorded by a thread of its parent block (T3).\n";
  D += K.TemplateHeader + "struct " + recordName(K.Name) +
       " {\n  launchopt::removal::LaunchShape shape;\n";
  // A constructor, not aggregate initialization: the arguments convert to
  // the parameters as they did at the launch, narrowing included.
  D += "  struct Arguments {\n";
  for (const std::string &P : K.ParamTexts)
    D += "    " + P + ";\n";
  std::string Initializers;
  for (const std::string &N : K.ParamNames)
    Initializers += (Initializers.empty() ? " : " : ", ") + N + "(" + N + ")";
  D += "    __device__ Arguments(" + K.parameters() + ")" + Initializers + " {}\n";
  D += "  } args;\n};\n\n";
  D += "// launchopt: one thread of a '" + K.Name +
       "' block, run by a thread of the parent block;\n"
       "// the locals below shadow the built-in index variables with the child thread's"
       " values.\n";
  D += K.TemplateHeader + "static __device__ void " + threadName(K.Name) + "(" +
       K.parameters(true) + passedBuiltinParameters() + ")\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  if (Child.Synchronizes)
    D += "  // The child block's barrier spans only the threads that run it.\n"
         "  auto __syncthreads = [&]() {\n"
         "    launchopt::removal::childBarrier(blockDim.x * blockDim.y * blockDim.z);\n"
         "  };\n";
  D += "  " + K.body(Ctx, withWarpAtomics(K, BodyEdits)) + "\n}";
  return D;
}

std::string recordingStatement(const LaunchText &L, const GridGuard &Guard, unsigned SiteId,
                               const KernelCopy &Child, const ChildNaming &Naming,
                               const std::string &SerialCallee) {
  std::string Record = generated::code("@r") + std::to_string(SiteId);
  std::string Type = Naming.Scope + recordName(Child.Name) + Naming.TemplateArgs;
  // The arguments' struct of a template's record is a dependent name.
  std::string Arguments = (Naming.TemplateArgs.empty() ? "" : "typename ") + Type + "::Arguments";
  std::string Out = "{ // launchopt: launch of '" + Child.Name +
                    "' removed (T3): recorded for the parent block, which runs it at its end\n";
  std::string Run = L.Indent + "    const " + Type + " " + Record + " = {{" + Guard.GridVar + ", " +
                    Guard.BlockVar + ", (unsigned)(" +
                    (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ")}, " + Arguments + "(" +
                    L.Arguments + ")};\n";
  if (!L.Stream.empty())
    Run += L.Indent + "    (void)(" + L.Stream + ");\n";
  if (SerialCallee.empty()) {
    Run += L.Indent + "    launchopt::removal::record(" + listName(Child.Name) + ", " + Record +
           ");\n";
  } else {
    // Bounded: no device heap, so nothing can run out of it.
    std::string Fields;
    for (const std::string &N : Child.ParamNames)
      Fields += Record + ".args." + N + ", ";
    Run += L.Indent + "    if (!launchopt::removal::recordInSlots(" + listName(Child.Name) + ", " +
           Record + "))\n";
    Run += L.Indent + "      " + Naming.Scope + SerialCallee + Naming.TemplateArgs + "(" + Fields +
           Record + ".shape.grid, " + Record +
           ".shape.block); // the slots are full: this thread runs it now\n";
  }
  Out += guardedRun(Guard, L, Run);
  return Out + L.Indent + "}";
}

std::string parentOpening(const std::vector<BlockRunList> &Children) {
  std::string Out = "\n  // launchopt: the launches this block's threads make (T3), run by the "
                    "whole block when\n  // every thread is done with the parent's own work.\n";
  for (const BlockRunList &C : Children) {
    const std::string &Name = C.Child->Copy.Name;
    Out += "  __shared__ launchopt::removal::BlockLaunches<" + C.Naming.Scope + recordName(Name) +
           C.Naming.TemplateArgs + ", LAUNCHOPT_REMOVAL_SLOTS> " + listName(Name) + ";\n";
    Out += "  launchopt::removal::open(" + listName(Name) + ");\n";
  }
  return Out + "  [&]() {";
}

std::string parentClosing(const std::vector<BlockRunList> &Children) {
  std::string Out = "  }();\n";
  for (const BlockRunList &C : Children) {
    const KernelCopy &K = C.Child->Copy;
    std::string Arguments;
    for (const std::string &N : K.ParamNames)
      Arguments += generated::code("@rec.args.") + N + ", ";
    Out += "  launchopt::removal::run(" + listName(K.Name) + ", " +
           (C.Child->Synchronizes ? "true" : "false") + ",\n";
    Out += "      [&](const " + C.Naming.Scope + recordName(K.Name) + C.Naming.TemplateArgs +
           generated::code(" &@rec, uint3 @block, uint3 @thread) {\n");
    Out += "        " + C.Naming.Scope + threadName(K.Name) + C.Naming.TemplateArgs + "(" +
           Arguments +
           generated::code("@block, @thread, @rec.shape.block,\n"
                           "            @rec.shape.grid);\n");
    Out += "      });\n";
  }
  return Out;
}

std::string blockRunPreamble(unsigned DefaultSlots) {
  return "// launchopt: removed launches (T3) are recorded per parent block: "
         "LAUNCHOPT_REMOVAL_SLOTS\n// in shared memory; beyond them the launching thread runs a "
         "child of independent\n// threads itself, and other children's records go to the "
         "device heap.\n// Override with -DLAUNCHOPT_REMOVAL_SLOTS=<n>.\n#ifndef LAUNCHOPT_REMOVAL_SLOTS\n"
         "#define LAUNCHOPT_REMOVAL_SLOTS " +
         std::to_string(DefaultSlots) + "u\n#endif\n#include <launchopt/removal.cuh>\n\n";
}

} // namespace launchopt

#include "PersistentCode.h"

#include "Support/GeneratedNames.h"
#include "Transforms/Common/LaunchText.h"
#include "llvm/ADT/StringExtras.h"

namespace launchopt {

namespace {

std::string recordName(const std::string &Child) {
  return generated::removal::GridRecordPrefix + Child;
}

std::string queueName(const std::string &Parent) {
  return generated::removal::QueuePrefix + Parent;
}

const char *versionText(PersistentUnits Units) {
  switch (Units) {
  case PersistentUnits::ChildBlocks:
    return "T1";
  case PersistentUnits::ChildGrids:
    return "T2";
  case PersistentUnits::Choose:
    break;
  }
  return "T1/T2";
}

const char *unitsText(PersistentUnits Units) {
  switch (Units) {
  case PersistentUnits::ChildBlocks:
    return "a child block";
  case PersistentUnits::ChildGrids:
    return "a whole child grid";
  case PersistentUnits::Choose:
    break;
  }
  return "a block's worth of packed child threads, a child block (T1) or a whole child grid "
         "(T2), as the recorded launches decide (children of at most "
         "LAUNCHOPT_PERSISTENT_INLINE_THREADS threads are run by the launching thread)";
}

const char *unitsConstant(PersistentUnits Units) {
  switch (Units) {
  case PersistentUnits::ChildBlocks:
    return "launchopt::persistent::ChildBlocks";
  case PersistentUnits::ChildGrids:
    return "launchopt::persistent::ChildGrids";
  case PersistentUnits::Choose:
    break;
  }
  return "launchopt::persistent::Choose";
}

// The runtime's <Recursive, WholeBlocks> template arguments, left out
// where they are the defaults (false).
std::string templateFlags(bool Recursive, bool WholeBlocks) {
  if (WholeBlocks)
    return std::string("<") + (Recursive ? "true" : "false") + ", true>";
  return Recursive ? "<true>" : "";
}

} // namespace

std::string gridRecordDefinition(const KernelCopy &K) {
  std::string D = "\n\n// launchopt: a launch of '" + K.Name +
                  "' recorded by a persistent parent grid (T1/T2).\n";
  D += K.TemplateHeader + "struct " + recordName(K.Name) +
       " {\n  launchopt::persistent::LaunchShape shape;\n";
  // A constructor: the arguments convert to the parameters as at the launch.
  D += "  struct Arguments {\n";
  for (const std::string &P : K.ParamTexts)
    D += "    " + P + ";\n";
  std::string Initializers;
  for (const std::string &N : K.ParamNames)
    Initializers += (Initializers.empty() ? " : " : ", ") + N + "(" + N + ")";
  D += "    __device__ Arguments(" + K.parameters() + ")" + Initializers + " {}\n";
  D += "  } args;\n};";
  return D;
}

std::string gridRecordingStatement(const LaunchText &L, const GridGuard &Guard, unsigned SiteId,
                                   const KernelCopy &Child, const ChildNaming &Naming,
                                   const KernelCopy &Parent, const std::string &SerialCallee,
                                   PersistentUnits Units, bool InlineSmall,
                                   std::optional<unsigned> Tag) {
  // A parent of several children records through the runtime's tagging
  // calls (recordAs, recordBlocksAs), which take the child's index.
  std::string As = Tag ? "As<" + std::to_string(*Tag) + ">" : "";
  std::string Record = generated::code("@r") + std::to_string(SiteId);
  std::string Type = Naming.Scope + recordName(Child.Name) + Naming.TemplateArgs;
  // The arguments' struct of a template's record is a dependent name.
  std::string Arguments = (Naming.TemplateArgs.empty() ? "" : "typename ") + Type + "::Arguments";
  std::string Queue = queueName(Parent.Name) + Parent.TemplateArgs;
  std::string Out = "{ // launchopt: launch of '" + Child.Name + "' removed (" +
                    versionText(Units) +
                    "): recorded for the persistent parent grid, which runs it after its own "
                    "work\n";
  std::string Run = L.Indent + "    const " + Type + " " + Record + " = {{" + Guard.GridVar + ", " +
                    Guard.BlockVar + ", (unsigned)(" +
                    (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ")}, " + Arguments + "(" +
                    L.Arguments + ")};\n";
  if (!L.Stream.empty())
    Run += L.Indent + "    (void)(" + L.Stream + ");\n";
  if (SerialCallee.empty()) {
    Run += L.Indent + "    launchopt::persistent::recordBlocks" + As + "(" + Queue + ", " + Record +
           "); // its threads work together: a block of the grid runs each block\n";
    return Out + guardedRun(Guard, L, Run, false) + L.Indent + "}";
  }
  std::string Fields;
  for (const std::string &N : Child.ParamNames)
    Fields += Record + ".args." + N + ", ";
  // The megakernel's launching thread runs a small child itself.
  std::string Small = Units == PersistentUnits::Choose && InlineSmall
                          ? "launchopt::persistent::runsInline(" + Record + ".shape.grid, " +
                                Record + ".shape.block) || "
                          : "";
  Run += L.Indent + "    if (" + Small + "!launchopt::persistent::record" + As + "(" + Queue +
         ", " + Record + ")) {\n";
  // A wrapped count's grid (2^27 blocks) cannot run in one thread: better a
  // trap that says why than a thread that never ends.
  if (!Guard.Fits.empty())
    Run += L.Indent + "      if (!(" + Guard.Fits + "))\n" + L.Indent +
           "        launchopt::persistent::wrappedGridFindsQueueFull();\n";
  Run += L.Indent + "      " + Naming.Scope + SerialCallee + Naming.TemplateArgs + "(" + Fields +
         Record + ".shape.grid, " + Record + ".shape.block); // " +
         (Small.empty() ? "" : "small, or ") + "the queue is full: this thread runs it now\n";
  Run += L.Indent + "    }\n";
  // A cooperative grid cannot launch: an implausible grid is recorded too,
  // and its blocks are shared by the whole grid (runRecorded).
  Out += guardedRun(Guard, L, Run, false);
  return Out + L.Indent + "}";
}

SerialCopyNames recursiveChildNames(const std::string &Parent) {
  return {generated::removal::PersistentSerialPrefix + Parent + "_",
          generated::removal::PersistentThreadPrefix + Parent + "_"};
}

namespace {

// The call that runs one thread of a recorded child, from the record's
// fields named by ArgumentsOf.
std::string childThreadCall(const PersistentChildCode &C, const std::string &ArgumentsOf) {
  std::string Arguments;
  for (const std::string &N : C.Child->ParamNames)
    Arguments += ArgumentsOf + N + ", ";
  return C.ThreadCallee + C.Naming.TemplateArgs + "(" + Arguments +
         generated::code("@block, @thread, @rec.shape.block, @rec.shape.grid);\n");
}

std::string recordType(const PersistentChildCode &C) {
  return C.Naming.Scope + recordName(C.Child->Name) + C.Naming.TemplateArgs;
}

// The code that runs one recorded child thread: the child's copy, or for
// several children the copy of the one the record names.
std::string runThreadLambda(const std::vector<PersistentChildCode> &Children) {
  if (Children.size() == 1) {
    std::string D = "      [&](const " + recordType(Children.front()) +
                    generated::code(" &@rec, uint3 @block, uint3 @thread) {\n");
    D += "        " + childThreadCall(Children.front(), generated::code("@rec.args."));
    return D + "      });\n";
  }
  std::string D = generated::code("      [&](const auto &@rec, uint3 @block, uint3 @thread) {\n") +
                  generated::code("        switch (@rec.child) {\n");
  for (size_t I = 0; I < Children.size(); ++I) {
    std::string Index = std::to_string(I);
    D += "        case " + Index + ": { // '" + Children[I].Child->Name + "'\n";
    D += generated::code("          const auto &@args = @rec.template argsOf<") + Index + ">();\n";
    D += "          " + childThreadCall(Children[I], generated::code("@args."));
    D += "          break;\n        }\n";
  }
  return D + "        }\n      });\n";
}

} // namespace

std::string persistentDefinitions(const clang::ASTContext &Ctx, const KernelCopy &Parent,
                                  const std::vector<PersistentChildCode> &Children,
                                  const std::vector<SourceEdit> &BodyEdits, PersistentUnits Units,
                                  const std::vector<RecursiveChildCopies> &Recursive,
                                  bool WholeBlocks) {
  std::string Record = recordType(Children.front());
  if (Children.size() > 1) {
    // Bit i: child i's blocks run as blocks of the grid; the others'
    // threads are packed.
    unsigned WholeBlockChildren = 0;
    std::vector<std::string> Types;
    for (size_t I = 0; I < Children.size(); ++I) {
      Types.push_back(recordType(Children[I]));
      WholeBlockChildren |= Children[I].WholeBlocks ? 1u << I : 0u;
    }
    Record = "launchopt::persistent::RecordOfAny<" + std::to_string(WholeBlockChildren) + "u, " +
             llvm::join(Types, ", ") + ">";
  }
  const std::string &P = Parent.Name;
  // A template parent's queue is a variable template of its parameters.
  const std::string &Header = Parent.TemplateHeader;
  const std::string &Own = Parent.TemplateArgs;
  std::string Block = generated::removal::ParentBlockPrefix + P;
  std::string D = "\n\n// launchopt: the persistent parent grid of '" + P + "' (" +
                  versionText(Units) +
                  "): the launches its threads record, run after a\n// "
                  "grid barrier by any of its blocks, " +
                  unitsText(Units) + " at a time.\n";
  if (Children.size() > 1) {
    std::vector<std::string> Names;
    for (const PersistentChildCode &C : Children)
      Names.push_back("'" + C.Child->Name + "'");
    D += "// Its records are launches of " + llvm::join(Names, ", ") +
         ", each tagged with its child's index;\n// the threads of a child that does not work "
         "together in blocks are taken a block's worth at a time.\n";
  }
  D += Header + "__device__ launchopt::persistent::Queue<" + Record +
       ", LAUNCHOPT_PERSISTENT_QUEUE> " + queueName(P) + ";\n\n";
  for (const RecursiveChildCopies &R : Recursive)
    D += "// launchopt: '" + R.Child + "' launches itself: run by the persistent grid, its " +
         "launches are\n// recorded in the queue too, and the grid runs them in rounds." +
         R.Definitions + "\n\n";
  D += "// launchopt: one block of the original '" + P +
       "' grid, run by a block of the persistent grid;\n// the locals below shadow the built-in "
       "index variables with the original block's values.\n";
  D += Header + "static __device__ void " + Block + "(" + Parent.parameters(true) +
       passedBuiltinParameters() + ")\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  D += "  " + Parent.body(Ctx, BodyEdits) + "\n}\n\n";
  std::string Grid = generated::code("@parentGrid");
  D += Header + "__global__ void " + generated::removal::PersistentPrefix + P + "(const dim3 " +
       Grid + (Parent.ParamTexts.empty() ? "" : ", ") + Parent.parameters() + ")\n{\n";
  D += "  launchopt::persistent::runParentBlocks(" + Grid + ", [&](uint3 " +
       generated::code("@block") + ") {\n";
  D += "    " + Block + Own + "(" + Parent.arguments(true) + generated::code("@block") +
       ", threadIdx, blockDim, " + Grid + ");\n  });\n";
  D += "  launchopt::persistent::runRecorded" + templateFlags(!Recursive.empty(), WholeBlocks) +
       "(" + queueName(P) + Own + ", " + unitsConstant(Units) + ",\n";
  D += runThreadLambda(Children);
  return D + "}";
}

PersistentHostNames persistentHostNames(const clang::ASTContext &Ctx, const LaunchSite &Host) {
  // Checked when the site was taken (RemovalChecks: persistentGridRefusal).
  auto Named = [&](const std::string &Prefix) {
    return llvm::cantFail(prefixedCallee(Ctx, Host, Prefix, /*SpellDeduced=*/true));
  };
  return {Named(generated::removal::PersistentPrefix), Named(""),
          Named(generated::removal::QueuePrefix)};
}

std::string persistentHostLaunch(const LaunchText &L, const PersistentHostNames &Names,
                                 const KernelCopy &Parent, PersistentWhen When, bool RecursiveChild,
                                 bool WholeBlocks) {
  const char *WhenConstant = When == PersistentWhen::MoreResidentThanOriginal
                                 ? "MoreResidentThanOriginal"
                             : When == PersistentWhen::AlwaysSpread ? "AlwaysSpread"
                                                                    : "Always";
  return "launchopt::persistent::launch" + templateFlags(RecursiveChild, WholeBlocks) + "(" +
         Names.Persistent + ", " + Names.Original + ", " + Names.Queue +
         ", launchopt::persistent::" + WhenConstant + ", " + L.Grid + ", " + L.Block + ", " +
         (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ", " +
         (L.Stream.empty() ? "0" : L.Stream) + (L.Arguments.empty() ? "" : ", ") + L.Arguments +
         "); /* launchopt: the persistent grid of '" + Parent.Name + "' (launch removal) */";
}

std::string persistentPreamble() {
  return "// launchopt: removed launches (T1/T2) are recorded in a queue of each persistent parent "
         "grid:\n// a ring the host allocates (LAUNCHOPT_PERSISTENT_RING_BYTES), else "
         "LAUNCHOPT_PERSISTENT_QUEUE launches;\n// beyond them the launching thread runs the child "
         "itself.\n#ifndef LAUNCHOPT_PERSISTENT_QUEUE\n#define "
         "LAUNCHOPT_PERSISTENT_QUEUE 65536u\n#endif\n#include <launchopt/persistent.cuh>\n\n";
}

} // namespace launchopt

#include "SpawnedKernel.h"

#include "Support/GeneratedNames.h"

namespace launchopt {

namespace {

std::string spawnedSignature(const KernelCopy &K, bool Exported = false) {
  return K.TemplateHeader + (Exported ? "" : "static ") + "__global__ void " +
         generated::spawn::SpawnedPrefix + K.Name + "(" + K.parameters(true) + "const unsigned " +
         generated::spawn::Ticket + ")";
}

// A C string literal of Text.
std::string quoted(const std::string &Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

} // namespace

SerialCopyNames spawnSerialNames() {
  return {generated::spawn::SerialPrefix, generated::spawn::ThreadPrefix};
}

std::string spawnedPrototype(const KernelCopy &K, bool Exported) {
  return spawnedSignature(K, Exported) + ";\n";
}

std::string spawnedDefinition(const KernelCopy &K, bool InCycle, bool Exported) {
  std::string D = "\n\n// launchopt: '" + K.Name +
                  "' launched under the spawn controller: its threads, then a\n"
                  "// barrier, then the block's leader reports the block finished.\n";
  D += spawnedSignature(K, Exported) + "\n{\n";
  D += generated::code("  const unsigned long long @start = launchopt::spawn::blockStarted("
                       "threadIdx);\n");
  D += "  " + generated::spawn::ThreadPrefix + K.Name + K.TemplateArgs + "(" + K.arguments(true) +
       "blockIdx, threadIdx, blockDim, gridDim" +
       (InCycle ? ", " + generated::threshold::SerialDepth : "") + ");\n";
  D += generated::code("  const unsigned long long @done = launchopt::spawn::now();\n"
                       "  __syncthreads();\n"
                       "  launchopt::spawn::blockFinished(") +
       generated::spawn::Ticket + generated::code(", @start, @done, threadIdx);\n}");
  return D;
}

std::string blockSpawnedDefinition(const clang::ASTContext &Ctx, const KernelCopy &K,
                                   const std::vector<SourceEdit> &BodyEdits) {
  std::string D = "\n\n// launchopt: '" + K.Name +
                  "' launched under the spawn controller: its body as written; each\n"
                  "// thread reports its end, whichever return it takes.\n";
  D += spawnedSignature(K) + "\n{\n";
  D += generated::code("  const launchopt::spawn::ThreadExit @exit(") + generated::spawn::Ticket +
       ");\n  ";
  return D + K.body(Ctx, BodyEdits) + "\n}";
}

std::string counterTable(const std::vector<std::pair<unsigned, PresumedPosition>> &Sites) {
  std::string T = "\n\n#ifdef LAUNCHOPT_COUNTERS\n"
                  "// launchopt: this file's spawn-controlled launch sites, for the counters.\n"
                  "static const launchopt::spawn::CounterSite " +
                  generated::spawn::CounterSites + "[] = {\n";
  for (const auto &[Id, Position] : Sites)
    T += "    {" + std::to_string(Id) + "u, " +
         quoted(Position.File + ":" + std::to_string(Position.Line)) + "},\n";
  T += "};\nstatic const launchopt::spawn::CounterRegistration " +
       generated::spawn::CounterRegistration + "(" + generated::spawn::CounterSites + ", " +
       std::to_string(Sites.size()) + "u);\n#endif\n";
  return T;
}

} // namespace launchopt

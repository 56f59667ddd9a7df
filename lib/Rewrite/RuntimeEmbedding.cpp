#include "RuntimeEmbedding.h"

#include "Support/ResourcePaths.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

namespace launchopt {

const std::vector<ProgramState> &programStates() {
  static const std::vector<ProgramState> States = {
      {"aggregation.cuh", "LAUNCHOPT_PROGRAM_POOL", "record pool"},
      {"deferral.cuh", "LAUNCHOPT_PROGRAM_DEFERRAL",
       "count of pending launches and queue of deferred launches"},
      {"spawn.cuh", "LAUNCHOPT_PROGRAM_SPAWN", "spawn controller"},
  };
  return States;
}

bool usesProgramState(const std::string &Text, const ProgramState &State) {
  return Text.find(std::string("#include <launchopt/") + State.Header + ">") != std::string::npos;
}

std::string markProgramState(const std::string &Text, const ProgramState &State, bool Defines) {
  if (!usesProgramState(Text, State))
    return Text;
  size_t At = Text.find("#include <launchopt/");
  std::string Marks = std::string("// launchopt: one ") + State.What +
                      " for the program, defined in one of its files.\n#define " + State.Macro +
                      "\n";
  if (Defines)
    Marks += std::string("#define ") + State.Macro + "_DEFINITION\n";
  return Text.substr(0, At) + Marks + Text.substr(At);
}

namespace {
// The next `#include <launchopt/...>` that is a directive: only blanks before
// it on its line (one in a comment or a string stays text).
size_t findDirective(const std::string &Text, const std::string &Directive, size_t From) {
  for (size_t At = Text.find(Directive, From); At != std::string::npos;
       At = Text.find(Directive, At + 1)) {
    size_t LineStart = Text.rfind('\n', At == 0 ? 0 : At - 1);
    LineStart = LineStart == std::string::npos || At == 0 ? 0 : LineStart + 1;
    if (Text.find_first_not_of(" \t", LineStart) == At)
      return At;
  }
  return std::string::npos;
}
} // namespace

llvm::Expected<std::string> embedRuntime(const std::string &Text) {
  static const std::string Directive = "#include <launchopt/";
  std::string Out;
  std::set<std::string> Embedded;
  size_t Cursor = 0, At;
  while ((At = findDirective(Text, Directive, Cursor)) != std::string::npos) {
    size_t Close = Text.find('>', At);
    size_t LineEnd = Text.find('\n', At);
    if (Close == std::string::npos || LineEnd == std::string::npos || Close > LineEnd)
      break;
    std::string Name = Text.substr(At + Directive.size(), Close - At - Directive.size());
    Out += Text.substr(Cursor, At - Cursor);
    Cursor = LineEnd + 1;
    // Every runtime header is `#pragma once`: a second include adds nothing.
    if (!Embedded.insert(Name).second) {
      Out += "// launchopt runtime: launchopt/" + Name + " is embedded above\n";
      continue;
    }
    std::string Path = resourceDir(Resource::RuntimeHeaders) + "/launchopt/" + Name;
    auto Header = llvm::MemoryBuffer::getFile(Path);
    if (!Header)
      return llvm::make_error<llvm::StringError>("cannot read the runtime header '" + Path +
                                                     "': " + Header.getError().message() + " (" +
                                                     resourceLookupHint() + ")",
                                                 Header.getError());
    Out += "// ---- launchopt runtime: launchopt/" + Name + " ----\n";
    // `#pragma once` means nothing once the header is part of the main file.
    std::string Body = (*Header)->getBuffer().str();
    size_t Once = Body.find("#pragma once\n");
    if (Once != std::string::npos)
      Body.erase(Once, std::string("#pragma once\n").size());
    Out += Body;
    Out += "// ---- end of launchopt/" + Name + " ----\n";
  }
  return Out + Text.substr(Cursor);
}

} // namespace launchopt

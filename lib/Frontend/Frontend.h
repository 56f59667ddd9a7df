#ifndef LAUNCHOPT_FRONTEND_FRONTEND_H
#define LAUNCHOPT_FRONTEND_FRONTEND_H

#include "CompilerFlags.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <string>

namespace launchopt {

// One parsed CUDA source file: the AST and the source buffers it points into.
struct ParsedFile {
  std::unique_ptr<clang::ASTUnit> Unit;
  std::string MainFile;
};

// Parses File host-side with the flags Compilations gives for it; with
// Contents, those are parsed in place of what is on disk (a previous pass's
// output). Compiler diagnostics are printed to stderr as clang prints them.
// Returns nullptr when the file does not parse (an error was printed).
std::unique_ptr<ParsedFile> parseCudaFile(const clang::tooling::CompilationDatabase &Compilations,
                                          const std::string &File, const ParseEnvironment &Env,
                                          const std::string *Contents = nullptr);

} // namespace launchopt

#endif

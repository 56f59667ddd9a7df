#include "DeviceLaunchDiagFilter.h"

#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

namespace launchopt {

// True when the text at Loc reads `name`, optional `<template args>`, then `<<<`.
static bool isAtKernelLaunch(const clang::Diagnostic &Info) {
  if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
    return false;
  const clang::SourceManager &SM = Info.getSourceManager();
  clang::SourceLocation Loc = SM.getSpellingLoc(Info.getLocation());
  bool Invalid = false;
  const char *Text = SM.getCharacterData(Loc, &Invalid);
  if (Invalid || !Text)
    return false;
  llvm::StringRef Rest(Text, 4096);
  Rest = Rest.take_until([](char C) { return C == '\0'; });
  size_t I = 0;
  auto IsIdent = [](char C) { return std::isalnum((unsigned char)C) || C == '_' || C == ':'; };
  while (I < Rest.size() && IsIdent(Rest[I]))
    ++I;
  while (I < Rest.size() && std::isspace((unsigned char)Rest[I]))
    ++I;
  if (Rest.substr(I).starts_with("<<<"))
    return true;
  if (I < Rest.size() && Rest[I] == '<') {
    int Depth = 0;
    for (; I < Rest.size(); ++I) {
      if (Rest.substr(I).starts_with("<<<") && Depth == 1)
        break;
      if (Rest[I] == '<')
        ++Depth;
      else if (Rest[I] == '>' && --Depth == 0) {
        ++I;
        break;
      }
    }
    while (I < Rest.size() && std::isspace((unsigned char)Rest[I]))
      ++I;
    return Rest.substr(I).starts_with("<<<");
  }
  return false;
}

void DeviceLaunchDiagFilter::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                              const clang::Diagnostic &Info) {
  if (Level == clang::DiagnosticsEngine::Note && DroppingNotes)
    return;
  DroppingNotes = false;
  if (Info.getID() == clang::diag::err_ovl_no_viable_function_in_call && isAtKernelLaunch(Info)) {
    DroppingNotes = true;
    return;
  }
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level >= clang::DiagnosticsEngine::Error)
    ++ForwardedErrors;
  Next.HandleDiagnostic(Level, Info);
}

} // namespace launchopt

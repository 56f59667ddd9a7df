#include "DeviceLaunchDiagFilter.h"

#include "DeviceWaits.h"

#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <cctype>

namespace launchopt {

// The text at the diagnostic's location, from there to its end; empty when
// there is none.
static llvm::StringRef textAt(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  bool Invalid = false;
  const char *Text = SM.getCharacterData(SM.getSpellingLoc(Loc), &Invalid);
  if (Invalid || !Text)
    return {};
  return llvm::StringRef(Text);
}

static llvm::StringRef textAt(const clang::Diagnostic &Info) {
  if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
    return {};
  return textAt(Info.getSourceManager(), Info.getLocation());
}

// True when Text reads `name`, optional `<template args>`, then `<<<`.
static bool readsKernelLaunch(llvm::StringRef Text) {
  llvm::StringRef Rest = Text.take_front(4096);
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

// True at a launch's kernel name, written before its `<<<` or given to a
// macro whose body writes the parameter before one (`LAUNCH(k<float>, ...)`
// with `#define LAUNCH(kernel, ...) kernel<<<...`).
static bool isAtKernelLaunch(const clang::Diagnostic &Info) {
  if (readsKernelLaunch(textAt(Info)))
    return true;
  if (!Info.hasSourceManager() || !Info.getLocation().isMacroID())
    return false;
  const clang::SourceManager &SM = Info.getSourceManager();
  if (!SM.isMacroArgExpansion(Info.getLocation()))
    return false;
  clang::SourceLocation Parameter = SM.getImmediateExpansionRange(Info.getLocation()).getBegin();
  return readsKernelLaunch(textAt(SM, Parameter));
}

// True when the rejected call is to cudaDeviceSynchronize: no viable
// function for it means device code calls it (the host has one), as CUDA 11
// programs did before CUDA 12 removed the device-side wait.
static bool isDeviceWait(const clang::Diagnostic &Info) {
  llvm::StringRef Text = textAt(Info);
  Text.consume_front("::");
  if (!Text.consume_front("cudaDeviceSynchronize"))
    return false;
  return Text.empty() || !(std::isalnum((unsigned char)Text.front()) || Text.front() == '_');
}

void DeviceLaunchDiagFilter::explainDeviceWaits(llvm::raw_ostream &OS) const {
  for (const std::string &Where : DeviceWaits)
    OS << Where << ": note: " << deviceWaitAdvice() << "\n";
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
  // The host-side parse rejects the call in a kernel or a __device__
  // function; in a __host__ __device__ one it accepts it (DeviceWaits.h).
  if (Info.getID() == clang::diag::err_ovl_no_viable_function_in_call && isDeviceWait(Info)) {
    std::string Where = positionText(Info.getSourceManager(), Info.getLocation());
    if (!Where.empty())
      DeviceWaits.push_back(Where);
  }
  Next.HandleDiagnostic(Level, Info);
}

} // namespace launchopt

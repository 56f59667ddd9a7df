#ifndef LAUNCHOPT_DRIVER_LAUNCHLISTING_H
#define LAUNCHOPT_DRIVER_LAUNCHLISTING_H

#include "Analysis/LaunchSites.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

// `launchopt --list-launches`: every launch site with its configuration,
// context and what the child uses.
void printLaunchesText(llvm::raw_ostream &OS, clang::ASTContext &Ctx, const LaunchAnalysis &A);
void printLaunchesJson(llvm::raw_ostream &OS, clang::ASTContext &Ctx, const LaunchAnalysis &A);

} // namespace launchopt

#endif

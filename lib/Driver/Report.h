#ifndef LAUNCHOPT_DRIVER_REPORT_H
#define LAUNCHOPT_DRIVER_REPORT_H

#include "Transforms/PassResult.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

// Clang-style remarks, one per launch site and pass:
//   file:line:col: remark: thresholded launch of 'child' (...)
void printRemarks(llvm::raw_ostream &OS, const std::vector<LaunchRemark> &Remarks);

// The per-launch-site report (--report), as text or JSON.
void printReportText(llvm::raw_ostream &OS, const std::vector<LaunchRemark> &Remarks);
void printReportJson(llvm::raw_ostream &OS, const std::vector<LaunchRemark> &Remarks);

} // namespace launchopt

#endif

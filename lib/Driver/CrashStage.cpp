#include "CrashStage.h"

#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <cstdlib>
#include <exception>
#include <new>

namespace launchopt {

namespace {
// The innermost stage of this thread, for the terminate handler (LLVM's list
// of entries is not public).
thread_local const CrashStage *Innermost = nullptr;

[[noreturn]] void reportUncaughtException() {
  std::string What = "an unknown exception";
  if (std::exception_ptr E = std::current_exception()) {
    try {
      std::rethrow_exception(E);
    } catch (const std::exception &Thrown) {
      What = Thrown.what();
    } catch (...) {
    }
  }
  llvm::errs() << (Innermost ? Innermost->message() : std::string("launchopt: internal error"))
               << ": " << What << "\n";
  llvm::errs().flush();
  std::_Exit(ExitInternalError);
}
} // namespace

CrashStage::CrashStage(std::string Stage, std::string Input)
    : Stage(std::move(Stage)), Input(std::move(Input)), Outer(Innermost) {
  Innermost = this;
}

CrashStage::~CrashStage() { Innermost = Outer; }

std::string CrashStage::message() const {
  return "launchopt: internal error while " + Stage + " '" + Input + "'";
}

void CrashStage::print(llvm::raw_ostream &OS) const { OS << message() << "\n"; }

void installCrashHandlers(const char *Argv0) {
  llvm::setBugReportMsg("launchopt crashed: please report it with the input and the stage "
                        "named below.\n");
  llvm::sys::PrintStackTraceOnErrorSignal(Argv0);
  llvm::EnablePrettyStackTrace();
  std::set_terminate(reportUncaughtException);
}

void forceCrashForTesting(llvm::StringRef How) {
  if (How == "exception")
    throw std::bad_alloc();
  if (How == "signal") {
    // LLVM's handler prints and returns for the fault to recur; a raised
    // signal does not recur, so end as the default action would.
    std::raise(SIGSEGV);
    std::abort();
  }
}

} // namespace launchopt

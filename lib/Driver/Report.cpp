#include "Report.h"

#include "Transforms/LaunchPass.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace launchopt {

namespace {

std::string location(const LaunchRemark &R) {
  return R.Position.File + ":" + std::to_string(R.Position.Line) + ":" +
         std::to_string(R.Position.Column);
}

// Said after the location of a launch that only exists in generated code.
std::string generatedNote(const LaunchRemark &R) {
  return R.InGeneratedCode ? " (in code an earlier pass generated there)" : "";
}

std::string parameterList(const LaunchRemark &R) {
  std::string S;
  for (const auto &[Key, Value] : R.Parameters) {
    if (!S.empty())
      S += ", ";
    S += Key + ": " + Value;
  }
  return S;
}

// The registry's word for a site a pass changed ("thresholded"); the pass
// name itself for remarks of the pipeline ("transform").
std::string pastTense(const std::string &Pass) {
  if (Pass == "auto")
    return "changed by --auto";
  if (const RegisteredPass *P = findPass(Pass))
    return P->Verb;
  return llvm::StringRef(Pass).ends_with("e") ? Pass + "d" : Pass + "ed";
}

} // namespace

void printRemarks(llvm::raw_ostream &OS, const std::vector<LaunchRemark> &Remarks) {
  for (const LaunchRemark &R : Remarks) {
    OS << location(R) << ": remark: ";
    if ((R.Applied || R.Note) && !R.Subject.empty())
      OS << R.Pass << ": " << R.Message << generatedNote(R) << "\n";
    else if (R.Applied)
      OS << R.Pass << " applied to launch of '" << R.Child << "' (" << parameterList(R) << ")"
         << generatedNote(R) << "\n";
    else
      OS << "not " << pastTense(R.Pass) << ": " << R.Message << generatedNote(R) << "\n";
    for (const std::string &W : R.Warnings)
      OS << location(R) << ": warning: " << W << "\n";
  }
}

void printReportText(llvm::raw_ostream &OS, const std::vector<LaunchRemark> &Remarks) {
  for (const LaunchRemark &R : Remarks) {
    if (R.Subject.empty())
      OS << "launch #" << R.LaunchId << " at " << location(R) << generatedNote(R) << " ('"
         << R.Parent << "' -> '" << R.Child << "'): ";
    else
      OS << "'" << R.Subject << "' at " << location(R) << " ('" << R.Parent << "'): ";
    OS << R.Pass << ": " << (R.Note ? "note" : R.Applied ? "applied" : "not applied");
    if (!R.Applied || !R.Subject.empty())
      OS << ": " << R.Message;
    OS << "\n";
    for (const auto &[Key, Value] : R.Parameters)
      OS << "  " << Key << ": " << Value << "\n";
    for (const std::string &W : R.Warnings)
      OS << "  warning: " << W << "\n";
  }
}

void printReportJson(llvm::raw_ostream &OS, const std::vector<LaunchRemark> &Remarks) {
  llvm::json::Array Entries;
  for (const LaunchRemark &R : Remarks) {
    llvm::json::Object Params;
    for (const auto &[Key, Value] : R.Parameters)
      Params[Key] = Value;
    llvm::json::Array Warnings;
    for (const std::string &W : R.Warnings)
      Warnings.push_back(W);
    llvm::json::Object Entry{{"launch", R.LaunchId},
                             {"file", R.Position.File},
                             {"line", R.Position.Line},
                             {"column", R.Position.Column},
                             {"parent", R.Parent},
                             {"child", R.Child},
                             {"pass", R.Pass},
                             {"applied", R.Applied},
                             {"reason", R.Message},
                             {"parameters", std::move(Params)},
                             {"warnings", std::move(Warnings)},
                             {"in_generated_code", R.InGeneratedCode}};
    if (!R.Subject.empty()) {
      Entry["call"] = R.Subject;
      Entry["message"] = R.Message;
      Entry["note"] = R.Note;
    }
    Entries.push_back(std::move(Entry));
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{{"sites", std::move(Entries)}}))
     << "\n";
}

} // namespace launchopt

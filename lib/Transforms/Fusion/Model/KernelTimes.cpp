#include "KernelTimes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace launchopt {

namespace {

llvm::SmallVector<std::string> csvFields(llvm::StringRef Line) {
  llvm::SmallVector<std::string> Fields(1);
  bool Quoted = false;
  for (char C : Line) {
    if (C == '"')
      Quoted = !Quoted;
    else if (C == ',' && !Quoted)
      Fields.emplace_back();
    else
      Fields.back() += C;
  }
  for (std::string &F : Fields)
    F = llvm::StringRef(F).trim().str();
  return Fields;
}

// "void ns::flux_x<float>(const float *, float *)" -> "flux_x".
std::string kernelName(llvm::StringRef Signature) {
  llvm::StringRef Name = Signature.take_until([](char C) { return C == '(' || C == '<'; }).rtrim();
  Name = Name.substr(Name.find_last_of(" :") + 1);
  return Name.str();
}

llvm::Error malformed(unsigned Line, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel times, line " + llvm::Twine(Line) + ": " + Why);
}

} // namespace

llvm::Expected<std::map<std::string, double>> parseKernelTimes(llvm::StringRef Text) {
  std::map<std::string, double> Times;
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  int AvgColumn = -1, NameColumn = -1;
  unsigned CsvLines = 0;
  for (unsigned I = 0; I < Lines.size(); ++I) {
    llvm::StringRef Line = Lines[I].trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    double Value = 0;
    if (Line.consume_front("launch ")) {
      // `launch 3 flux_x: 0.1234 ms`
      auto [Name, Ms] = Line.drop_until([](char C) { return C == ' '; }).trim().rsplit(':');
      Ms = Ms.trim();
      if (!Ms.consume_back("ms") || Ms.trim().getAsDouble(Value))
        return malformed(I + 1, "expected 'launch N kernel: T ms'");
      Times[Name.trim().str()] = Value * 1e-3;
      continue;
    }
    llvm::SmallVector<std::string> Fields = csvFields(Line);
    if (AvgColumn < 0)
      for (unsigned F = 0; F < Fields.size(); ++F) {
        if (Fields[F] == "Avg (ns)")
          AvgColumn = F;
        if (Fields[F] == "Name")
          NameColumn = F;
      }
    if (AvgColumn >= 0 && NameColumn >= 0) {
      if (Fields.size() <= unsigned(std::max(AvgColumn, NameColumn)) ||
          llvm::StringRef(Fields[AvgColumn]).getAsDouble(Value))
        continue; // the header, or a summary line
      Times[kernelName(Fields[NameColumn])] = Value * 1e-9;
      continue;
    }
    ++CsvLines;
    if (Fields.size() != 2)
      return malformed(I + 1, "expected 'kernel,seconds'");
    if (llvm::StringRef(Fields[1]).getAsDouble(Value)) {
      if (CsvLines == 1)
        continue; // a header line
      return malformed(I + 1, "'" + Fields[1] + "' is not a time in seconds");
    }
    if (Value <= 0)
      return malformed(I + 1, "the time of '" + Fields[0] + "' is not positive");
    Times[Fields[0]] = Value;
  }
  return Times;
}

unsigned applyKernelTimes(FusionProblem &P, const std::map<std::string, double> &Times) {
  unsigned Found = 0;
  for (OriginalKernel &K : P.Kernels) {
    auto It = Times.find(K.Name);
    if (It == Times.end())
      It = Times.find(K.Name.substr(0, K.Name.find('#')));
    if (It == Times.end())
      continue;
    K.MeasuredSeconds = It->second;
    ++Found;
  }
  return Found;
}

} // namespace launchopt

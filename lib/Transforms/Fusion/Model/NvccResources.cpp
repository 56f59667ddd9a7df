#include "NvccResources.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <optional>

namespace launchopt {

namespace {

// `_Z6flux_xPKfS0_Pfii` -> `flux_x`; `_ZN2ns5scaleEPff` -> `scale`.
std::string kernelName(llvm::StringRef Mangled) {
  Mangled = Mangled.trim().trim("':");
  std::string Demangled = llvm::demangle(Mangled.str());
  llvm::StringRef Name(Demangled);
  // Cut the parameter list at the first '(' outside template arguments.
  int Depth = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    if (Name[I] == '<')
      ++Depth;
    else if (Name[I] == '>')
      --Depth;
    else if (Name[I] == '(' && Depth == 0) {
      Name = Name.take_front(I);
      break;
    }
  }
  if (size_t Template = Name.find('<'); Template != llvm::StringRef::npos)
    Name = Name.take_front(Template);
  if (size_t Scope = Name.rfind("::"); Scope != llvm::StringRef::npos)
    Name = Name.drop_front(Scope + 2);
  // `void name` from a demangled template carries its return type.
  if (size_t Space = Name.rfind(' '); Space != llvm::StringRef::npos)
    Name = Name.drop_front(Space + 1);
  return Name.str();
}

// The number before `Unit` in `Line` ("20 registers" -> 20).
std::optional<unsigned> numberBefore(llvm::StringRef Line, llvm::StringRef Unit) {
  size_t At = Line.find(Unit);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Before = Line.take_front(At).rtrim();
  size_t Start = Before.find_last_not_of("0123456789");
  llvm::StringRef Digits = Start == llvm::StringRef::npos ? Before : Before.drop_front(Start + 1);
  unsigned Value = 0;
  if (Digits.getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

// The number after `Key` in `Line` ("REG:20" -> 20).
std::optional<unsigned> numberAfter(llvm::StringRef Line, llvm::StringRef Key) {
  size_t At = Line.find(Key);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef After = Line.drop_front(At + Key.size());
  After = After.take_while([](char C) { return C >= '0' && C <= '9'; });
  unsigned Value = 0;
  if (After.getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

void merge(KernelResources &Into, const KernelResources &From) {
  Into.Registers = std::max(Into.Registers, From.Registers);
  Into.SharedMemoryBytes = std::max(Into.SharedMemoryBytes, From.SharedMemoryBytes);
  Into.SpillBytes = std::max(Into.SpillBytes, From.SpillBytes);
}

} // namespace

std::map<std::string, KernelResources> parseNvccResourceUsage(llvm::StringRef Text) {
  std::map<std::string, KernelResources> Result;
  std::string Current;
  KernelResources Figures;
  bool Open = false;
  auto Close = [&]() {
    if (Open && !Current.empty())
      merge(Result[Current], Figures);
    Open = false;
    Figures = KernelResources();
  };
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (size_t At = Line.find("Compiling entry function '"); At != llvm::StringRef::npos) {
      Close();
      llvm::StringRef Rest = Line.drop_front(At + strlen("Compiling entry function '"));
      Current = kernelName(Rest.take_until([](char C) { return C == '\''; }));
      Open = true;
      continue;
    }
    if (Line.starts_with("Function ") && Line.ends_with(":")) { // tabular form
      Close();
      Current = kernelName(Line.drop_front(strlen("Function ")).drop_back());
      Open = true;
      continue;
    }
    if (!Open)
      continue;
    if (Line.contains("Used ") && Line.contains(" registers")) {
      Figures.Registers = numberBefore(Line, " registers").value_or(0);
      Figures.SharedMemoryBytes = numberBefore(Line, " bytes smem").value_or(0);
    } else if (Line.contains("REG:")) {
      Figures.Registers = numberAfter(Line, "REG:").value_or(0);
      Figures.SharedMemoryBytes = numberAfter(Line, "SHARED:").value_or(0);
    } else if (Line.contains("spill stores")) {
      Figures.SpillBytes = numberBefore(Line, " bytes spill stores").value_or(0);
    }
  }
  Close();
  return Result;
}

unsigned applyKernelResources(FusionProblem &P,
                              const std::map<std::string, KernelResources> &Resources) {
  unsigned Found = 0;
  for (OriginalKernel &K : P.Kernels) {
    auto It = Resources.find(llvm::StringRef(K.Name).split('#').first.str());
    if (It == Resources.end() || !It->second.Registers)
      continue;
    K.Registers = It->second.Registers;
    K.SharedMemoryBytes = It->second.SharedMemoryBytes;
    ++Found;
  }
  return Found;
}

llvm::Expected<std::string> runNvccResourceUsage(const std::string &Nvcc, const std::string &File,
                                                 llvm::ArrayRef<std::string> Flags) {
  if (!llvm::sys::fs::can_execute(Nvcc))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvcc not found at '" + Nvcc + "'");
  llvm::SmallString<128> Log;
  if (std::error_code E = llvm::sys::fs::createTemporaryFile("launchopt-nvcc", "txt", Log))
    return llvm::createStringError(E, "cannot create a temporary file");
  std::vector<std::string> Storage{Nvcc, "-arch=sm_90", "--resource-usage",
                                   "-c", "-o",          "/dev/null"};
  for (llvm::StringRef Flag : Flags)
    if (Flag.starts_with("-I") || Flag.starts_with("-D") || Flag.starts_with("-U") ||
        Flag.starts_with("-std="))
      Storage.push_back(Flag.str());
  Storage.push_back(File);
  std::vector<llvm::StringRef> Args(Storage.begin(), Storage.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Log.str(), Log.str()};
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(Nvcc, Args, std::nullopt, Redirects, 0, 0, &Error);
  auto Buffer = llvm::MemoryBuffer::getFile(Log);
  std::string Text = Buffer ? (*Buffer)->getBuffer().str() : "";
  llvm::sys::fs::remove(Log);
  if (Status != 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvcc --resource-usage failed" +
                                       (Error.empty() ? "" : ": " + Error) + "\n" + Text);
  return Text;
}

} // namespace launchopt

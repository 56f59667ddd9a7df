#include "DeviceOnlyLaunches.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>

namespace launchopt {

namespace {

// The lines (file, line) where the parse has a kernel launch.
class ParsedLaunchLines : public clang::RecursiveASTVisitor<ParsedLaunchLines> {
public:
  explicit ParsedLaunchLines(const clang::SourceManager &SM) : SM(SM) {}

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *Call) {
    clang::SourceLocation Loc = SM.getSpellingLoc(Call->getBeginLoc());
    if (Loc.isValid())
      Lines.insert({SM.getFileID(Loc), SM.getSpellingLineNumber(Loc)});
    if (const clang::CallExpr *Config = Call->getConfig())
      if (clang::SourceLocation C = SM.getSpellingLoc(Config->getBeginLoc()); C.isValid())
        Lines.insert({SM.getFileID(C), SM.getSpellingLineNumber(C)});
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return true; }

  std::set<std::pair<clang::FileID, unsigned>> Lines;

private:
  const clang::SourceManager &SM;
};

// One open conditional (`#if` to `#endif`): whether any of its directives
// so far names __CUDA_ARCH__, and the first that does.
struct Conditional {
  bool NamesArch = false;
  std::string Guard;
  unsigned GuardLine = 0;
};

// The directive of a line without its leading `#` and blanks ("if", "else"),
// or "" when the line is no directive; Rest is what follows the keyword.
llvm::StringRef directiveOf(llvm::StringRef Line, llvm::StringRef &Rest) {
  llvm::StringRef T = Line.ltrim();
  if (!T.consume_front("#"))
    return "";
  T = T.ltrim();
  llvm::StringRef Keyword = T.take_while([](char C) { return llvm::isAlpha(C); });
  Rest = T.drop_front(Keyword.size());
  return Keyword;
}

// The identifier written right before Column (`child` in `child<<<`, also
// `ns::child<float>`), or "".
std::string kernelBefore(llvm::StringRef Line, size_t Column) {
  llvm::StringRef Before = Line.take_front(Column).rtrim();
  if (Before.ends_with(">")) {
    int Depth = 0;
    size_t I = Before.size();
    while (I > 0) {
      char C = Before[--I];
      Depth += C == '>' ? 1 : C == '<' ? -1 : 0;
      if (Depth == 0)
        break;
    }
    Before = Before.take_front(I).rtrim();
  }
  size_t Start = Before.size();
  while (Start > 0 &&
         (llvm::isAlnum(Before[Start - 1]) || Before[Start - 1] == '_' || Before[Start - 1] == ':'))
    --Start;
  return Before.drop_front(Start).ltrim(':').str();
}

void scanFile(const clang::SourceManager &SM, clang::FileID File,
              const std::set<std::pair<clang::FileID, unsigned>> &Parsed,
              std::vector<DeviceOnlyLaunch> &Found) {
  std::optional<llvm::StringRef> Text = SM.getBufferDataOrNone(File);
  if (!Text)
    return;
  llvm::StringRef Name = SM.getFileEntryRefForID(File) ? SM.getFileEntryRefForID(File)->getName()
                                                       : llvm::StringRef("<input>");
  std::vector<Conditional> Open;
  std::map<std::string, unsigned> SeenText;
  bool InDefine = false, InComment = false;
  llvm::SmallVector<llvm::StringRef> Lines;
  Text->split(Lines, '\n');
  for (unsigned Index = 0; Index < Lines.size(); ++Index) {
    llvm::StringRef Line = Lines[Index].rtrim("\r");
    unsigned LineNumber = Index + 1;
    bool Continued = Line.ends_with("\\");
    if (InDefine) {
      InDefine = Continued;
      continue;
    }
    // Block comments are skipped whole; a line comment ends the line.
    std::string Code;
    for (size_t I = 0; I < Line.size(); ++I) {
      if (InComment) {
        if (Line.substr(I).starts_with("*/")) {
          InComment = false;
          ++I;
        }
        continue;
      }
      if (Line.substr(I).starts_with("/*")) {
        InComment = true;
        ++I;
        continue;
      }
      if (Line.substr(I).starts_with("//"))
        break;
      Code += Line[I];
    }
    llvm::StringRef Rest;
    llvm::StringRef Directive = directiveOf(Code, Rest);
    if (Directive == "define") {
      InDefine = Continued;
      continue;
    }
    bool NamesArch = Rest.contains("__CUDA_ARCH__");
    if (Directive == "if" || Directive == "ifdef" || Directive == "ifndef") {
      Open.push_back({});
    }
    if (!Open.empty() && (Directive.starts_with("if") || Directive.starts_with("elif")) &&
        NamesArch && !Open.back().NamesArch)
      Open.back() = {true, llvm::StringRef(Code).trim().str(), LineNumber};
    if (Directive == "endif" && !Open.empty())
      Open.pop_back();
    if (!Directive.empty())
      continue;
    size_t Column = llvm::StringRef(Code).find("<<<");
    if (Column == llvm::StringRef::npos)
      continue;
    const Conditional *Guard = nullptr;
    for (const Conditional &C : Open)
      if (C.NamesArch)
        Guard = &C;
    std::string Trimmed = llvm::StringRef(Code).trim().str();
    unsigned Ordinal = SeenText[Trimmed]++;
    if (!Guard || Parsed.count({File, LineNumber}))
      continue;
    std::string Kernel = kernelBefore(Code, Column);
    // The position of the launch's start, as clang gives a launch's.
    size_t Start = Kernel.empty() ? Column : Code.rfind(Kernel, Column);
    if (Start == llvm::StringRef::npos)
      Start = Column;
    else if (size_t Qualified = llvm::StringRef(Code).find_last_not_of(
                 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:", Start);
             Qualified != llvm::StringRef::npos && Qualified + 1 < Start)
      Start = Qualified + 1;
    Found.push_back(
        {Name.str() + ":" + std::to_string(LineNumber) + ":" + std::to_string(Start + 1), Kernel,
         Guard->Guard, Guard->GuardLine,
         Name.str() + "|" + Trimmed + "|" + std::to_string(Ordinal)});
  }
}

} // namespace

std::vector<DeviceOnlyLaunch> deviceOnlyLaunches(clang::ASTContext &Context) {
  const clang::SourceManager &SM = Context.getSourceManager();
  ParsedLaunchLines Parsed(SM);
  Parsed.TraverseDecl(Context.getTranslationUnitDecl());
  std::vector<DeviceOnlyLaunch> Found;
  std::set<clang::FileID> Scanned;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    clang::FileID File = SM.translateFile(It->first);
    if (File.isInvalid() || !Scanned.insert(File).second)
      continue;
    clang::SourceLocation Start = SM.getLocForStartOfFile(File);
    if (SM.isInSystemHeader(Start) || SM.isInExternCSystemHeader(Start))
      continue;
    scanFile(SM, File, Parsed.Lines, Found);
  }
  if (Scanned.insert(SM.getMainFileID()).second)
    scanFile(SM, SM.getMainFileID(), Parsed.Lines, Found);
  return Found;
}

std::string deviceOnlyLaunchAdvice(const DeviceOnlyLaunch &Launch) {
  std::string Of = Launch.Kernel.empty() ? "a launch" : "the launch of '" + Launch.Kernel + "'";
  return Of + " is left as written: it is in code that only the device side compiles ('" +
         Launch.Guard + "' at line " + std::to_string(Launch.GuardLine) +
         "), and launchopt reads the host side of the file, where that branch is skipped; "
         "every sm_90 device has dynamic parallelism, so removing the guard (keeping the launch) "
         "lets launchopt transform it";
}

} // namespace launchopt

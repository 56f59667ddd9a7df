#include "SourceText.h"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"

namespace launchopt {

std::optional<FileRange> writtenRange(const clang::ASTContext &Ctx, clang::SourceRange Range,
                                      clang::FileID In) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::FileID File = In.isValid() ? In : SM.getMainFileID();
  if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  clang::CharSourceRange Chars = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Chars.isInvalid())
    return std::nullopt;
  if (SM.getFileID(Chars.getBegin()) != File || SM.getFileID(Chars.getEnd()) != File)
    return std::nullopt;
  FileRange R;
  R.Begin = SM.getFileOffset(Chars.getBegin());
  R.End = SM.getFileOffset(Chars.getEnd());
  R.File = In;
  if (R.End < R.Begin)
    return std::nullopt;
  return R;
}

std::optional<FileRange> readableRange(const clang::ASTContext &Ctx, clang::SourceRange Range) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  clang::CharSourceRange Chars = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Chars.isInvalid() || SM.getFileID(Chars.getBegin()) != SM.getFileID(Chars.getEnd()))
    return std::nullopt;
  FileRange R{SM.getFileOffset(Chars.getBegin()), SM.getFileOffset(Chars.getEnd()),
              SM.getFileID(Chars.getBegin())};
  if (R.End < R.Begin)
    return std::nullopt;
  return R;
}

std::string readableText(const clang::ASTContext &Ctx, clang::SourceRange Range) {
  std::optional<FileRange> R = readableRange(Ctx, Range);
  if (!R)
    return "";
  const clang::SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(SM.getExpansionLoc(Range.getBegin())));
  return Buffer.substr(R->Begin, R->End - R->Begin).str();
}

std::optional<FileRange> spelledRange(const clang::ASTContext &Ctx, clang::SourceRange Range,
                                      clang::FileID In) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::FileID File = In.isValid() ? In : SM.getMainFileID();
  if (Range.isInvalid())
    return std::nullopt;
  clang::CharSourceRange Chars = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Chars.isInvalid() || SM.getFileID(Chars.getBegin()) != File ||
      SM.getFileID(Chars.getEnd()) != File)
    return std::nullopt;
  FileRange R{SM.getFileOffset(Chars.getBegin()), SM.getFileOffset(Chars.getEnd()), In};
  if (R.End < R.Begin)
    return std::nullopt;
  return R;
}

std::string textOf(const clang::ASTContext &Ctx, FileRange Range) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(Range.File.isValid() ? Range.File : SM.getMainFileID());
  return Buffer.substr(Range.Begin, Range.End - Range.Begin).str();
}

PresumedPosition positionOf(const clang::ASTContext &Ctx, clang::SourceLocation Loc) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  PresumedPosition Pos;
  if (P.isValid()) {
    // Name the file as the user did: relative to the working directory.
    llvm::SmallString<256> Cwd;
    llvm::StringRef Name = P.getFilename();
    if (!llvm::sys::fs::current_path(Cwd) && Name.starts_with(Cwd.str().str() + "/"))
      Name = Name.drop_front(Cwd.size() + 1);
    Pos.File = Name.str();
    Pos.Line = P.getLine();
    Pos.Column = P.getColumn();
  }
  return Pos;
}

} // namespace launchopt

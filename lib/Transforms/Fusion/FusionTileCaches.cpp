#include "FusionTileCaches.h"

#include "Analysis/SourceText.h"
#include "Analysis/TileCache.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>

namespace launchopt {

using namespace clang;

namespace {

// A statement's range with the semicolon that ends it. A declaration
// starts with the macro `__shared__`: its whole expansion is taken.
std::optional<FileRange> statementRange(const ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Chars = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM, Ctx.getLangOpts());
  if (Chars.isInvalid() || SM.getFileID(Chars.getBegin()) != SM.getFileID(Chars.getEnd()))
    return std::nullopt;
  FileID File = SM.getFileID(Chars.getBegin());
  FileRange R{SM.getFileOffset(Chars.getBegin()), SM.getFileOffset(Chars.getEnd()), File};
  llvm::StringRef Text = SM.getBufferData(File);
  unsigned End = R.End;
  while (End < Text.size() && (Text[End] == ' ' || Text[End] == '\t'))
    ++End;
  if (End < Text.size() && Text[End] == ';')
    R.End = End + 1;
  // A statement alone on its line takes the line with it.
  unsigned Begin = R.Begin, After = R.End;
  while (Begin > 0 && (Text[Begin - 1] == ' ' || Text[Begin - 1] == '\t'))
    --Begin;
  while (After < Text.size() && (Text[After] == ' ' || Text[After] == '\t'))
    ++After;
  if ((Begin == 0 || Text[Begin - 1] == '\n') && After < Text.size() && Text[After] == '\n') {
    R.Begin = Begin;
    R.End = After + 1;
  }
  return R;
}

} // namespace

std::optional<std::vector<BodyEdit>>
withTileCachesRead(const ASTContext &Ctx, const FunctionDecl &K, std::vector<BodyEdit> Edits) {
  std::optional<TileCaches> Caches = findTileCaches(K);
  if (!Caches)
    return Edits;
  std::vector<BodyEdit> Removed;
  std::vector<const Stmt *> LeftOut(Caches->Declarations.begin(), Caches->Declarations.end());
  LeftOut.push_back(Caches->Barrier);
  for (const TileCache &C : Caches->Caches)
    LeftOut.push_back(C.Store);
  for (const Stmt *S : LeftOut) {
    std::optional<FileRange> R = statementRange(Ctx, S);
    if (!R)
      return std::nullopt;
    Removed.push_back({R->Begin, R->End, ""});
  }
  auto Inside = [&](const BodyEdit &E) {
    return std::any_of(Removed.begin(), Removed.end(),
                       [&](const BodyEdit &R) { return R.Begin <= E.Begin && E.End <= R.End; });
  };
  Edits.erase(std::remove_if(Edits.begin(), Edits.end(), Inside), Edits.end());
  std::vector<BodyEdit> Reads;
  for (const TileCache &C : Caches->Caches)
    for (const TileCacheRead &Read : C.Reads) {
      std::optional<FileRange> R = readableRange(Ctx, Read.Expr->getSourceRange());
      if (!R)
        return std::nullopt;
      bool Redirected = std::any_of(Edits.begin(), Edits.end(), [&](const BodyEdit &E) {
        return E.Begin == R->Begin && E.End == R->End;
      });
      if (!Redirected)
        Reads.push_back({R->Begin, R->End, Read.GlobalRead});
    }
  Edits.insert(Edits.end(), Removed.begin(), Removed.end());
  Edits.insert(Edits.end(), Reads.begin(), Reads.end());
  std::stable_sort(Edits.begin(), Edits.end(), [](const BodyEdit &A, const BodyEdit &B) {
    return A.Begin != B.Begin ? A.Begin < B.Begin : A.End < B.End;
  });
  return Edits;
}

} // namespace launchopt

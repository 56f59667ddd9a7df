#ifndef LAUNCHOPT_ANALYSIS_SOURCETEXT_H
#define LAUNCHOPT_ANALYSIS_SOURCETEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include <optional>
#include <string>

namespace launchopt {

// A range of the main file in byte offsets: what edits and text copies use.
// A range read from an included file (a header's function that is copied
// into the output, never edited in place) names that file.
struct FileRange {
  unsigned Begin = 0;
  unsigned End = 0; // one past the last byte
  clang::FileID File; // invalid: the main file
  bool contains(const FileRange &Other) const { return Begin <= Other.Begin && Other.End <= End; }
};

// The main-file byte range a node is written in, or nothing when any part of
// it comes from a macro body or another file (it cannot be edited safely).
// With In, the range in that file instead.
std::optional<FileRange> writtenRange(const clang::ASTContext &Ctx, clang::SourceRange Range,
                                      clang::FileID In = clang::FileID());

// Like writtenRange, but a range that is exactly one macro expansion (or
// macro argument) at its ends maps to the text the user wrote: `BLOCKS(n)`.
std::optional<FileRange> spelledRange(const clang::ASTContext &Ctx, clang::SourceRange Range,
                                      clang::FileID In = clang::FileID());

// Like writtenRange, but in whichever file the node is written in (the main
// file or one it includes), as offsets into that file: for text that is read
// and copied (a kernel's body), never edited.
std::optional<FileRange> readableRange(const clang::ASTContext &Ctx, clang::SourceRange Range);
// The text of a readable range; empty when there is none.
std::string readableText(const clang::ASTContext &Ctx, clang::SourceRange Range);

// The text of a written range.
std::string textOf(const clang::ASTContext &Ctx, FileRange Range);

// "file:line:col" of a location, with the expansion location for macros.
struct PresumedPosition {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};
PresumedPosition positionOf(const clang::ASTContext &Ctx, clang::SourceLocation Loc);

} // namespace launchopt

#endif

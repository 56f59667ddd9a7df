#!/usr/bin/env bash
# Checks that the C++ sources in lib/, tools/ and test/unit/ are formatted by clang-format 19
# with the repository's .clang-format; prints the files that are not and exits 1.
#   scripts/check-format.sh         check (the ctest test `format` runs this)
#   scripts/check-format.sh --fix   format those files in place
# Left alone on purpose: runtime/include (embedded byte-for-byte into the tool's outputs),
# test/lit (CHECK lines depend on the layout), bench/ and examples/ (their outputs are committed).
# Exit codes: 0 formatted, 1 unformatted files (or clang-format failed), 2 bad command line,
# 77 clang-format 19 or the git checkout is missing (ctest reports the test as skipped).
set -euo pipefail

fix=false
case "${1:-}" in
  "") ;;
  --fix) fix=true ;;
  *) echo "usage: $0 [--fix]" >&2; exit 2 ;;
esac

clang_format="${CLANG_FORMAT:-clang-format-19}"
if ! command -v "$clang_format" > /dev/null; then
  echo "check-format: skipped: $clang_format not found (scripts/install-deps.sh installs it)" >&2
  exit 77
fi
# Other versions lay out the same code differently.
if ! "$clang_format" --version | grep -q 'version 19\.'; then
  echo "check-format: skipped: $clang_format is not clang-format 19: $("$clang_format" --version)" >&2
  exit 77
fi

cd "$(dirname "$0")/.."
if ! files_list=$(git ls-files -- 'lib/*.cpp' 'lib/*.h' 'tools/*.cpp' 'tools/*.h' \
                                  'test/unit/*.cpp' 'test/unit/*.h' 2> /dev/null); then
  echo "check-format: skipped: $PWD is not a git checkout" >&2
  exit 77
fi
mapfile -t files <<< "$files_list"
if [ -z "$files_list" ]; then
  echo "check-format: no files to check" >&2
  exit 1
fi

if $fix; then
  "$clang_format" -i "${files[@]}"
  exit 0
fi

# One error per unformatted file; its path begins the line.
if output=$("$clang_format" --dry-run -Werror --ferror-limit=1 "${files[@]}" 2>&1); then
  exit 0
fi
unformatted=$(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' \
                <<< "$output" | sort -u)
if [ -z "$unformatted" ]; then
  echo "$output" >&2
  echo "check-format: $clang_format failed" >&2
  exit 1
fi
echo "check-format: $(wc -l <<< "$unformatted") file(s) not formatted by $clang_format:"
echo "$unformatted" | sed 's/^/  /'
echo "Run scripts/check-format.sh --fix to format them (or $clang_format --dry-run FILE to see how)."
exit 1

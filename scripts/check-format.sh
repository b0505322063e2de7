#!/usr/bin/env bash
# Fails when a C++ or proto file of the tree is not formatted as .clang-format says.
# Checks tracked files plus new files not yet added (ignored files are skipped).
# To fix: scripts/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."

clang_format=${CLANG_FORMAT:-}
if [[ -z $clang_format ]]; then
  clang_format=$(command -v clang-format-14 || command -v clang-format || true)
fi
if [[ -z $clang_format ]]; then
  echo "check-format: clang-format not found (scripts/setup.sh installs it)" >&2
  exit 2
fi

patterns=('*.h' '*.cc' '*.proto')
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${patterns[@]}" |
    while IFS= read -r f; do [[ -f $f ]] && printf '%s\n' "$f"; done)
else
  # A source tarball: no git, so look at the files on disk outside build trees.
  mapfile -t files < <(find . \( -path ./build -o -name node_modules -o -path ./.git \) -prune -o \
    -type f \( -name '*.h' -o -name '*.cc' -o -name '*.proto' \) -print | sort)
fi

if [[ ${#files[@]} -eq 0 ]]; then
  echo "check-format: no files to check"
  exit 0
fi

if [[ ${1:-} == --fix ]]; then
  "$clang_format" -i --style=file "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi

# One file at a time, so that the report is a list of files and a diff of what to change.
bad=()
for f in "${files[@]}"; do
  "$clang_format" --dry-run --Werror --style=file "$f" 2>/dev/null || bad+=("$f")
done
if [[ ${#bad[@]} -eq 0 ]]; then
  echo "check-format: ${#files[@]} files formatted correctly"
  exit 0
fi
for f in "${bad[@]}"; do
  "$clang_format" --style=file "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - || true
done | head -n 200
echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted:" >&2
printf '  %s\n' "${bad[@]}" >&2
echo "check-format: run scripts/check-format.sh --fix" >&2
exit 1

#!/bin/sh
# The superko solver's CBC back end is a module loaded on the first ILP solve: found beside the
# program (a build's bin/) or in the installed layout (RELATIVE, the library folder's gonu/ seen
# from the program's folder), and its absence is one line naming what was tried, exit 1.
#   superko_cbc_module.sh GONU MODULE RELATIVE
set -eu
gonu=$1 module=$2 rel=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # the 3x2 soldiers start, whose White strategy is an ILP solve
  "$1" solve --rules soldiers --board 3x2 --quiet --strategy-method injective --strategy-solver ilp \
    --strategy-depth 0 --no-search --strategy-seconds 30
}
# As built: the module beside the program.
run "$gonu" | grep -q "^superko value: *LOSS for black"
# As installed: bin/gonu and the module in the library folder's gonu/.
mkdir -p "$work/prefix/bin" "$work/prefix/bin/$rel"
cp "$gonu" "$work/prefix/bin/"
cp "$module" "$work/prefix/bin/$rel/"
run "$work/prefix/bin/gonu" | grep -q "^superko value: *LOSS for black"
# Without it: one line, exit 1, the other solvers unaffected.
mkdir "$work/alone"
cp "$gonu" "$work/alone/"
if run "$work/alone/gonu" >/dev/null 2>"$work/err"; then echo "ran without its module" >&2; exit 1; fi
[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "the ILP back end (CBC) could not be loaded" "$work/err" ||
  { cat "$work/err" >&2; exit 1; }
"$work/alone/gonu" solve --rules soldiers --board 3x2 --quiet --strategy-depth 0 --no-search |
  grep -q "^superko value: *LOSS for black"
echo "ok"

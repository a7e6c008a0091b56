#!/bin/bash
# Builds and runs the C++ conformance corpus (tests/programs/cxx_corpus) on the GPU
# machine, from the repository root: bash tests/data/groundtruth/cxx/go.sh
# Everything goes to ONE file, $OUT/cxx.txt (default ./out): nvcc --version and the GPU
# at the top, then per program a line "=== NAME exit=STATUS", its stdout, a line
# "--- stderr" and its stderr. A failed build is recorded as "=== NAME build-failed"
# with nvcc's output, and the run skipped. Each program runs in a scratch folder
# holding a copy of its own folder (one-file programs: an empty folder), under timeout 60.
ROOT=$(pwd)
TABLE=${CXX_TABLE:-$ROOT/tests/data/groundtruth/cxx/commands.txt}   # CXX_TABLE: a subset, for trying the script
OUTDIR=${OUT:-$ROOT/tests/data/groundtruth/cxx/out}
mkdir -p "$OUTDIR"
RESULT=$OUTDIR/cxx.txt
WORK=$(mktemp -d)
cp -r "$ROOT/tests/programs/cxx_corpus" "$WORK/corpus"
mkdir -p "$WORK/corpus/bin"
{
  echo "# nvcc --version"
  nvcc --version
  echo "# nvidia-smi"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "# host compiler"
  g++ --version | head -1
} > "$RESULT" 2>&1
build() {   # build NAME COMMAND: in the corpus copy, output in $WORK/NAME.build
  (cd "$WORK/corpus" && eval "$2") > "$WORK/$1.build" 2>&1
}
while IFS=$'\t' read -r name cmd args; do
  case "$name" in ''|'#'*) continue ;; esac
  if ! build "$name" "$cmd"; then
    { echo "=== $name build-failed"; echo "\$ $cmd"; cat "$WORK/$name.build"; } >> "$RESULT"
    continue
  fi
  run=$WORK/run/$name
  mkdir -p "$run"
  [ -d "$WORK/corpus/$name" ] && cp -r "$WORK/corpus/$name/." "$run/"
  # exec: this script (not a subshell) reports a signal, on its own stderr, not in the program's
  (cd "$run" && eval "exec timeout 60 \"$WORK/corpus/bin/$name\" $args") > "$WORK/$name.out" 2> "$WORK/$name.err"
  status=$?
  {
    echo "=== $name exit=$status"
    cat "$WORK/$name.out"; [ -n "$(tail -c1 "$WORK/$name.out")" ] && echo
    echo "--- stderr"
    cat "$WORK/$name.err"; [ -n "$(tail -c1 "$WORK/$name.err")" ] && echo
  } >> "$RESULT"
done < "$TABLE"
echo "=== end" >> "$RESULT"
rm -rf "$WORK"
echo "wrote $RESULT"

#!/usr/bin/env bash
# npm test: the strict typecheck, the formatter's check (prettier, 120 columns: .prettierrc.json) and
# the vitest suite side by side, failing if any fails.
# tsc is single-threaded and the suite leaves part of the second core idle, so the typecheck's
# ~20 s no longer come before the suite's first test. tsc's output (errors only) is printed after
# the suite's, never interleaved with it. Arguments go to vitest (.ci/run adds its reporters).
set -u
cd "$(dirname "$0")/.."
typecheck_log=$(mktemp)
trap 'rm -f "$typecheck_log"' EXIT
npx tsc --noEmit -p tsconfig.json > "$typecheck_log" 2>&1 &
typecheck=$!
format_status=0
npx prettier --check --log-level warn . || format_status=$?
vitest_status=0
npx vitest run "$@" || vitest_status=$?
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
if [ "$typecheck_status" -ne 0 ]; then
  cat "$typecheck_log"
  echo "npm test: the typecheck (tsc --noEmit -p tsconfig.json) failed; fix the errors above" >&2
fi
if [ "$format_status" -ne 0 ]; then
  echo "npm test: the files above are not formatted; run: npx prettier --write ." >&2
fi
[ "$vitest_status" -eq 0 ] && [ "$typecheck_status" -eq 0 ] && [ "$format_status" -eq 0 ]

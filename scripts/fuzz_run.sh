#!/usr/bin/env bash
# Runs every libFuzzer target of a CAPSTAN_FUZZ build for a bounded time and prints, per target,
# the executions, the corpus size and the findings (crash, leak, timeout, out-of-memory
# reproducers saved by libFuzzer). Exits non-zero when any target found something.
#
#   scripts/fuzz_run.sh BUILD_DIR [SECONDS] [TARGET_REGEX]
#
# Each target starts from its committed seed corpus (read only) plus what earlier runs found,
# kept in BUILD_DIR/fuzz-corpus/NAME (new inputs are written there, never into the source tree).
# Reproducers land in BUILD_DIR/fuzz-findings/NAME/; replay one with `BUILD_DIR/bin/fuzz/NAME FILE`.
set -uo pipefail

build="${1:?usage: fuzz_run.sh BUILD_DIR [SECONDS] [TARGET_REGEX]}"
seconds="${2:-60}"
only="${3:-}"
list="$build/fuzzers.txt"
[ -f "$list" ] || { echo "fuzz: $list missing (configure with -DCAPSTAN_FUZZ=ON)" >&2; exit 2; }

symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

failed=0
rows=()
while read -r name seeds max_len; do
  [ -n "$name" ] || continue
  if [ -n "$only" ] && ! [[ "$name" =~ $only ]]; then continue; fi
  bin="$build/bin/fuzz/$name"
  work="$build/fuzz-corpus/$name"
  findings="$build/fuzz-findings/$name"
  log="$build/fuzz-logs/$name.log"
  mkdir -p "$work" "$findings" "$(dirname "$log")"
  before=$(find "$findings" -type f | wc -l)
  echo "fuzz: $name for ${seconds}s (max_len $max_len)"
  # -timeout: one input running 10 s is a finding (a hang on hostile input);
  # -rss_limit_mb / malloc limit: an input that makes us allocate 2 GB is one too.
  "$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | sed 's/corp: //')
  after=$(find "$findings" -type f | wc -l)
  new=$((after - before))
  if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
    failed=1
    echo "fuzz: $name FAILED (exit $rc); reproducers in $findings, log $log:"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|.*terminate called)' "$log" | head -5
    # A crash ends libFuzzer's run before its final stats; count what it printed last.
    [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  rows+=("$(printf '%-22s %12s %14s %9s' "$name" "${execs:-?}" "${corpus:-?}" "$new")")
done <"$list"

echo
printf '%-22s %12s %14s %9s\n' target executions corpus findings
for r in "${rows[@]}"; do echo "$r"; done
exit "$failed"

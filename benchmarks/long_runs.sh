#!/usr/bin/env bash
# The long runs CI leaves out, run by hand: both engines on the whole bundled corpus (minimality on its minimal
# puzzles, the rater on its levelled ones), both
# engines on the external corpus (when ../shared/corpus-external is present), and the tests marked `long`
# (the engine against every external puzzle's status, CP-SAT against CNF on the small external puzzles,
# the generator's big puzzles). About 75 minutes on two cores (2026-12-02: 73). Writes its result, with the
# date, the commit and each command, to docs/long-runs.md (override with OUT=...); exits non-zero when
# anything fails. Each certification appends a record per puzzle to $RESULTS/<step>.jsonl as it finishes, so
# a run that is stopped (Ctrl-C, a reboot) picks up where it was when started again; delete $RESULTS to start
# over.
#
#   bash benchmarks/long_runs.sh            # everything
#   JOBS=2 BUDGET=1800s bash benchmarks/long_runs.sh
set -uo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:-docs/long-runs.md}
JOBS=${JOBS:-$(nproc)}
BUDGET=${BUDGET:-1800s}
EXTERNAL_BUDGET=${EXTERNAL_BUDGET:-120s}
FILLOMINO=${FILLOMINO:-python -m fillomino}
RESULTS=${RESULTS:-benchmarks/out/long-runs}
mkdir -p "$RESULTS"
status=0
report=$(mktemp)
trap 'rm -f "$report"' EXIT

# Whether the code run differs from the commit named, asked before $OUT is written (this script's own page
# is not a change to the code, nor are its records).
dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -v " $OUT\$" | head -n 1)
{
    echo "# Long runs: last result"
    echo
    echo "Written by \`bash benchmarks/long_runs.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit"
    echo "\`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`${dirty:+ (with uncommitted changes)},"
    echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start. CI runs a faster subset"
    echo "(\`.ci/run\`); this is the whole of it."
} > "$OUT"

certify() {  # certify STEP TITLE FILES ARGS...: run one certification, append its command, time and table to $OUT
    local results=$RESULTS/$1.jsonl
    local title=$2
    local files=$3  # a glob, expanded here, so the log and the page show the pattern rather than 300 names
    shift 3
    local start=$SECONDS
    echo "=== $title: $FILLOMINO certify $files $*" >&2
    # shellcheck disable=SC2086
    $FILLOMINO certify $files "$@" --jobs "$JOBS" --results "$results" --resume > "$report"
    local rc=$?
    [ "$rc" -eq 0 ] || status=1
    {
        echo
        echo "## $title"
        echo
        echo "\`fillomino certify $files $* --jobs $JOBS --results $results --resume\`: exit $rc, $((SECONDS - start)) s wall"
        echo "in this invocation (puzzles already in \`$results\` from an earlier, stopped one are not run again)."
        echo
        echo '```'
        cat "$report"
        echo '```'
    } >> "$OUT"
    tail -n 3 "$report" >&2
}

# The minimal puzzles are named <RxC>-s<seed>.txt; the levelled ones (<level>-<RxC>-s<seed>.txt) keep clues a
# person needs, so --minimal is asked of the first kind only and the rater of the second.
certify corpus "Bundled corpus, both engines, every clue needed" 'corpus/*/[0-9]*.txt' --both --minimal --budget "$BUDGET"
certify levelled "Bundled levelled puzzles, both engines and the rater" 'corpus/*/[a-z]*.txt' --both --rate --budget "$BUDGET"
if [ -d ../shared/corpus-external ]; then
    certify external "External corpus, both engines, judged by status headers" ../shared/corpus-external \
        --both --expect-status --budget "$EXTERNAL_BUDGET"
fi
start=$SECONDS
echo "=== the tests marked long: python -m pytest -m long" >&2
python -m pytest -m long -q -n "$JOBS" -p no:cacheprovider > "$report" 2>&1
rc=$?
[ "$rc" -eq 0 ] || status=1
{
    echo
    echo "## The tests marked \`long\`"
    echo
    echo "\`python -m pytest -m long -q -n $JOBS\`: exit $rc, $((SECONDS - start)) s wall."
    echo
    echo '```'
    tail -n 5 "$report"
    echo '```'
} >> "$OUT"
echo "written: $OUT" >&2
exit $status

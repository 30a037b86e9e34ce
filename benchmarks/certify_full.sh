#!/usr/bin/env bash
# The long certifications CI leaves out, run by hand: both engines and minimality on the whole bundled
# corpus, then both engines on the external corpus (when ../shared/corpus-external is present).
# About an hour on two idle cores. Writes its result, with the date, the commit and each command, to
# docs/certify-full.md (override with OUT=...); exits non-zero when any certification fails.
#
#   bash benchmarks/certify_full.sh            # everything
#   JOBS=2 BUDGET=1800s bash benchmarks/certify_full.sh
set -uo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:-docs/certify-full.md}
JOBS=${JOBS:-$(nproc)}
BUDGET=${BUDGET:-1800s}
EXTERNAL_BUDGET=${EXTERNAL_BUDGET:-120s}
FILLOMINO=${FILLOMINO:-python -m fillomino}
status=0
report=$(mktemp)
trap 'rm -f "$report"' EXIT

{
    echo "# Full certification: last result"
    echo
    echo "Written by \`bash benchmarks/certify_full.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit"
    echo "\`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)'),"
    echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start. CI runs a faster subset"
    echo "(\`.ci/run\`); this is the whole of it."
} > "$OUT"

certify() {  # certify TITLE ARGS...: run one certification, append its command, time and table to $OUT
    local title=$1
    shift
    local start=$SECONDS
    echo "=== $title: $FILLOMINO certify $*" >&2
    $FILLOMINO certify "$@" --jobs "$JOBS" > "$report"
    local rc=$?
    [ "$rc" -eq 0 ] || status=1
    {
        echo
        echo "## $title"
        echo
        echo "\`fillomino certify $* --jobs $JOBS\`: exit $rc, $((SECONDS - start)) s wall."
        echo
        echo '```'
        cat "$report"
        echo '```'
    } >> "$OUT"
    tail -n 3 "$report" >&2
}

certify "Bundled corpus, both engines, every clue needed" corpus/ --both --minimal --budget "$BUDGET"
if [ -d ../shared/corpus-external ]; then
    certify "External corpus, both engines, judged by status headers" ../shared/corpus-external \
        --both --expect-status --budget "$EXTERNAL_BUDGET"
fi
echo "written: $OUT" >&2
exit $status

# common.sh — shared by the integration tests: $CC is the crosscheck binary, $WORK a
# fresh temporary folder removed at exit, and a few assertions that print what failed.
set -uo pipefail
CC="${CROSSCHECK:?set CROSSCHECK to the crosscheck binary}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_eq() { [ "$1" == "$2" ] || fail "$3: expected '$2', got '$1'"; }
# expect_exit CODE CMD... : runs CMD, checks its exit code and that stderr is one line
expect_exit() {
    local want="$1"; shift
    "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
    local got=$?
    [ "$got" == "$want" ] || fail "'$*' exited $got, expected $want (stderr: $(head -c 300 "$WORK/err.txt"))"
}
one_line_error() {
    local n; n=$(wc -l <"$WORK/err.txt")
    [ "$n" == 1 ] || fail "expected one line on stderr, got $n: $(cat "$WORK/err.txt")"
    grep -q -e "$1" "$WORK/err.txt" || fail "stderr does not mention '$1': $(cat "$WORK/err.txt")"
}
sql() { sqlite3 -batch -noheader "$1" "$2"; }
finish() {
    if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed" >&2; exit 1; fi
    echo "all checks passed"
    exit 0
}

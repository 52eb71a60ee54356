# Shared by the front door's tests (tests/tools/*.sh): each case runs one
# command and checks its exit status and what it printed.
#
#   . "$(dirname "$0")/lib.sh"
#   expect NAME STATUS REGEX -- COMMAND...   STATUS: a number, or "nonzero"
#   expect_out NAME REGEX                    the last command's stdout
#   expect_no NAME REGEX                     neither stream of the last command
#   finish                                   "N passed, N failed", exit status
#
# REGEX (grep -E) must match the command's stderr (for STATUS 0: stdout or
# stderr). Every case also fails if the shell itself complained (an unset
# variable, a parameter null or not set): the scripts must say what is wrong
# in their own words.
set -u
passed=0 failed=0
out= err= status=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail_case() { echo "FAIL $1: $2" >&2; failed=$((failed + 1)); }
pass_case() { echo "ok   $1"; passed=$((passed + 1)); }

expect() {
  local name=$1 want=$2 regex=$3
  shift 4  # NAME STATUS REGEX --
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  status=$?
  out=$(cat "$tmp/out") err=$(cat "$tmp/err")
  local where=$err
  [ "$want" = 0 ] && where="$out"$'\n'"$err"
  if [ "$want" = nonzero ] && [ "$status" -eq 0 ]; then
    fail_case "$name" "exit status 0, wanted non-zero; stderr: $err"
  elif [ "$want" != nonzero ] && [ "$status" -ne "$want" ]; then
    fail_case "$name" "exit status $status, wanted $want; stderr: $err"
  elif ! grep -Eq -- "$regex" <<<"$where"; then
    fail_case "$name" "output lacks /$regex/; stdout: $out; stderr: $err"
  elif grep -Eq 'unbound variable|parameter null or not set|command not found' <<<"$err"; then
    fail_case "$name" "the shell complained: $err"
  else
    pass_case "$name"
  fi
}

expect_out() {
  if grep -Eq -- "$2" <<<"$out"; then pass_case "$1"; else fail_case "$1" "stdout lacks /$2/: $out"; fi
}

expect_no() {
  if grep -Eq -- "$2" <<<"$out"$'\n'"$err"; then
    fail_case "$1" "output has /$2/: $(grep -E -- "$2" <<<"$out"$'\n'"$err" | head -n 3)"
  else
    pass_case "$1"
  fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

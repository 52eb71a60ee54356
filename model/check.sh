#!/bin/sh
# check.sh MODEL.pml expect-pass|expect-fail [-DNAME...]
#
# Runs spin -> gcc -> pan exhaustively (no bitstate) in a scratch directory.
# expect-pass: pan must finish the whole state space with "errors: 0".
# expect-fail: pan must report an error - an assertion violated, or an
# invalid end state (every process blocked, one not at its end: a deadlock,
# which is how idle.pml sees a task stranded while every core sleeps). Used
# by the broken variants to prove the model can fail; the counter-example
# trail is printed.
set -eu
for tool in spin "${CC:-gcc}"; do
  command -v "$tool" >/dev/null || { echo "check.sh: $tool not installed (tools/hive deps)"; exit 77; }
done
model=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
expect=$2
shift 2
depth=${PAN_DEPTH:-100000}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$model" model.pml

# PAN_PROBES=k,k,... (expect-pass): the search must also report each of
# these REACHED(k) probes (idle.pml, -DPROBES=0: report, never stop).
probes=${PAN_PROBES:-}
if [ -n "$probes" ]; then
  set -- "$@" -DPROBES=0
fi
spin -a "$@" model.pml >spin.log 2>&1 || { cat spin.log; exit 1; }
# COLLAPSE compresses state vectors losslessly, so the search stays exhaustive.
# PAN_OPT: small searches compile (-O2) longer than they search.
# PAN_MEMLIM: MB pan may use (model.idle.3 needs more than the default).
"${CC:-gcc}" "${PAN_OPT:--O2}" -DSAFETY -DCOLLAPSE -DMEMLIM="${PAN_MEMLIM:-2048}" -o pan pan.c 2>gcc.log || { cat gcc.log; exit 1; }
./pan -m"$depth" >pan.log 2>&1 || true
cat pan.log

errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' pan.log | tail -n1)
[ -n "$errors" ] || { echo "check.sh: no 'errors:' line from pan"; exit 1; }

if [ "$expect" = expect-fail ]; then
  if [ "$errors" -gt 0 ] && grep -q -e "assertion violated" -e "invalid end state" pan.log; then
    grep -e "assertion violated" -e "invalid end state" pan.log | head -n1
    echo "--- counter-example ---"
    spin -t "$@" model.pml 2>&1 | sed "/^#processes/q"
    echo "check.sh: spin found the planted bug, as it must"
    exit 0
  fi
  echo "check.sh: the broken variant passed: the model cannot see this bug"
  exit 1
fi

# Errors first: pan stops at the first one and then also says the search
# did not complete, which must not hide the counter-example.
[ "$errors" -eq 0 ] || { echo "check.sh: $errors error(s)"; spin -t "$@" model.pml 2>&1 | sed "/^#processes/q"; exit 1; }
if grep -q -e 'max search depth too small' -e 'out of memory' \
     -e 'reached -DMEMLIM' -e 'Search not completed' pan.log; then
  echo "check.sh: search incomplete"
  exit 1
fi
missing=
for k in $(echo "$probes" | tr , ' '); do
  grep -qx "probe $k reached" pan.log || missing="$missing $k"
done
[ -z "$missing" ] || { echo "check.sh: probes$missing not reached within these bounds"; exit 1; }
[ -z "$probes" ] || echo "check.sh: probes $probes reached"

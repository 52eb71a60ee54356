#!/bin/sh
# reach.sh: every REACHED(k) probe of idle.pml must be reachable within the
# bounds of the ctest named beside it: with -DPROBE=k the probe is a failing
# assertion, and spin must find a path to it (check.sh expect-fail). A probe
# that no longer fails means the bounds stopped covering that branch.
# Exits 77 (ctest: skipped) without spin, as check.sh does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export PAN_OPT=-O0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=0
while read -r k ctest opts; do
  case $k in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086 # opts is a list of -D options
  "$here/check.sh" "$here/idle.pml" expect-fail -DPROBE="$k" $opts >"$log" 2>&1
  rc=$?
  [ $rc -eq 77 ] && { cat "$log"; exit 77; }
  if [ $rc -eq 0 ] && grep -q "assertion violated" "$log"; then
    echo "probe $k reached within $ctest"
  else
    echo "probe $k NOT reached within $ctest ($opts)"; failed=1
  fi
done <<'TABLE'
# k  ctest whose bounds reach it   its -D options
1    model.idle
2    model.idle
3    model.idle
4    model.idle.3                  -DNW=3 -DNOUT=0
5    model.idle
6    model.idle.batch              -DNSPAWN=3 -DNOUT=0
7    model.idle
8    model.idle
9    model.idle
10   model.idle
11   model.idle
12   model.idle
13   model.idle
14   model.idle.wait               -DWAIT -DNOUT=0
15   model.idle.wait               -DWAIT -DNOUT=0
16   model.idle.wait               -DWAIT -DNOUT=0
17   model.idle.wait               -DWAIT -DNOUT=0
18   model.idle.wait.global        -DWAIT -DNSPAWN=3 -DPORT_SEMAPHORE
19   model.idle.long_fix           -DLONG -DPARK_RESCAN_IDLE
20   model.idle.3                  -DNW=3 -DNOUT=0
TABLE
exit $failed

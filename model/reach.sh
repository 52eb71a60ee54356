#!/bin/sh
# reach.sh: every REACHED(k) probe of idle.pml is reachable within the bounds
# of the ctest named beside it. Each line of the table is one search with
# -DPROBES=mask (idle.pml): pan prints each probe the first time it gets
# there and stops once it has them all; a probe that is never printed means
# those bounds stopped covering its branch. The pass ctests run the same
# bounds to the end, so a probe reached here is a state they check.
# Exits 77 (ctest: skipped) without spin or gcc, as check.sh does.
set -u
for tool in spin "${CC:-gcc}"; do
  command -v "$tool" >/dev/null || { echo "reach.sh: $tool not installed (tools/hive deps)"; exit 77; }
done
model=$(cd "$(dirname "$0")" && pwd)/idle.pml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failed=0
while read -r probes ctest opts; do
  case $probes in ''|'#'*) continue ;; esac
  mask=0
  for k in $(echo "$probes" | tr , ' '); do mask=$((mask | 1 << k)); done
  rm -f pan pan.* model.pml*
  cp "$model" model.pml
  # shellcheck disable=SC2086 # opts is a list of -D options
  if ! spin -a -DPROBES=$mask $opts model.pml >spin.log 2>&1; then
    cat spin.log; failed=1; continue
  fi
  # -O0: gcc compiles in a fifth of the -O2 time; these searches are short.
  "${CC:-gcc}" -O0 -DSAFETY -DCOLLAPSE -DMEMLIM=4096 -o pan pan.c 2>gcc.log || { cat gcc.log; failed=1; continue; }
  ./pan -m100000 >pan.log 2>&1
  missing=
  for k in $(echo "$probes" | tr , ' '); do
    grep -qx "probe $k reached" pan.log || missing="$missing $k"
  done
  if [ -z "$missing" ]; then
    echo "probes $probes reached within $ctest"
  else
    echo "probes$missing NOT reached within $ctest ($opts)"; failed=1
  fi
done <<'TABLE'
# probes                  ctest whose bounds reach them   its -D options
1,2,3,5,7,8,9,10,11,12,13,19,21,23  model.idle.long       -DLONG
6,22                      model.idle.batch                -DNSPAWN=3 -DNOUT=0 -DLONG
4,20                      model.idle.3                    -DNW=3 -DNOUT=0 -DLONG
14,15,16,17               model.idle.wait                 -DWAIT -DNOUT=0
18                        model.idle.wait.global          -DWAIT -DNSPAWN=3 -DPORT_SEMAPHORE -DLONG
TABLE
exit $failed

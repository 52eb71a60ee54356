#!/usr/bin/env bash
# tools/qemu-backports against stand-ins: apt's configuration in a scratch
# folder (HIVE_APT_DIR), a Debian 12 os-release, and stand-in QEMU, apt-get,
# dpkg-query and id first on PATH; the boards are the tree's own. Nothing is
# installed: the stand-in apt-get records its arguments and "upgrades" the
# stand-in QEMU to one that has every machine.
#
# Cases: a QEMU that has every board's machine changes nothing and says
# nothing; one that lacks raspi4b (Debian 12's 7.2) gets the backports
# suite added on the archive apt uses (deb822 or one-line sources), a pin
# that names QEMU's packages only, QEMU's installed packages installed
# without -t (the pin picks their backports versions; -t would raise every
# package of the suite for the install), and one line; a second run is silent; an existing
# backports entry is not duplicated; without root it prints what to run and
# exits 2; a backports QEMU that still lacks the machine is an error.
#
#   tests/tools/qemu_backports.sh SOURCE_DIR
. "$(dirname "$0")/lib.sh"
src=${1:?usage: qemu_backports.sh SOURCE_DIR}
tool=$src/tools/qemu-backports
mapfile -t boards < <("$src/tools/boards")

shim=$tmp/shim log=$tmp/apt.log
mkdir -p "$shim"
printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n' >"$tmp/os-release"
export HIVE_OS_RELEASE=$tmp/os-release

# The stand-in QEMU lists the machines in $tmp/machines (a file, so apt-get
# can change them) and says it is version $tmp/version.
for arch in aarch64 riscv64; do
  cat >"$shim/qemu-system-$arch" <<EOF
#!/bin/sh
case "\$*" in
  "-M help") echo "Supported machines are:"; sed 's/\$/   a machine/' "$tmp/machines" ;;
  --version) echo "QEMU emulator version \$(cat "$tmp/version")" ;;
esac
EOF
  chmod +x "$shim/qemu-system-$arch"
done
cat >"$shim/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$log"
case "\$*" in *install*) [ -e "$tmp/upgrade_keeps_machines" ] || echo raspi4b >>"$tmp/machines"; echo 10.0.2 >"$tmp/version" ;; esac
EOF
cat >"$shim/dpkg-query" <<'EOF'
#!/bin/sh
printf 'qemu-system-arm install ok installed\nqemu-system-common install ok installed\n'
printf 'qemu-system-misc install ok installed\nqemu-system-x86 deinstall ok config-files\n'
EOF
printf '#!/bin/sh\necho "${FAKE_UID:-0}"\n' >"$shim/id"
chmod +x "$shim/apt-get" "$shim/dpkg-query" "$shim/id"
export PATH="$shim:$PATH"

qemu_7_2() { printf 'virt\nraspi3b\nsifive_u\n' >"$tmp/machines"; echo 7.2.19 >"$tmp/version"; }
# fresh_apt: a Debian 12 apt folder, deb822 (the default since 12) or one-line.
fresh_apt() {
  rm -rf "$tmp/apt" "$log"
  mkdir -p "$tmp/apt/sources.list.d" "$tmp/apt/preferences.d"
  export HIVE_APT_DIR=$tmp/apt
  if [ "$1" = deb822 ]; then
    printf 'Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\n' \
      >"$tmp/apt/sources.list.d/debian.sources"
    printf 'Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\nComponents: main\n' \
      >>"$tmp/apt/sources.list.d/debian.sources"
  else
    printf '# a comment: deb http://wrong.example/debian bookworm main\n' >"$tmp/apt/sources.list"
    printf 'deb [arch=amd64] http://old.example/debian bookworm main\n' >>"$tmp/apt/sources.list"
    printf 'deb http://old.example/debian-security bookworm-security main\n' >>"$tmp/apt/sources.list"
  fi
}
entry=$tmp/apt/sources.list.d/debian-backports.sources
pin=$tmp/apt/preferences.d/hive-qemu-backports

# Every machine there: nothing written, nothing run, nothing said.
fresh_apt deb822
printf 'virt\nraspi3b\nraspi4b\nsifive_u\n' >"$tmp/machines"; echo 10.0.2 >"$tmp/version"
expect has_all 0 '' -- "$tool" "${boards[@]}"
if [ -e "$log" ] || [ -e "$entry" ] || [ -e "$pin" ] || [ -n "$out$err" ]; then
  fail_case has_all_quiet "it acted or spoke: $(cat "$log" 2>/dev/null) $out $err"
else
  pass_case has_all_quiet
fi

# QEMU 7.2 and deb822 sources: the suite on the same archive, the pin, the
# install of the installed QEMU packages from the suite, one line.
fresh_apt deb822
qemu_7_2
expect lacks_raspi4b 0 "^hive: this machine's QEMU \\(7\\.2\\.19\\) has no raspi4b \\(board rpi4\\): installing QEMU from bookworm-backports" \
  -- "$tool" "${boards[@]}"
if [ "$(grep -c . <<<"$err")" -eq 1 ]; then pass_case lacks_one_line; else fail_case lacks_one_line "stderr: $err"; fi
if grep -qx 'URIs: http://mirror.example/debian' "$entry" && grep -qx 'Suites: bookworm-backports' "$entry"; then
  pass_case entry_on_same_archive
else
  fail_case entry_on_same_archive "$(cat "$entry" 2>/dev/null)"
fi
if grep -qx 'Package: qemu-system qemu-system-\* qemu-utils qemu-block-extra opensbi seabios ipxe-qemu qemu-efi-aarch64 qemu-efi-arm ovmf u-boot-qemu' "$pin" &&
   grep -qx 'Pin: release n=bookworm-backports' "$pin" && grep -qx 'Pin-Priority: 500' "$pin"; then
  pass_case pin_names_qemu_only
else
  fail_case pin_names_qemu_only "$(cat "$pin" 2>/dev/null)"
fi
if grep -qx 'apt-get update -q' "$log" &&
   grep -qx 'apt-get install -y -q --no-install-recommends qemu-system-arm qemu-system-misc' "$log"; then
  pass_case installs_from_backports
else
  fail_case installs_from_backports "$(cat "$log" 2>/dev/null)"
fi

# Again, now that QEMU has it: silent, nothing run.
rm -f "$log"
expect second_run 0 '' -- "$tool" "${boards[@]}"
if [ -e "$log" ] || [ -n "$err" ]; then fail_case second_run_quiet "$(cat "$log" 2>/dev/null) $err"; else pass_case second_run_quiet; fi

# One-line sources: the URI of the release's own line (not a comment's, not
# security's), options skipped.
fresh_apt one-line
qemu_7_2
expect one_line_sources 0 'installing QEMU from bookworm-backports' -- "$tool" "${boards[@]}"
if grep -qx 'URIs: http://old.example/debian' "$entry"; then pass_case one_line_archive; else
  fail_case one_line_archive "$(cat "$entry" 2>/dev/null)"; fi

# The suite already a source (set up by hand): not added again, QEMU still installed.
fresh_apt deb822
printf 'Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm-backports\nComponents: main\n' \
  >"$tmp/apt/sources.list.d/by-hand.sources"
qemu_7_2
expect suite_by_hand 0 'installing QEMU from bookworm-backports' -- "$tool" "${boards[@]}"
if [ ! -e "$entry" ] && [ -f "$pin" ] && grep -q -- 'install -y -q --no-install-recommends qemu-system-arm' "$log"; then pass_case suite_not_duplicated
else fail_case suite_not_duplicated "entry: $(cat "$entry" 2>/dev/null); log: $(cat "$log" 2>/dev/null)"; fi

# Not root: what to run, status 2, nothing written or run.
fresh_apt deb822
qemu_7_2
expect not_root 2 '^tools/hive deps$' -- env FAKE_UID=1000 "$tool" "${boards[@]}"
expect_out not_root_stdout_empty '^$'
if [ -e "$log" ] || [ -e "$entry" ] || [ -e "$pin" ]; then fail_case not_root_touches_nothing "it acted"
else pass_case not_root_touches_nothing; fi

# A backports QEMU that still lacks the machine: an error naming it.
fresh_apt deb822
qemu_7_2
touch "$tmp/upgrade_keeps_machines"
expect still_lacking 1 '^hive: QEMU from bookworm-backports has no raspi4b \(board rpi4\) either$' \
  -- "$tool" "${boards[@]}"
rm -f "$tmp/upgrade_keeps_machines"

finish

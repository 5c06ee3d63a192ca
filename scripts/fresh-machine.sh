#!/usr/bin/env bash
# fresh-machine.sh — the README's two commands, exactly as written, on a clean Debian 12
# root: what a new user with a fresh machine and a fresh clone gets, whatever this machine
# already has installed.
#
# A minimal Debian 12 (bookworm) root is made with debootstrap once and kept as a tarball
# in a git-ignored cache folder (.fresh-machine/, or $CROSSCHECK_FRESH_DIR); every run
# unpacks a new copy of it, copies the committed tree (git archive HEAD: no build folders,
# no uncommitted files) into /root/crosscheck, and runs there, as root, with a clean
# environment:
#     scripts/test.sh                # must exit 0 and end with ctest's summary
#     scripts/run-suite.sh --quick   # must write out/crosscheck.db, report.md and report.html
#                                    # and exit 0 or 1 (1: some case failed on some backend)
# Logs and the wall time of each command land in the cache folder (test.log, suite.log,
# times.txt); the report is copied out beside them. Exit 0 when both commands did what
# they must, 1 otherwise, 2 on bad usage or when the root cannot be made (not root, no
# network to the Debian mirror).
#
# Usage: scripts/fresh-machine.sh [--rebuild-base] [--keep] [--only test|suite]
#   --rebuild-base  make the cached base root anew (e.g. after a Debian point release)
#   --keep          leave the unpacked root in place afterwards (for a look inside)
#   --only          run one of the two commands
set -uo pipefail
cd "$(dirname "$0")/.."
src="$PWD"

rebuild=0 keep=0 only=""
while [ $# -gt 0 ]; do
    case "$1" in
    --rebuild-base) rebuild=1 ;;
    --keep) keep=1 ;;
    --only) only="${2:-}"; shift ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-machine: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$only" in ""|test|suite) ;; *) echo "fresh-machine: --only takes test or suite, got '$only'" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine: needs root (debootstrap and chroot)" >&2; exit 2; }
git -C "$src" rev-parse --verify -q HEAD >/dev/null || { echo "fresh-machine: $src is not a git checkout with a commit" >&2; exit 2; }

cache="${CROSSCHECK_FRESH_DIR:-$src/.fresh-machine}"
mirror="${CROSSCHECK_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
mkdir -p "$cache"
base="$cache/bookworm-base.tar"
root="$cache/root"

if ! command -v debootstrap >/dev/null; then
    echo "fresh-machine: installing debootstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
        { echo "fresh-machine: cannot install debootstrap" >&2; exit 2; }
fi

unmount_all() {
    for m in dev/shm dev/pts dev sys proc; do
        mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
    done
}
cleanup() {
    unmount_all
    [ "$keep" = 1 ] || rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the base root (cached) -------------------------------------------------------------------
if [ "$rebuild" = 1 ] || [ ! -s "$base" ]; then
    echo "fresh-machine: debootstrap bookworm from $mirror (once; cached in $base)"
    unmount_all
    rm -rf "$cache/base-root" "$base"
    t0=$(date +%s)
    if ! debootstrap --variant=minbase bookworm "$cache/base-root" "$mirror" >"$cache/debootstrap.log" 2>&1; then
        echo "fresh-machine: debootstrap failed: $(tail -n 1 "$cache/debootstrap.log")" >&2
        exit 2
    fi
    # what a Debian 12 machine that someone cloned a repository on has besides minbase
    chroot "$cache/base-root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates git >/dev/null && apt-get clean' \
        >>"$cache/debootstrap.log" 2>&1 || { echo "fresh-machine: base packages failed (see $cache/debootstrap.log)" >&2; exit 2; }
    tar -C "$cache/base-root" -cf "$base.part" . && mv "$base.part" "$base"
    rm -rf "$cache/base-root"
    echo "fresh-machine: base root made in $(( $(date +%s) - t0 )) s"
fi

# ---- a new root with the committed tree ----------------------------------------------------------
unmount_all
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$base" || { echo "fresh-machine: cannot unpack $base" >&2; exit 2; }
mkdir -p "$root/root/crosscheck"
commit=$(git -C "$src" rev-parse --short HEAD)
git -C "$src" archive HEAD | tar -C "$root/root/crosscheck" -x
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts" 2>/dev/null || true
mount -t tmpfs shm "$root/dev/shm"

# one of the README's commands inside the root; its wall time to times.txt
in_root() {   # NAME LOG COMMAND...
    local name="$1" log="$2"
    shift 2
    local t0 rc
    t0=$(date +%s)
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 TERM=dumb CI=true /bin/bash -c 'cd /root/crosscheck && "$@"' bash "$@" >"$log" 2>&1
    rc=$?
    echo "$name: exit $rc in $(( $(date +%s) - t0 )) s ($commit)" | tee -a "$cache/times.txt"
    return $rc
}

ok=1
: >"$cache/times.txt"
if [ -z "$only" ] || [ "$only" = test ]; then
    echo "fresh-machine: scripts/test.sh (log: $cache/test.log)"
    in_root "scripts/test.sh" "$cache/test.log" scripts/test.sh
    rc=$?
    tail -n 1 "$cache/test.log"
    if [ $rc -ne 0 ]; then
        ok=0
        grep -E '^ *[0-9]+ - |\(Failed\)|\*\*\*' "$cache/test.log" | tail -n 20
    fi
    grep -qE '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$cache/test.log" ||
        { echo "fresh-machine: test.sh did not end with ctest's summary" >&2; ok=0; }
fi
if [ -z "$only" ] || [ "$only" = suite ]; then
    echo "fresh-machine: scripts/run-suite.sh --quick (log: $cache/suite.log)"
    in_root "scripts/run-suite.sh --quick" "$cache/suite.log" scripts/run-suite.sh --quick
    rc=$?
    tail -n 3 "$cache/suite.log"
    [ $rc -le 1 ] || ok=0
    for f in crosscheck.db report.md report.html; do
        if [ -s "$root/root/crosscheck/out/$f" ]; then
            cp "$root/root/crosscheck/out/$f" "$cache/$f"
        else
            echo "fresh-machine: the main job wrote no out/$f" >&2
            ok=0
        fi
    done
fi
cat "$cache/times.txt"
if [ $ok = 1 ]; then
    echo "fresh-machine: PASSED on a clean Debian 12 root ($commit)"
    exit 0
fi
echo "fresh-machine: FAILED on a clean Debian 12 root ($commit)" >&2
exit 1

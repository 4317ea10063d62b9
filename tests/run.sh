#!/usr/bin/env bash
# The test command: installs the real peers the tests play against when they
# are missing (GNU Go, Leela Zero, socat, tmux, the NATS server, Chromium for
# the page, man for the manual page, sgfmill to read records back), then runs
# the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/games/gnugo ] || command -v gnugo >/dev/null 2>&1 || missing+=(gnugo)
command -v socat >/dev/null 2>&1 || missing+=(socat)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
command -v man >/dev/null 2>&1 || missing+=(man-db)
# Leela Zero without its recommends, which would bring an OpenCL driver.
if [ ! -x /usr/games/leelaz ]; then
  echo "installing leela-zero"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends leela-zero >/dev/null
fi
# sgfmill, the Python SGF library the tests read goref's records back with.
python3 -c 'import sgfmill' 2>/dev/null || python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! python3 -c 'import sgfmill' 2>/dev/null; then
  echo "installing sgfmill"
  python3 -m pip install --quiet --user sgfmill 2>/dev/null \
    || python3 -m pip install --quiet --user --break-system-packages sgfmill
fi

# Every game gets a folder; the tests' folders go to a temporary place.
games_root="$(mktemp -d)"
trap 'rm -rf "$games_root"' EXIT
export GOREF_GAMES="$games_root/games"

# The tests start five example programs (the scripted fake engine, the fault
# relay, the program that panics on the screen, the two Usenix test
# programs) as real processes: build those as programs first. The budget
# examples are built and run on their own (`cargo run --example NAME`).
# A first build has nothing to reuse: it skips writing the incremental
# state, which the builds after an edit make for themselves.
[ -d "${CARGO_TARGET_DIR:-target}/quick-release" ] || export CARGO_INCREMENTAL=0
cargo build --profile quick-release \
  --example fake_gtp --example fault_relay --example screen_panic \
  --example usenix_strict --example usenix_sloppy
# The library's unit tests of each crate and the one integration-test
# binary (tests/it); every test runs even after one fails, so a red run
# names every failing test at once. Four at a time on any machine: most
# tests wait on real programs, links and clocks, so two threads kept the
# two cores at 73 % of one (tests/it: 808 s with 2, 457 s with 4).
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-4}"
cargo test --profile quick-release --workspace --lib --tests --no-fail-fast "$@"

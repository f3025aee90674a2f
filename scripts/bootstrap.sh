#!/usr/bin/env bash
# Sets up dealer-assist on a Debian machine (run as root or with sudo available) and then
# either runs the product (`run`) or the whole test suite (`test`). Safe to run again.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mode="${1:-run}"; shift || true

apt_packages=(python3 python3-venv libzbar0 libegl1 libgl1 libfontconfig1 libxkbcommon0
              libglib2.0-0 libdbus-1-3
              # a desktop (X11 / xcb) and the tests of a real window
              libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-render-util0
              libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0 xvfb
              # a Wayland desktop; the kiosk's screen kept awake (xset); `run --vnc` (x11vnc);
              # systemd-analyze, which checks the shipped unit
              libwayland-client0 libwayland-cursor0 libwayland-egl1 x11-xserver-utils x11vnc systemd
              # the screens' font, named by ui/common/screen_font.py: the same text widths on every machine
              fonts-dejavu-core
              # the card room: broker, store, and the browser its tests drive
              nats-server postgresql chromium chromium-driver
              # what the tests call: Ghostscript reads PDFs back, openssl makes a certificate,
              # pgrep finds a room's leftover processes
              ghostscript openssl procps)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=.venv/.installed
if [ ! -x .venv/bin/python ] || [ pyproject.toml -nt "$stamp" ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e '.[test]'
  touch "$stamp"
fi

case "$mode" in
  run)  exec .venv/bin/dealer-assist run "$@" ;;
  room) exec .venv/bin/dealer-assist room "$@" ;;
  test)
    export QT_QPA_PLATFORM=offscreen
    # Each pytest worker reuses the compiled, assertion-rewritten modules of the last run.
    unset PYTHONDONTWRITEBYTECODE
    .venv/bin/lint-imports
    .venv/bin/ruff check .
    .venv/bin/ruff format --check .
    .venv/bin/mypy --strict dealer_assist devices calibration hw_sims ui pit
    # the benchmarks on their own: benchmarks/ui.py and pit.py are named like the packages they drive
    .venv/bin/mypy --strict --explicit-package-bases benchmarks
    exec .venv/bin/python -m pytest "$@" ;;
  *) echo "usage: scripts/bootstrap.sh run|test|room [args...]" >&2; exit 2 ;;
esac

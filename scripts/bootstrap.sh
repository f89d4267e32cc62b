# Shared set-up for ./waypost.sh and ./run-tests.sh: sourced, not run.
# Creates or reuses .venv, installs the project when pyproject.toml changed, and makes sure a Chromium,
# fonts and Qt's system libraries are present (installing them with apt-get when root on Debian/Ubuntu,
# else saying exactly what to install). Qt's libraries are every one its xcb platform plugin links to,
# listed with their packages in app/qt_xcb_libraries.txt. Idempotent: a second call only checks stamps
# and paths (one dpkg-query for every package).
set -euo pipefail

WAYPOST_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WAYPOST_VENV="${WAYPOST_VENV:-$WAYPOST_ROOT/.venv}"

_say() { printf 'waypost-setup: %s\n' "$*" >&2; }

# The CPython the locks are resolved for (scripts/lock.sh's --python-version).
WAYPOST_LOCKED_PYTHON="3.11"

_python_is() {
  # $1: an interpreter name or path; $2: "locked" (exactly the locked version) or "supported" (3.11+).
  local test='sys.version_info >= (3, 11)'
  [ "$2" = "locked" ] && test="'%d.%d' % sys.version_info[:2] == '$WAYPOST_LOCKED_PYTHON'"
  command -v "$1" >/dev/null 2>&1 && "$1" -c "import sys; sys.exit(0 if $test else 1)" 2>/dev/null
}

_pick_python() {
  # WAYPOST_PYTHON when set; else the locked Python when present (so the lock applies), else the newest.
  local candidate
  if [ -n "${WAYPOST_PYTHON:-}" ]; then
    _python_is "$WAYPOST_PYTHON" supported && { command -v "$WAYPOST_PYTHON"; return 0; }
    _say "WAYPOST_PYTHON=$WAYPOST_PYTHON is not a working Python 3.11 or newer."
    return 1
  fi
  for candidate in "python$WAYPOST_LOCKED_PYTHON" python3; do
    _python_is "$candidate" locked && { command -v "$candidate"; return 0; }
  done
  for candidate in python3.13 python3.12 python3; do
    _python_is "$candidate" supported && { command -v "$candidate"; return 0; }
  done
  _say "Python 3.11 or newer is needed (set WAYPOST_PYTHON to its path)."
  return 1
}

_can_apt() { [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; }

_apt_update_once() {
  if [ ! -f /tmp/.waypost-apt-updated ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null && touch /tmp/.waypost-apt-updated
  fi
}

_apt_install() {
  # Installs Debian packages only where that is allowed: root, with apt-get present.
  if _can_apt; then
    _say "installing $* with apt-get"
    _apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  else
    _say "missing system packages: $*"
    _say "install them with: sudo apt-get install -y $*  (or your system's equivalent)"
    return 1
  fi
}

_have_chromium() {
  [ -n "${WAYPOST_BROWSER:-}" ] && [ -x "${WAYPOST_BROWSER}" ] && return 0
  [ -n "${WAYPOST_CDP_URL:-}" ] && return 0
  compgen -G "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}/chromium-*/chrome-linux*/chrome" >/dev/null && return 0
  local name
  for name in chromium chromium-browser google-chrome google-chrome-stable; do
    command -v "$name" >/dev/null 2>&1 && return 0
  done
  return 1
}

_xcb_packages() {
  # The packages of app/qt_xcb_libraries.txt, one group a line ("a|b": either name will do), no repeats.
  awk '!/^#/ && NF >= 2 && !seen[$2]++ { print $2 }' "$WAYPOST_ROOT/app/qt_xcb_libraries.txt"
}

_missing_packages() {
  # Prints each group of $@ ("a" or "a|b") of which no package is installed, as the name to install:
  # the first name apt-get knows (a t64 rename on newer Ubuntu), else the first name.
  local group name pick
  local -A installed=()
  while read -r name; do installed["$name"]=1; done < <(
    dpkg-query -W -f='${Package} ${Status}\n' 2>/dev/null | awk '/install ok installed/ { print $1 }')
  for group in "$@"; do
    pick=""
    for name in ${group//|/ }; do
      if [ -n "${installed[$name]:-}" ]; then pick="-"; break; fi
    done
    [ "$pick" = "-" ] && continue
    if [ "$group" != "${group%%|*}" ] && _can_apt; then _apt_update_once; fi  # to know which name exists
    for name in ${group//|/ }; do
      if apt-cache show --no-all-versions "$name" >/dev/null 2>&1; then pick="$name"; break; fi
    done
    echo "${pick:-${group%%|*}}"
  done
}

waypost_system_deps() {
  # $1: "test" also checks what only the tests need (espeak-ng synthesises speech for the voice tests).
  local missing=() extras="${1:-}"
  _have_chromium || missing+=(chromium)
  if command -v dpkg-query >/dev/null 2>&1; then
    local pkgs=(fonts-dejavu-core libpulse0)
    mapfile -t -O "${#pkgs[@]}" pkgs < <(_xcb_packages)
    [ "$extras" = "test" ] && pkgs+=(espeak-ng)
    mapfile -t -O "${#missing[@]}" missing < <(_missing_packages "${pkgs[@]}")
  fi
  if [ "${#missing[@]}" -gt 0 ]; then
    _apt_install "${missing[@]}" || return 1
  fi
  if ! _have_chromium; then
    _say "no Chromium found: install one (apt-get install chromium), or set WAYPOST_BROWSER to its path"
    return 1
  fi
}

waypost_venv() {
  # $1: the extras to install ("" or "test"). On the locked Python every package comes from the lock file
  # (requirements/lock*.txt, pinned with hashes, refreshed by scripts/lock.sh); the project itself is
  # installed editable on top with --no-deps, so nothing unpinned comes in with it.
  local extras="${1:-}" spec="" stamp python lock want
  [ -n "$extras" ] && spec="[$extras]"
  lock="$WAYPOST_ROOT/requirements/lock${extras:+-$extras}.txt"
  if [ ! -x "$WAYPOST_VENV/bin/python" ]; then
    python="$(_pick_python)"
    _say "creating $WAYPOST_VENV"
    "$python" -m venv "$WAYPOST_VENV"
  fi
  stamp="$WAYPOST_VENV/.waypost-installed-${extras:-base}"
  want="$(cat "$WAYPOST_ROOT/pyproject.toml" "$lock" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  local pip=("$WAYPOST_VENV/bin/python" -m pip install -q --disable-pip-version-check)
  if _python_is "$WAYPOST_VENV/bin/python" locked; then
    _say "installing the locked packages ($(basename "$lock")) into $WAYPOST_VENV"
    "${pip[@]}" --require-hashes -r "$lock" 2> >(grep -v "^WARNING: Location" >&2)
    _say "installing waypost (editable, --no-deps)"
    "${pip[@]}" --no-deps --no-build-isolation -e "$WAYPOST_ROOT" 2> >(grep -v "^WARNING: Location" >&2)
  else
    _say "the lock file is for Python $WAYPOST_LOCKED_PYTHON; installing waypost$spec from pyproject.toml's ranges instead"
    _say "(for the locked packages: install python$WAYPOST_LOCKED_PYTHON or set WAYPOST_PYTHON, then delete $WAYPOST_VENV)"
    "${pip[@]}" -e "$WAYPOST_ROOT$spec" 2> >(grep -v "^WARNING: Location" >&2)
  fi
  echo "$want" > "$stamp"
}

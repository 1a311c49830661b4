# Sourced by the scripts that drive the real window: `need_packages WHO PACKAGE...` installs the
# Debian packages of the list that are missing (as root), saying so on stderr as WHO.
need_packages() {
  local who=$1
  shift
  local missing
  missing=$(for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
  if [ -n "$missing" ]; then
    echo "$who: installing" $missing >&2
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
}

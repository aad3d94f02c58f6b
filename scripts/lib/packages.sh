# Installing the Debian packages a script needs: as root with apt-get it installs them; elsewhere it names them and
# stops, so a fresh machine never fails later with a cryptic build or link error.
# shellcheck shell=bash

# packages_install PACKAGE...: installs the named packages (only call it with the ones that are missing).
packages_install() {
  (($# == 0)) && return 0
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "packages: installing $*" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends "$@" >/dev/null
  else
    echo "These packages are needed: $*." >&2
    echo "On Debian/Ubuntu: sudo apt-get install $*" >&2
    exit 1
  fi
}

# Prints, one a line, the Debian packages a build of the package still needs beyond the Swift toolchain: the headers
# of the C libraries it links (libcurl unless ERRAND_NO_CURL=1, SQLite) and pkg-config. The toolchain brings their
# runtime libraries but not their headers. On macOS the SDK has both, so nothing is printed there.
packages_missing_for_build() {
  [[ $(uname -s) == Linux ]] || return 0
  if [[ ${ERRAND_NO_CURL:-0} != 1 ]]; then
    compgen -G '/usr/include/curl/curl.h' >/dev/null || compgen -G '/usr/include/*/curl/curl.h' >/dev/null ||
      echo libcurl4-openssl-dev
  fi
  [[ -f /usr/include/sqlite3.h ]] || echo libsqlite3-dev
  command -v pkg-config >/dev/null 2>&1 || echo pkg-config
}

# Whether the C++ standard library can be linked: libFuzzer and the sanitizer runtimes are C++.
packages_have_libstdcxx() {
  [[ -n $(find /usr/lib/gcc /usr/lib64/gcc -name 'libstdc++.so' 2>/dev/null | head -n 1) ]]
}

# Installs what instrumented builds (fuzzing, sanitizers) need beyond the toolchain.
packages_require_instrumentation() {
  packages_have_libstdcxx || packages_install g++
}

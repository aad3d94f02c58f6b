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
# of the C libraries it links (libcurl unless ERRAND_NO_CURL=1, SQLite, zlib, and libjpeg-turbo and libpng for the
# browsers' pictures unless ERRAND_NO_PICTURES=1) and pkg-config. The toolchain brings the runtime libraries of curl
# and SQLite but not their headers. On macOS the SDK has curl and SQLite, so nothing is printed there (the pictures
# need `brew install jpeg-turbo libpng`, or ERRAND_NO_PICTURES=1).
packages_missing_for_build() {
  [[ $(uname -s) == Linux ]] || return 0
  if [[ ${ERRAND_NO_CURL:-0} != 1 ]]; then
    compgen -G '/usr/include/curl/curl.h' >/dev/null || compgen -G '/usr/include/*/curl/curl.h' >/dev/null ||
      echo libcurl4-openssl-dev
  fi
  [[ -f /usr/include/sqlite3.h ]] || echo libsqlite3-dev
  # zlib's headers, for WebSocket's permessage-deflate.
  [[ -f /usr/include/zlib.h ]] || echo zlib1g-dev
  if [[ ${ERRAND_NO_PICTURES:-0} != 1 ]]; then
    [[ -f /usr/include/jpeglib.h ]] || compgen -G '/usr/include/*/jpeglib.h' >/dev/null || packages_jpeg_name
    [[ -f /usr/include/png.h ]] || echo libpng-dev
  fi
  command -v pkg-config >/dev/null 2>&1 || echo pkg-config
}

# libjpeg-turbo's headers are libjpeg62-turbo-dev on Debian and libjpeg-turbo8-dev on Ubuntu.
packages_jpeg_name() {
  if grep -q '^ID=ubuntu' /etc/os-release 2>/dev/null; then echo libjpeg-turbo8-dev; else echo libjpeg62-turbo-dev; fi
}

# Whether the C++ standard library can be linked: libFuzzer and the sanitizer runtimes are C++.
packages_have_libstdcxx() {
  [[ -n $(find /usr/lib/gcc /usr/lib64/gcc -name 'libstdc++.so' 2>/dev/null | head -n 1) ]]
}

# Installs what instrumented builds (fuzzing, sanitizers) need beyond the toolchain.
packages_require_instrumentation() {
  packages_have_libstdcxx || packages_install g++
}

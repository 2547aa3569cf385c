#!/usr/bin/env bash
# Set up problemtools_py on a Debian/Ubuntu machine: install the compilers and JDK the
# judge needs (apt-get, as root or through sudo), then create .venv with the package.
#   bash scripts/setup.sh         # the package and its commands
#   bash scripts/setup.sh --dev   # also the test and lint tools, as an editable install
#   bash scripts/setup.sh --languages node,go,rust   # also these toolchains, then probe
#                                 # each language in the sandbox (gradeserver offers them)
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
languages=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --dev) dev=1 ;;
    --languages) languages="${2:?--languages needs a list, such as node,go,rust}"; shift ;;
    --languages=*) languages="${1#--languages=}" ;;
    *) echo "setup: unknown option $1 (--dev, --languages LIST)" >&2; exit 2 ;;
  esac
  shift
done

# Debian packages of the languages languages.yaml defines, by the names callers use.
language_packages() {
  case "$1" in
    node|nodejs|javascript|js) echo nodejs ;;
    typescript|ts) echo nodejs node-typescript ;;
    go|golang) echo golang-go ;;
    rust|rs) echo rustc ;;
    kotlin|kt) echo kotlin ;;
    csharp|cs|c#) echo mono-mcs mono-runtime ;;
    fsharp|fs) echo fsharp ;;
    haskell|hs) echo ghc ;;
    scala) echo scala ;;
    pascal) echo fp-compiler ;;
    fortran) echo gfortran ;;
    d) echo gdc ;;
    ada) echo gnat ;;
    ocaml) echo ocaml-nox ;;
    php) echo php-cli ;;
    ruby|rb) echo ruby ;;
    perl) echo perl ;;
    lua) echo lua5.4 ;;
    bash) echo bash ;;
    prolog) echo swi-prolog-nox ;;
    pypy3|pypy) echo pypy3 ;;
    c|cpp|c++|java|python|python3) ;;  # (always installed)
    *) echo "setup: no Debian package known for language '$1' (install its toolchain yourself)" >&2 ;;
  esac
}

# Debian packages needed, keyed by the command that shows they are present.
declare -A want=(
  [gcc]=gcc
  [g++]=g++
  [javac]=default-jdk-headless
)
missing=()
for cmd in "${!want[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${want[$cmd]}")
done
# Python submissions run with the system's python3 inside the sandbox (which sees /usr only).
[ -x /usr/bin/python3 ] || missing+=(python3)
# problem2pdf (and verifyproblem's statement check) compile with TeX Live's pdflatex; the
# problemset class needs wrapfig and fancyvrb (texlive-latex-extra / -recommended), the
# statement check's preloaded format mylatexformat (texlive-latex-extra).
if ! command -v pdflatex >/dev/null 2>&1 || ! kpsewhich wrapfig.sty mylatexformat.ltx >/dev/null 2>&1; then
  missing+=(texlive-latex-base texlive-latex-recommended texlive-latex-extra
            texlive-fonts-recommended lmodern)
fi
# HTML statements show PDF figures as PNGs made by poppler's pdftocairo (the statement
# tests read PDFs with its pdftotext too); the tests take screenshots with headless Chromium.
command -v pdftocairo >/dev/null 2>&1 || missing+=(poppler-utils)
if [ "$dev" -eq 1 ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium fonts-dejavu-core)
fi
for language in ${languages//,/ }; do
  for package in $(language_packages "$language"); do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    echo "setup: not root and no sudo; install these yourself: ${missing[*]}" >&2; exit 1
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

recent() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
# The interpreter: $PYTHON when set; else the system's python3 when it is 3.11 or newer
# and can make a virtual environment, else python3 on PATH. The system's is the one the
# sandbox runs Python programs and its servers with, and distributions build it with
# profile-guided and link-time optimisation, which pyenv and a plain source build leave
# out: on it the judge's own work takes ~15% less CPU (docs/judging.md).
if [ ! -x .venv/bin/python ] && [ -z "${PYTHON:-}" ] && recent /usr/bin/python3; then
  /usr/bin/python3 -m venv .venv >/dev/null 2>&1 || rm -rf .venv
fi
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ] && ! recent "$python"; then
  echo "setup: problemtools_py needs Python 3.11 or newer ($python is $("$python" --version 2>&1))" >&2
  exit 1
fi
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
if [ "$dev" -eq 1 ]; then
  .venv/bin/python -m pip install -q -e ".[dev]"
  # Trainers' own client code, which the tests run against our rewards and gradeserver
  # (tests/clientcode.py): their dependencies (torch, ...) are gigabytes, so none of them.
  # Kept apart from site-packages: verl's wheel has a top-level "tests" package.
  for client in verl==0.9.1 trl==1.16.0; do
    [ -d ".venv/clients/${client%%=*}" ] || .venv/bin/python -m pip install -q --no-deps \
      --target ".venv/clients/${client%%=*}" "$client"
  done
  # An editable install is not byte-compiled (pip compiles a regular one): without this,
  # where PYTHONDONTWRITEBYTECODE is set every command compiles its modules anew (40 ms).
  .venv/bin/python -m compileall -q -j 0 problemtools_py >/dev/null
else
  .venv/bin/python -m pip install -q .
fi
echo "setup: ready; commands are in .venv/bin (verifyproblem, problem2html, problem2pdf, ...)" >&2
if [ -n "$languages" ]; then
  echo "setup: probing $languages in the sandbox" >&2
  .venv/bin/python -m problemtools_py.grading.languages_here "$languages"
fi

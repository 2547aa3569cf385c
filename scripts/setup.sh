#!/usr/bin/env bash
# Set up problemtools_py on a Debian/Ubuntu machine: install the compilers and JDK the
# judge needs (apt-get, as root or through sudo), then create .venv with the package.
#   bash scripts/setup.sh         # the package and its commands
#   bash scripts/setup.sh --dev   # also the test and lint tools, as an editable install
#   bash scripts/setup.sh --languages node,go,rust   # also these toolchains, then probe
#                                 # each language in the sandbox (gradeserver offers them)
#   bash scripts/setup.sh --languages all    # every language of languages.yaml it can
# --dev installs the toolchains the tests compare with their plain compilers (Kotlin,
# Rust, Go, Haskell, C#), as CI does.
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
    fsharp|fs) echo "none:Debian 12 has no F# (install the .NET SDK from Microsoft's feed)" ;;
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
    zig) echo "pypi:ziglang==0.13.0" ;;  # (Debian 12 has none; the Zig team's wheel on PyPI)
    swift) echo "none:Debian 12 has no Swift (install a toolchain from swift.org)" ;;
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
[ "$dev" -eq 1 ] && languages="${languages:+$languages,}kotlin,rust,go,haskell,csharp"
if [ "$languages" = all ] || [[ ",$languages," == *,all,* ]]; then
  # every language of the judge's table (its top-level keys)
  languages=$(grep -oE '^[a-z0-9]+:' problemtools_py/judge/languages.yaml | tr -d : | paste -sd, -)
fi
from_pypi=()
for language in ${languages//,/ }; do
  found=$(language_packages "$language")
  case "$found" in
    none:*) echo "setup: $language: ${found#none:}" >&2; continue ;;
  esac
  for package in $found; do
    case "$package" in
      pypi:*) command -v "$language" >/dev/null 2>&1 || from_pypi+=("${package#pypi:}") ;;
      *) dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package") ;;
    esac
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
# Zig, which Debian lacks, from the Zig team's wheel on PyPI (ziglang): its files under
# /usr/local/lib/ziglang (a jail sees /usr, never site-packages), zig linked into
# /usr/local/bin. Root only: elsewhere, say how.
for wheel in "${from_pypi[@]}"; do
  if [ "$(id -u)" -ne 0 ]; then echo "setup: as root, this installs $wheel (Zig) too" >&2; continue; fi
  scratch=$(mktemp -d)
  .venv/bin/python -m pip download -q --no-deps --only-binary=:all: -d "$scratch" "$wheel"
  .venv/bin/python -m zipfile -e "$scratch"/*.whl "$scratch/unpacked"
  rm -rf /usr/local/lib/ziglang && mv "$scratch/unpacked/ziglang" /usr/local/lib/ziglang
  chmod -R a+rX /usr/local/lib/ziglang && chmod a+x /usr/local/lib/ziglang/zig
  ln -sf /usr/local/lib/ziglang/zig /usr/local/bin/zig
  rm -rf "$scratch"
done
echo "setup: ready; commands are in .venv/bin (verifyproblem, problem2html, problem2pdf, ...)" >&2
if [ -n "$languages" ]; then
  echo "setup: probing $languages in the sandbox" >&2
  .venv/bin/python -m problemtools_py.grading.languages_here "$languages"
fi

#!/usr/bin/env bash
# Builds the runner from the action's own source (ACTION_PATH) into BIN_DIR, unless the cache
# step already restored a runner there that starts. The build is self-contained
# (cmake/static_deps.cmake: only glibc and libcurl.so.4 are needed at run time), so a later cache
# restore on a fresh VM, without the packages scripts/setup installed, still starts. Uses the repository's scripts/setup (installs the packages it
# needs, fetches the pinned, checksum-verified grammars).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=actions/lib.sh
. "$here/lib.sh"
action_path=${ACTION_PATH:-$(cd "$here/.." && pwd)}
: "${BIN_DIR:?BIN_DIR is required}"
# A restored binary is used only if it starts on this machine: a cache written by an older action
# version may hold a binary that needs the -dev packages' shared libraries, which a fresh VM lacks
# (it would exit 127 in the review step). Such a binary is rebuilt, not trusted.
if [ -x "$BIN_DIR/runner" ]; then
  if why=$("$BIN_DIR/runner" --version 2>&1); then
    echo "review-action: runner restored from the cache ($why)"
    exit 0
  fi
  echo "review-action: the cached runner does not start on this machine ($(printf '%s' "$why" | head -n 1)); rebuilding"
  rm -f "$BIN_DIR/runner"
fi
build="${RUNNER_TEMP:-/tmp}/review-action-build"
BUILD_DIR="$build" BUILD_TYPE=Release TARGET=runner "$action_path/scripts/setup"
mkdir -p "$BIN_DIR"
install -m 0755 "$build/runner" "$BIN_DIR/runner"
"$BIN_DIR/runner" --version

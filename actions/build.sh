#!/usr/bin/env bash
# Builds the runner from the action's own source (ACTION_PATH) into BIN_DIR, unless the cache
# step already restored it there. Uses the repository's scripts/setup (installs the packages it
# needs, fetches the pinned, checksum-verified grammars).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=actions/lib.sh
. "$here/lib.sh"
action_path=${ACTION_PATH:-$(cd "$here/.." && pwd)}
: "${BIN_DIR:?BIN_DIR is required}"
if [ -x "$BIN_DIR/runner" ]; then
  echo "review-action: runner restored from the cache"
  exit 0
fi
build="${RUNNER_TEMP:-/tmp}/review-action-build"
BUILD_DIR="$build" BUILD_TYPE=Release TARGET=runner "$action_path/scripts/setup"
mkdir -p "$BIN_DIR"
install -m 0755 "$build/runner" "$BIN_DIR/runner"

#!/usr/bin/env bash
# Finds the runner binary for this action: (1) REVIEW_RUNNER_PATH when set (tests, self-hosted
# runners with a preinstalled binary); (2) the release asset for INPUT_VERSION, else the action's
# own ref, verified against its published sha256; (3) otherwise asks the next steps to build it
# from the action's own source (never from the pull request), cached on the source hash.
# Outputs: bin-dir, need-build (true|false), source-hash.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=actions/lib.sh
. "$here/lib.sh"
action_path=${ACTION_PATH:-$(cd "$here/.." && pwd)}
bin_dir="${RUNNER_TEMP:-/tmp}/review-action-bin"
mkdir -p "$bin_dir"
out bin-dir "$bin_dir"

if [ -n "${REVIEW_RUNNER_PATH:-}" ]; then
  [ -x "$REVIEW_RUNNER_PATH" ] || fail "REVIEW_RUNNER_PATH=$REVIEW_RUNNER_PATH is not an executable file"
  ln -sf "$REVIEW_RUNNER_PATH" "$bin_dir/runner"
  echo "review-action: using the runner at $REVIEW_RUNNER_PATH"
  out need-build false
  exit 0
fi

version=${INPUT_VERSION:-${ACTION_REF:-}}
repo=${ACTION_REPOSITORY:-}
case "${RUNNER_ARCH:-X64}" in X64) arch=x86_64 ;; ARM64) arch=aarch64 ;; *) arch=unknown ;; esac
asset="review-runner-linux-$arch"

# Release assets exist for tags only (v1, v1.2.3); a branch or SHA builds from source.
if [ -n "$repo" ] && [[ "$version" =~ ^v[0-9]+(\.[0-9]+)*$ ]] && [ "$(uname -s)" = Linux ]; then
  base="${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download/$version"
  tmp=$(mktemp -d)
  if curl -fsSL --retry 3 --max-time 60 -o "$tmp/$asset" "$base/$asset" &&
     curl -fsSL --retry 3 --max-time 30 -o "$tmp/$asset.sha256" "$base/$asset.sha256"; then
    want=$(awk '{print $1; exit}' "$tmp/$asset.sha256")
    have=$(sha256sum "$tmp/$asset" | awk '{print $1}')
    if [ -n "$want" ] && [ "$want" = "$have" ]; then
      chmod 0755 "$tmp/$asset"
      # The asset is self-contained (it needs glibc and libcurl.so.4 only, scripts/release);
      # still, use it only if it starts here (another libc, a stripped-down image).
      if "$tmp/$asset" --version >/dev/null 2>&1; then
        install -m 0755 "$tmp/$asset" "$bin_dir/runner"
        rm -rf "$tmp"
        echo "review-action: using release $version ($asset, sha256 $have)"
        out need-build false
        exit 0
      fi
      why=$("$tmp/$asset" --version 2>&1 | head -n 1)
      echo "review-action: the release asset $asset does not start on this runner image ($why); building from source"
    else
      echo "::warning title=review-action::the release asset $asset for $version does not match its sha256; building from source instead"
    fi
  else
    echo "review-action: no release asset $asset for $version; building from source"
  fi
  rm -rf "$tmp"
fi

# Hash of everything that goes into the binary, for the cache key.
hash=$(cd "$action_path" &&
  find CMakeLists.txt cmake dsl runner rulesets scripts -type f 2>/dev/null | LC_ALL=C sort |
  xargs -d '\n' sha256sum | sha256sum | awk '{print $1}')
out source-hash "$hash"
out need-build true

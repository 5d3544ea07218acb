#!/usr/bin/env bash
# Is the runner binary self-contained? Three checks, for the release asset (scripts/release) and
# the binary a source build or a cache restore puts in place (the same link settings,
# cmake/static_deps.cmake):
#   1. NEEDED (readelf -d) lists only glibc's libraries, its loader and libcurl.so.4 (which the
#      hosted ubuntu-24.04 image ships as libcurl4t64).
#   2. ldd resolves nothing beyond libcurl's own closure and glibc: no RE2, abseil, tree-sitter,
#      yaml-cpp, libstdc++ or libgcc_s.
#   3. It runs -- --version, `list`, and a review of a small diff with a shipped ruleset -- in a
#      chroot that holds only the binary, glibc and libcurl's closure, so the -dev packages' shared
#      libraries cannot be found even by absolute path.
#
#   tests/release/self_contained.sh BINARY
# Prints "N passed, M failed"; exits 1 when a check failed, 77 (skipped) when the tools it needs
# (readelf, ldd) are missing. Check 3 needs root or an unprivileged user namespace; without either
# it is reported as skipped and the others still count.
set -uo pipefail
bin=${1:?usage: self_contained.sh BINARY}
[ -x "$bin" ] || { echo "FAIL: $bin is not an executable file"; echo "0 passed, 1 failed"; exit 1; }
if ! command -v readelf >/dev/null || ! command -v ldd >/dev/null; then echo "skipped: readelf or ldd missing"; exit 77; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# ---- 1. NEEDED against the allow-list ----
allowed='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libcurl\.so\.4)$'
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
[ -n "$needed" ] || bad "readelf -d shows no NEEDED entry (is $bin a dynamic ELF file?)"
extra=$(grep -Ev "$allowed" <<< "$needed" || true)
if [ -z "$extra" ]; then ok; else bad "NEEDED outside the allow-list: $(tr '\n' ' ' <<< "$extra")"; fi
if grep -qx 'libcurl.so.4' <<< "$needed"; then ok; else bad "libcurl.so.4 is not NEEDED (the GitHub client needs it)"; fi

# ---- 2. ldd resolution: nothing beyond libcurl's closure and glibc ----
resolved() { ldd "$1" 2>&1 | awk '/=>/ {print $1 " " $3} !/=>/ && /^\t\// {print $1 " " $1}'; }
lddout=$(ldd "$bin" 2>&1)
if grep -q 'not found' <<< "$lddout"; then bad "ldd: $(grep 'not found' <<< "$lddout" | tr -s '\t ' ' ')"; else ok; fi
forbidden=$(grep -Eo '(libre2|libabsl_[a-z0-9_]+|libtree-sitter|libyaml-cpp|libstdc\+\+|libgcc_s)\.so[.0-9]*' <<< "$lddout" | sort -u)
if [ -z "$forbidden" ]; then ok; else bad "ldd resolves libraries the binary should carry: $(tr '\n' ' ' <<< "$forbidden")"; fi
curl_so=$(awk '$1 == "libcurl.so.4" {print $2}' <<< "$(resolved "$bin")")
if [ -z "$curl_so" ] || [ ! -e "$curl_so" ]; then
  bad "libcurl.so.4 does not resolve"
  echo "$passed passed, $failed failed"; exit 1
fi
closure=$( { echo "libcurl.so.4 $curl_so"; resolved "$curl_so"; } | sort -u)
outside=$(resolved "$bin" | awk '{print $1}' | while read -r so; do
  grep -q "^$so " <<< "$closure" || echo "$so"; done | grep -Ev '^(libc|libm|libpthread|libdl|librt)\.so|^linux-vdso|ld-linux' || true)
if [ -z "$outside" ]; then ok; else bad "libraries neither glibc nor libcurl's: $(tr '\n' ' ' <<< "$outside")"; fi

# ---- 3. a run in a root that holds only the binary, glibc and libcurl's closure ----
root="$tmp/root"
mkdir -p "$root/bin" "$root/tmp" "$root/work"
copy() { local f; f=$(readlink -f "$1"); mkdir -p "$root$(dirname "$1")"; cp "$f" "$root$1"; }
while read -r _ path; do [ -e "$path" ] && copy "$path"; done <<< "$closure"
for so in $(resolved "$bin" | awk '{print $2}'); do
  case "$(basename "$so")" in libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) copy "$so" ;; esac
done
cp "$bin" "$root/bin/runner"
cat > "$root/work/change.diff" <<'EOF'
diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -1,2 +1,3 @@
 def launch(x):
+    print("debug")
     return x
EOF
jail=()
chroot_bin=$(command -v chroot || true)
if [ "$(id -u)" = 0 ] && [ -n "$chroot_bin" ]; then
  jail=("$chroot_bin" "$root")
elif [ -n "$chroot_bin" ] && command -v unshare >/dev/null && unshare -r true 2>/dev/null; then
  jail=("$(command -v unshare)" -r "$chroot_bin" "$root")
fi
if [ ${#jail[@]} -eq 0 ]; then
  echo "skipped: the chroot run (needs root or an unprivileged user namespace)"
else
  # The -dev packages' libraries must really be absent from the root.
  if find "$root" -name 'libre2*' -o -name 'libtree-sitter*' -o -name 'libyaml-cpp*' -o -name 'libstdc++*' \
       -o -name 'libgcc_s*' | grep -q .; then bad "the chroot holds a library it should not"; else ok; fi
  v=$(env -i PATH=/bin "${jail[@]}" /bin/runner --version 2>&1); rc=$?
  if [ $rc = 0 ] && [ -n "$v" ]; then ok; else bad "chroot: runner --version exited $rc: $v"; fi
  l=$(env -i PATH=/bin "${jail[@]}" /bin/runner list 2>&1); rc=$?
  if [ $rc = 0 ] && grep -q atom <<< "$l"; then ok; else bad "chroot: runner list exited $rc: $l"; fi
  r=$(env -i PATH=/bin HOME=/tmp "${jail[@]}" /bin/runner --ruleset atom --diff /work/change.diff \
        --format json --fail-on never 2>"$tmp/err"); rc=$?
  # the report on stdin, not as an argument: one argument is at most 128 KiB (MAX_ARG_STRLEN),
  # and the JSON carries every rule's description
  if [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["verdict"] in ("lgtm","needs-work","block")' <<< "$r" 2>/dev/null; then
    ok
  else
    bad "chroot: a review of a diff exited $rc: $(head -c 400 "$tmp/err") $(head -c 200 <<< "$r")"
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# The install suite: what a writer without Swift gets from a release.
#  1. `bash .ci/release` makes the static program, the Debian package, the
#     .vsix and the checksums, and the checksums hold.
#  2. The program runs in a root holding only what `ldd` names for it
#     (.ci/clean-root): the CLI and a whole LSP session.
#  3. The .vsix carries the program and the extension starts it with no
#     setting and no carrel on PATH (editors/vscode/tests/packaging.test.js).
#  4. `dpkg -i` installs the package into a copy-on-write view of this very
#     machine (an overlay of /, in a mount namespace of its own, with the Swift
#     toolchain hidden), where Neovim, Vim and Emacs start with an empty HOME
#     and show a library's projects (.ci/installed-editors); then `dpkg -P`
#     removes every file. The view goes away after, so the machine is left
#     exactly as found, even when a step fails half-way.
# Needs root, dpkg-deb, strip, node, emacs, vim and nvim; without them the
# suite is skipped with a message, except under CI=true, where it fails.
# Ends with "N passed, N failed"; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

missing=""
for tool in swift dpkg-deb dpkg strip node emacs vim nvim unshare chroot sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
[ "$(id -u)" -eq 0 ] || missing="$missing root"
if [ -n "$missing" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "The install suite needs:$missing (.ci/run installs them)." >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: the install suite needs:$missing (apt-get install dpkg binutils; run as root)."
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi

work=$(mktemp -d)
view="$work/view"
cleanup() {
  # The overlay lives in its own mount namespace and ends with it; only
  # the files of its upper layer remain, under $work.
  rm -rf "$work"
}
trap cleanup EXIT
log="$work/log"
touch "$log"
passed=0
failed=0
ok() { echo "ok: $*" | tee -a "$log"; }
fail() { echo "FAIL: $*" | tee -a "$log"; }

echo "== release"
release="$work/release"
if bash .ci/release "$release"; then
  ok "bash .ci/release wrote $(cd "$release" && echo *)"
  if (cd "$release" && sha256sum --quiet -c SHA256SUMS); then ok "SHA256SUMS holds"; else fail "SHA256SUMS does not hold"; fi
else
  fail "bash .ci/release failed"
  echo "0 passed, 1 failed"
  exit 1
fi
deb=$(echo "$release"/carrel_*.deb)
vsix=$(echo "$release"/carrel-*.vsix)

echo "== a clean root"
bash .ci/clean-root "$release/carrel" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || grep -q '^FAIL' "$log" || fail ".ci/clean-root failed"

echo "== the .vsix"
CARREL="$release/carrel" CARREL_VSIX="$vsix" bash editors/vscode/tests/run.sh packaging 2>&1 | tee "$work/vscode.txt"
if line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$work/vscode.txt" | tail -n 1); then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3 | tr -d ,)))
else
  fail "the .vsix tests gave no summary line"
fi

echo "== each editor's own channel"
library="$work/library"
cp -R Tests/SampleLibrary "$library"
# lazy.nvim: the README's spec, with this clone as the folder lazy.nvim
# would clone, run in a Neovim with no other plugins.
out="$work/lazy.txt"
(cd "$library" && HOME="$work/home-lazy" timeout 60 nvim --headless --clean -c "lua
  local text = io.open('$top/editors/nvim/README.md'):read('*a')
  local spec = load('return ' .. text:match('%*%*lazy%.nvim%*%*.-\`\`\`lua\n(.-)\`\`\`'))()
  spec.config({ dir = '$top' }, vim.tbl_extend('force', spec.opts, { cmd = '$release/carrel', libraries = { '$library' } }))
  vim.cmd('Carrel')
  local function rows() return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n') end
  vim.wait(30000, function() return rows():find('Winter Novel', 1, true) ~= nil end, 50)
  vim.fn.writefile(vim.split(rows(), '\n'), '$out')" -c 'qa!' </dev/null >/dev/null 2>&1)
if grep -q 'The Lighthouse' "$out" 2>/dev/null && grep -q 'Winter Novel' "$out"; then
  ok "Neovim: the README's lazy.nvim spec gives :Carrel and the library's projects"
else
  fail "Neovim: the README's lazy.nvim spec: $(cat "$out" 2>/dev/null)"
fi
# Emacs: the release's carrel.el through package-install-file, then a
# fresh start with that HOME has M-x carrel.
mkdir -p "$work/home-emacs"
if HOME="$work/home-emacs" timeout 60 emacs --batch \
  --eval "(progn (require 'package) (package-install-file \"$release/carrel.el\"))" >"$work/emacs.txt" 2>&1 \
  && HOME="$work/home-emacs" timeout 60 emacs --batch --eval "(progn (package-activate-all)
    (unless (and (package-installed-p 'carrel) (commandp 'carrel)) (kill-emacs 1)))" >>"$work/emacs.txt" 2>&1; then
  ok "Emacs: package-install-file takes the release's carrel.el, and M-x carrel is there after"
else
  fail "Emacs: package-install-file: $(cat "$work/emacs.txt")"
fi

echo "== the Debian package, installed"
mkdir -p "$view" "$work/upper" "$work/scratch"
# Inside: / seen through an overlay whose changes land in $work/upper, the
# toolchain hidden under an empty folder, then dpkg and the editors.
unshare --mount bash -s "$view" "$work" "$deb" "$library" "$top" <<'INSIDE' 2>&1 | tee -a "$log"
set -uo pipefail
view=$1 work=$2 deb=$3 library=$4 top=$5
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; }
mount --make-rprivate /
mount -t overlay overlay -o "lowerdir=/,upperdir=$work/upper,workdir=$work/scratch" "$view" || { fail "no overlay of /"; exit 1; }
mount --rbind /dev "$view/dev"
mount -t proc proc "$view/proc"
swift=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
mount -t tmpfs tmpfs "$view$swift"
in_view() { chroot "$view" "$@"; }
if in_view dpkg -i "$deb" >"$work/dpkg.txt" 2>&1; then ok "dpkg -i $(basename "$deb")"; else fail "dpkg -i: $(cat "$work/dpkg.txt")"; fi
in_view bash "$top/.ci/installed-editors" "$library"
in_view dpkg -P carrel >"$work/dpkg.txt" 2>&1 || fail "dpkg -P: $(cat "$work/dpkg.txt")"
left=""
for path in /usr/bin/carrel /usr/share/vim/vimfiles/pack/carrel /usr/share/nvim/site/pack/carrel \
  /usr/share/emacs/site-lisp/carrel /etc/emacs/site-start.d/50carrel.el /usr/share/doc/carrel; do
  [ -e "$view$path" ] && left="$left $path"
done
if [ -z "$left" ]; then ok "dpkg -P carrel removes every file it installed"; else fail "dpkg -P left$left"; fi
INSIDE
[ -e /usr/bin/carrel ] && dpkg -s carrel >/dev/null 2>&1 && fail "the package reached the real machine"

passed=$((passed + $(grep -c '^ok: ' "$log")))
failed=$((failed + $(grep -c '^FAIL' "$log")))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

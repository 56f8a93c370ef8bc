#!/usr/bin/env bash
# Formatters and linters, one count per tool, ending in "N passed, N failed"
# like the other runners, and non-zero when any tool finds something:
#   swift-format   `lint --strict` with the committed .swift-format, over
#                  Sources, Tests and Package.swift (it ships in the toolchain);
#   luacheck       every Lua file under editors/, with editors/nvim/.luacheckrc;
#   Lua lines      at most 120 characters. stylua, the Lua formatter, is on
#                  neither PyPI nor Debian, and the npm registry is not
#                  reachable here, so only its line length is checked;
#   node --check   the syntax of every JavaScript file of the VS Code plugin and of .ci/.
#                  Checking `// @ts-check` JSDoc types needs tsc, from npm,
#                  which is not available here either.
# The Vim9 script of a Vim plugin has no linter that understands it.
# SWIFT_FORMAT and LUACHECK override the tools' paths.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0

# Runs one tool: its output is shown only when it fails.
check() {
  local name=$1
  shift
  local out
  if out=$("$@" 2>&1); then
    echo "ok     $name"
    passed=$((passed + 1))
  else
    echo "FAILED $name"
    echo "$out" | head -n 200
    failed=$((failed + 1))
  fi
}

# A tool that is not installed fails its count: a missing linter must not
# look like a clean tree.
missing() {
  echo "FAILED $1: $2 not found"
  failed=$((failed + 1))
}

swift_format=${SWIFT_FORMAT:-$(command -v swift-format || echo /opt/swift/usr/bin/swift-format)}
if [ -x "$swift_format" ]; then
  check "swift-format" "$swift_format" lint --strict --parallel --recursive \
    --configuration .swift-format Sources Tests Package.swift
else
  missing "swift-format" "$swift_format"
fi

mapfile -t lua_files < <(find editors -name '*.lua' -not -path '*/node_modules/*' | sort)
luacheck=${LUACHECK:-$(command -v luacheck || true)}
if [ -n "$luacheck" ]; then
  check "luacheck" "$luacheck" --no-color --codes --config editors/nvim/.luacheckrc "${lua_files[@]}"
else
  missing "luacheck" "luacheck"
fi

# Characters, not bytes: grep counts characters in a UTF-8 locale.
long_lua_lines() {
  local long
  long=$(LC_ALL=C.UTF-8 grep -nE '^.{121,}' "${lua_files[@]}")
  [ -z "$long" ] && return 0
  echo "$long" | cut -c1-160
  echo "$(echo "$long" | wc -l) Lua lines over 120 characters"
  return 1
}
check "Lua lines ≤ 120" long_lua_lines

node_check() {
  local status=0 file
  while IFS= read -r file; do
    node --check "$file" || status=1
  done < <(find editors/vscode .ci \( -name '*.js' -o -name '*.mjs' \) -not -path '*/node_modules/*' | sort)
  return $status
}
if command -v node > /dev/null; then
  check "node --check" node_check
else
  missing "node --check" "node"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

-- luacheck configuration for the Neovim plugin and its tests (run by Tests/lint.sh).
-- Neovim runs LuaJIT (Lua 5.1) with the `vim` global; the plugin sets
-- fields on `vim` (vim.g, vim.bo, vim.opt...), so it is writable.
std = 'luajit'
globals = { 'vim' }
-- Tests/lint.sh checks line length itself (120 characters), once, for
-- every Lua file; luacheck would report the same lines again.
max_line_length = false
-- Callbacks take the arguments Neovim passes, used or not.
unused_args = false

-- A clean Neovim for the tests: only this plugin on the runtimepath.
local plugin = assert(vim.env.CARREL_NVIM_PLUGIN, 'run the tests with tests/run.sh')
-- Keep Neovim's own runtime (and its bundled parsers in lib/nvim), drop site and config folders.
local own = vim.tbl_filter(function(dir)
  return vim.startswith(dir, vim.env.VIMRUNTIME) or dir:match('/lib/nvim$') ~= nil
end, vim.opt.runtimepath:get())
vim.opt.runtimepath = vim.list_extend({ plugin }, own)
vim.opt.packpath = { vim.env.VIMRUNTIME }
package.path = plugin .. '/tests/?.lua;' .. package.path
vim.o.swapfile = false
vim.o.shadafile = 'NONE'
vim.o.more = false
vim.o.columns = 160
vim.o.lines = 50
vim.cmd('runtime plugin/carrel.lua')

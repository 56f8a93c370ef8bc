-- A clean Neovim for the tests: only this plugin on the runtimepath.
local plugin = assert(vim.env.CARREL_NVIM_PLUGIN, 'run the tests with tests/run.sh')
vim.opt.runtimepath = { plugin, vim.env.VIMRUNTIME }
vim.opt.packpath = { vim.env.VIMRUNTIME }
package.path = plugin .. '/tests/?.lua;' .. package.path
vim.o.swapfile = false
vim.o.shadafile = 'NONE'
vim.o.more = false
vim.o.columns = 160
vim.o.lines = 50
vim.cmd('runtime plugin/carrel.lua')

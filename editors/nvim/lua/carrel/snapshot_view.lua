-- A snapshot beside its file in Neovim's own diff view, and open buffers
-- brought back to what a rollback left on disk.
local util = require('carrel.util')

local M = {}

--- The snapshot's text, read only when it is still the plain file the
--- server vetted: reading a pipe put in its place would hang Neovim.
local function snapshot_lines(path)
  local stat = vim.uv.fs_lstat(path)
  if not stat or stat.type ~= 'file' then return nil end
  return vim.fn.readfile(path)
end

--- A new tab: the snapshot on the left, read-only, the file on the right,
--- both in diff mode. The snapshot is a scratch buffer, so it is never
--- attached to the server as one of the writer's files, nor written.
function M.open(snapshot, file)
  local lines = snapshot_lines(snapshot.path)
  if not lines then
    return util.notify(('The snapshot “%s” is no longer a file Carrel can show.'):format(snapshot.name),
      vim.log.levels.ERROR)
  end
  vim.cmd.tabnew()
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  pcall(vim.api.nvim_buf_set_name, buf, 'carrel-snapshot://' .. snapshot.path)
  local filetype = vim.filetype.match({ filename = file })
  if filetype then vim.bo[buf].filetype = filetype end
  vim.bo[buf].modifiable = false
  vim.bo[buf].readonly = true
  vim.cmd.diffthis()
  vim.cmd('rightbelow vsplit ' .. vim.fn.fnameescape(file))
  vim.cmd.diffthis()
end

--- Reloads every unmodified buffer of `path` from the disk; a modified one
--- is left alone (the server refuses a rollback over unsaved changes anyway).
function M.reload(path)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local same = vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == ''
      and vim.fs.normalize(vim.api.nvim_buf_get_name(buf)) == path
    if same and not vim.bo[buf].modified then
      vim.api.nvim_buf_call(buf, function() vim.cmd('silent! edit') end)
    end
  end
end

return M

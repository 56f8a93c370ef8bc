-- Open buffers follow their files wherever they move, into the Trash too, and leave when the file is deleted.
local util = require('carrel.util')

local M = {}

-- Listed buffers that were never loaded count too (`nvim One.md Two.md`
-- lists Two.md unread): left at the old path, visiting one later and
-- writing would bring the file back beside the moved one.
local function file_buffers()
  return vim.tbl_filter(function(buf)
    local open = vim.api.nvim_buf_is_loaded(buf) or vim.bo[buf].buflisted
    return open and vim.bo[buf].buftype == '' and vim.api.nvim_buf_get_name(buf) ~= ''
  end, vim.api.nvim_list_bufs())
end

--- Renames the buffer, keeping its text, unsaved edits and undo history.
function M.rename_buffer(buf, new_path)
  local old_path = vim.api.nvim_buf_get_name(buf)
  if old_path == new_path then return end
  -- A buffer never loaded holds no text: it is replaced by one listed at the
  -- new path, since a renamed one stays "not edited" and its first :write
  -- would refuse with E13; calling into it to clear that would load it.
  if not vim.api.nvim_buf_is_loaded(buf) then
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
    local moved = vim.fn.bufadd(new_path)
    vim.bo[moved].buflisted = true
    return
  end
  local alternate = vim.fn.bufnr('#')
  vim.api.nvim_buf_set_name(buf, new_path)
  -- Renaming marks the buffer "not edited", and the next :write would refuse
  -- with E13 because the file exists (the server put it there). A write that
  -- our own BufWriteCmd swallows clears that mark without touching the disk.
  local swallow = vim.api.nvim_create_autocmd('BufWriteCmd', { buffer = buf, callback = function() end })
  vim.api.nvim_buf_call(buf, function() pcall(vim.cmd, 'silent keepalt write!') end)
  pcall(vim.api.nvim_del_autocmd, swallow)
  -- nvim_buf_set_name leaves an unlisted buffer holding the old name.
  for _, leftover in ipairs(vim.api.nvim_list_bufs()) do
    local stale = vim.api.nvim_buf_get_name(leftover) == old_path and not vim.api.nvim_buf_is_loaded(leftover)
    if leftover ~= buf and stale then
      pcall(vim.api.nvim_buf_delete, leftover, { force = true })
    end
  end
  if alternate ~= -1 and alternate ~= buf and vim.api.nvim_buf_is_valid(alternate) then
    pcall(vim.fn.setreg, '#', alternate)
  end
end

local function leave(buf)
  local name = util.basename(vim.api.nvim_buf_get_name(buf))
  if vim.bo[buf].modified then
    util.notify(('“%s” no longer exists on disk; its unsaved changes stay in its buffer. '
      .. 'Write it with :w or :saveas, or drop it with :bwipeout!.'):format(name), vim.log.levels.WARN)
    return
  end
  -- Keep the window layout: show another buffer in windows that showed this one.
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.api.nvim_win_call(win, function()
      local alternate = vim.fn.bufnr('#')
      local other = alternate ~= -1 and alternate ~= buf and vim.api.nvim_buf_is_valid(alternate)
      if other and vim.bo[alternate].buflisted then
        vim.api.nvim_win_set_buf(win, alternate)
      else
        vim.api.nvim_win_set_buf(win, vim.api.nvim_create_buf(true, false))
      end
    end)
  end
  pcall(vim.api.nvim_buf_delete, buf, { force = false })
end

--- A file that moves, into the Trash as anywhere else, takes its buffers
--- along, so saving never brings the old path back; a deleted one closes
--- its unmodified buffers.
function M.apply(changes)
  for _, change in ipairs(changes) do
    if change.type == 'deleted' then
      local gone = util.path_of(change.uri)
      for _, buf in ipairs(file_buffers()) do
        if util.relative(vim.api.nvim_buf_get_name(buf), gone) then leave(buf) end
      end
    elseif change.type == 'moved' and change.oldUri then
      local old, new = util.path_of(change.oldUri), util.path_of(change.uri)
      for _, buf in ipairs(file_buffers()) do
        local rest = util.relative(vim.api.nvim_buf_get_name(buf), old)
        if rest then M.rename_buffer(buf, new .. rest) end
      end
    end
  end
end

return M

-- `:Carrel rename|move|delete|reveal` act on the file of the current buffer.
local util = require('carrel.util')

local M = {}

--- The current buffer's file, when it lies in a library.
local function current_file()
  local path = vim.fs.normalize(vim.api.nvim_buf_get_name(0))
  if vim.bo.buftype ~= '' or path == '' then
    util.notify('This buffer is not a file.', vim.log.levels.WARN)
    return nil
  end
  for _, library in ipairs(require('carrel.client').libraries()) do
    if util.relative(path, library) then return path end
  end
  local libraries = table.concat(require('carrel.client').libraries(), ', ')
  util.notify(('“%s” is not in a Carrel library (%s).'):format(util.basename(path), libraries), vim.log.levels.WARN)
  return nil
end

function M.rename()
  local path = current_file()
  if path then require('carrel.actions').rename_uri(util.uri_of(path), util.basename(path)) end
end

function M.move()
  local path = current_file()
  if path then require('carrel.actions').move_uri(util.uri_of(path), util.basename(path)) end
end

function M.delete()
  local path = current_file()
  if path then require('carrel.actions').delete_uri(util.uri_of(path)) end
end

function M.reveal()
  local path = current_file()
  if not path then return end
  local tree = require('carrel.tree')
  tree.open()
  tree.reveal(path)
end

function M.ask_before_deleting()
  local row = require('carrel.tree').current_row()
  if vim.api.nvim_get_current_buf() == require('carrel.tree').buffer() and row then
    return require('carrel.actions').ask_before_deleting(row)
  end
  local path = current_file()
  if path then require('carrel.actions').ask_before_deleting_uri(util.uri_of(path)) end
end

--- Link Updates for the row under the cursor in the binder, else for the
--- current file's row (the binder must have shown it: the row says the mode now).
function M.link_updates()
  local tree = require('carrel.tree')
  local row = tree.current_row()
  if not (vim.api.nvim_get_current_buf() == tree.buffer() and row) then
    local path = current_file()
    local uri = path and util.uri_of(path)
    row = nil
    for _, r in ipairs(tree.rows()) do
      if uri and r.node.uri == uri then row = r break end
    end
  end
  require('carrel.actions').link_updates(row)
end

return M

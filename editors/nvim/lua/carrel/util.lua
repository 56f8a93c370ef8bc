-- Small helpers shared by every module: paths, URIs, messages.
local M = {}

function M.notify(message, level)
  vim.notify(message, level or vim.log.levels.INFO, { title = 'Carrel' })
end

--- Wraps a function so a failure reaches the writer as one line, never a stack trace.
function M.guard(fn)
  return function(...)
    local ok, err = xpcall(fn, debug.traceback, ...)
    if not ok then
      -- The full trace goes to the log, where a bug report can find it.
      require('carrel.log').add('error', tostring(err))
      local first = tostring(err):match('^[^\n]*') or ''
      M.notify('Carrel: ' .. first:gsub('^[^:]*:%d+: ', ''), vim.log.levels.ERROR)
    end
  end
end

function M.path_of(uri)
  if type(uri) ~= 'string' then return nil end
  return vim.fs.normalize(vim.uri_to_fname(uri))
end

function M.uri_of(path)
  return vim.uri_from_fname(vim.fs.normalize(path))
end

--- The rest of `path` after `root` ("" when equal, "/x/y" when inside), or nil.
function M.relative(path, root)
  if not path or not root then return nil end
  if path == root then return '' end
  if root == '/' then return path:sub(1) end
  if vim.startswith(path, root .. '/') then return path:sub(#root + 1) end
  return nil
end

function M.basename(path)
  return vim.fs.basename(path)
end

--- The locale word the server understands, from the option or v:lang.
function M.locale()
  local configured = require('carrel').config.locale
  if configured then return configured end
  local lang = vim.v.lang or ''
  local code = lang:match('^(%a%a)')
  return code and code:lower() or 'en'
end

return M

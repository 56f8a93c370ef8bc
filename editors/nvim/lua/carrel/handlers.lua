-- What the server may send us unasked: changes on disk, and its questions.
local M = {}

M['carrel/didChange'] = function(_, params)
  require('carrel.util').guard(function()
    require('carrel.events').did_change(params or {})
  end)()
end

local levels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }

--- What the server reports after a command (a delete, a restore, emptying
--- the Trash), shown as is: the plugin adds no words of its own.
M['window/showMessage'] = function(_, params)
  if type(params) ~= 'table' or type(params.message) ~= 'string' then return end
  require('carrel.util').notify(params.message, levels[params.type] or vim.log.levels.INFO)
end

--- The server's delete confirmations, answered through vim.ui.select.
--- Runs inside the rpc coroutine, so it can wait for the writer's choice.
M['window/showMessageRequest'] = function(_, params)
  local actions = params.actions or {}
  local co, is_main = coroutine.running()
  if not co or is_main then return vim.NIL end
  local answered = false
  vim.ui.select(actions, {
    prompt = params.message,
    kind = 'carrel_confirm',
    format_item = function(action) return action.title end,
  }, function(choice)
    if answered then return end
    answered = true
    -- Scheduled so that a synchronous vim.ui.select resumes only after we yield.
    vim.schedule(function() coroutine.resume(co, choice or vim.NIL) end)
  end)
  return coroutine.yield()
end

return M

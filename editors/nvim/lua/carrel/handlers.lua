-- What the server may send us unasked: changes on disk, and its questions.
local M = {}

M['carrel/didChange'] = function(_, params)
  require('carrel.util').guard(function()
    require('carrel.events').did_change(params and params.changes or {})
  end)()
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

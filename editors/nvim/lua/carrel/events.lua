-- One place reacts to `carrel/didChange`, whatever made the change.
local M = {}

function M.did_change(params)
  if require('carrel').config.follow_buffers then
    require('carrel.follow').apply(params.changes or {})
  end
  require('carrel.tree').on_change(params)
end

return M

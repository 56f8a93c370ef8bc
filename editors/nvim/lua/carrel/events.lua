-- One place reacts to `carrel/didChange`, whatever made the change.
local M = {}

function M.did_change(changes)
  if require('carrel').config.follow_buffers then
    require('carrel.follow').apply(changes)
  end
  require('carrel.tree').on_changes(changes)
end

return M

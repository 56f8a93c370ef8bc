-- Putting the cursor on a row by its path: the folders above it are
-- expanded and fetched on the way, and a row that a change will bring is
-- waited for a moment.
local util = require('carrel.util')
local tree = require('carrel.tree')

local M = {}

local REVEAL_PATIENCE_MS = 3000
local state = tree.state

--- The row among `keys` (looking inside sections, never in "All") that is
--- `path` or holds it; also the section it was found in.
local function toward(keys, path)
  for _, key in ipairs(keys or {}) do
    local entry = state.entries[key]
    if entry then
      local node = entry.node
      if node.kind == 'section' then
        local found = toward(entry.children, path)
        if found then return found, key end
      elseif node.uri and not node.virtual and util.relative(path, util.path_of(node.uri)) then
        return key
      end
    end
  end
  return nil
end

function M.retry()
  local wanted = state.reveal
  if not wanted then return end
  if vim.uv.now() > wanted.deadline then
    state.reveal = nil
    return
  end
  local keys, chain = state.roots, {}
  while true do
    local key, section = toward(keys, wanted.path)
    if not key then break end
    if section then table.insert(chain, section) end
    local entry = state.entries[key]
    if util.path_of(entry.node.uri) == wanted.path then
      state.reveal = nil
      for _, above in ipairs(chain) do state.expanded[above] = true end
      tree.draw(key)
      return
    end
    table.insert(chain, key)
    if not entry.children then
      for _, above in ipairs(chain) do state.expanded[above] = true end
      return tree.fetch(key)
    end
    keys = entry.children
  end
  -- Not listed yet: the `carrel/didChange` that follows a command brings it.
end

--- Expands what is above `path` and puts the cursor on it, fetching the
--- folders on the way and waiting a moment for a row a change will bring.
function M.reveal(path)
  state.reveal = { path = path, deadline = vim.uv.now() + REVEAL_PATIENCE_MS }
  M.retry()
end

return M

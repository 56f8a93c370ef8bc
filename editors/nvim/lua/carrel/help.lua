-- `?` in the sidebar: the keys, as configured, in a float.
local M = {}

function M.lines()
  local keys = require('carrel').config.keys
  local actions = require('carrel.actions')
  local rank = {}
  for index, action in ipairs(actions.order) do rank[action] = index end
  local bound = vim.tbl_filter(function(lhs) return keys[lhs] ~= false end, vim.tbl_keys(keys))
  table.sort(bound, function(a, b)
    local ra, rb = rank[keys[a]] or math.huge, rank[keys[b]] or math.huge
    if ra ~= rb then return ra < rb end
    return a < b
  end)
  local lines = { ' Carrel keys', '' }
  local has_key = {}
  for _, lhs in ipairs(bound) do
    local action = keys[lhs]
    local text = type(action) == 'string' and actions.descriptions[action] or 'your function'
    if type(action) == 'string' then has_key[action] = true end
    table.insert(lines, (' %-6s %s'):format(lhs, text))
  end
  -- Turning the question back on is rare enough to have no key, and the
  -- writer who said "Don't Ask Again" must still find how.
  if not has_key.ask_before_deleting then
    table.insert(lines, '')
    table.insert(lines, ' :Carrel ask_before_deleting  ' .. actions.descriptions.ask_before_deleting)
  end
  table.insert(lines, '')
  table.insert(lines, ' :help carrel for commands and options. q closes.')
  return lines
end

function M.show()
  local lines = M.lines()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  local width = 0
  for _, line in ipairs(lines) do width = math.max(width, vim.fn.strdisplaywidth(line) + 1) end
  local win = vim.api.nvim_open_win(buf, true, {
    relative = 'editor', style = 'minimal', border = 'rounded',
    width = math.min(width, vim.o.columns - 4), height = math.min(#lines, vim.o.lines - 4),
    row = math.max(1, math.floor((vim.o.lines - #lines) / 2) - 1),
    col = math.max(1, math.floor((vim.o.columns - width) / 2)),
    title = ' Carrel ', title_pos = 'center',
  })
  for _, lhs in ipairs({ 'q', '<Esc>', '?' }) do
    vim.keymap.set('n', lhs, function() pcall(vim.api.nvim_win_close, win, true) end, { buffer = buf, nowait = true })
  end
  return buf, win
end

return M

-- A ring buffer of the raw JSON-RPC bodies exchanged with the server, for `:Carrel log`.
local M = {}

local entries, next_slot, count = {}, 1, 0

local function capacity()
  local ok, carrel = pcall(require, 'carrel')
  return ok and carrel.config.log_size or 2000
end

--- direction: "→" (to the server), "←" (from it), "stderr" or "error".
--- Safe to call from libuv callbacks: it touches no editor state.
function M.add(direction, text)
  local size = capacity()
  if size <= 0 then return end
  entries[next_slot] = { time = os.date('%H:%M:%S'), direction = direction, text = text }
  next_slot = next_slot % size + 1
  count = math.min(count + 1, size)
end

--- Oldest first.
function M.entries()
  local size = capacity()
  local list = {}
  local start = count < size and 1 or next_slot
  for i = 0, count - 1 do
    local entry = entries[(start - 1 + i) % size + 1]
    if entry then table.insert(list, entry) end
  end
  return list
end

function M.clear()
  entries, next_slot, count = {}, 1, 0
end

function M.lines()
  local lines = {}
  for _, entry in ipairs(M.entries()) do
    for i, line in ipairs(vim.split(entry.text, '\n', { trimempty = true })) do
      local prefix = i == 1 and (entry.time .. ' ' .. entry.direction .. ' ') or '    '
      table.insert(lines, prefix .. line)
    end
  end
  return lines
end

--- Opens (or refreshes) the log buffer in a split.
function M.show()
  local name = 'carrel://log'
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].bufhidden = 'hide'
    vim.keymap.set('n', 'R', M.show, { buffer = buf, desc = 'Refresh the Carrel log' })
    vim.keymap.set('n', 'q', '<cmd>close<cr>', { buffer = buf, desc = 'Close the Carrel log' })
  end
  vim.bo[buf].modifiable = true
  local lines = M.lines()
  if #lines == 0 then lines = { 'No messages yet: open the sidebar with :Carrel.' } end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, buf)
    win = vim.api.nvim_get_current_win()
  end
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
  return buf
end

return M

-- Highlights for the sidebar's rows, painted where the writer looks first.
local M = {}

local PAINT_SLICE = 1000 -- rows highlighted per turn of the event loop
local generation = 0

local function paint_rows(buf, namespace, marks, from, to)
  for index = from, to do
    for _, span in pairs(marks[index] or {}) do
      if span and span[3] > span[2] then
        local mark = { end_col = span[3], hl_group = span[1] }
        vim.api.nvim_buf_set_extmark(buf, namespace, index - 1, span[2], mark)
      end
    end
  end
end

--- Highlights the rows in view at once and the rest in slices, one per turn
--- of the event loop, so a long listing never holds up typing. A newer
--- draw stops an older one's slices.
function M.paint(buf, namespace, marks, win)
  generation = generation + 1
  local own = generation
  local first, last = 1, 0
  if win then
    first = math.max(1, vim.fn.line('w0', win) - 10)
    last = math.min(#marks, first + vim.api.nvim_win_get_height(win) + 20)
    paint_rows(buf, namespace, marks, first, last)
  end
  local pending = { { 1, first - 1 }, { last + 1, #marks } }
  local function slice()
    if own ~= generation or not vim.api.nvim_buf_is_valid(buf) then return end
    local range = pending[1]
    while range and range[1] > range[2] do
      table.remove(pending, 1)
      range = pending[1]
    end
    if not range then return end
    local to = math.min(range[2], range[1] + PAINT_SLICE - 1)
    paint_rows(buf, namespace, marks, range[1], to)
    range[1] = to + 1
    vim.schedule(slice)
  end
  -- Small listings are painted whole now: nothing is left for later.
  if #marks <= PAINT_SLICE then
    paint_rows(buf, namespace, marks, 1, first - 1)
    paint_rows(buf, namespace, marks, last + 1, #marks)
    return
  end
  vim.schedule(slice)
end

return M

-- The sidebar: its window and buffer, what is expanded, and drawing the rows.
local util = require('carrel.util')
local client = require('carrel.client')
local render = require('carrel.render')

local M = {}

local BUFFER_NAME = 'carrel://tree'
local SEPARATOR = ' › '
local namespace = vim.api.nvim_create_namespace('carrel_tree')

local state = {
  buf = nil,
  roots = nil, -- the last `carrel/tree` answer
  rows = {}, -- the visible rows, one per line
  expanded = {}, -- row id → true/false where the writer changed the default
  titles = {}, -- path → title, for breadcrumbs
  refreshing = false,
  refresh_again = false,
  after_refresh = {},
}

M.state = state

local function config() return require('carrel').config end

--- A row id is the chain of paths (or section names) from the root, so the
--- same file shown in Draft and in "All" are two rows.
function M.row_id(parent_id, node)
  local part = node.uri and util.path_of(node.uri) or ('#' .. node.name)
  return parent_id and (parent_id .. '\n' .. part) or part
end

local function expanded_by_default(node)
  return node.kind == 'library' or node.kind == 'project' or node.kind == 'section'
end

function M.is_expanded(id, node)
  local choice = state.expanded[id]
  if choice == nil then return expanded_by_default(node) end
  return choice
end

function M.set_expanded(id, value) state.expanded[id] = value end

--- Visits every node of the last tree, calling fn(row) with a row
--- { node, id, parent = parent row, depth }; fn returning false skips the children.
function M.walk(fn)
  local function visit(nodes, parent, depth)
    for _, node in ipairs(nodes or {}) do
      local row = { node = node, id = M.row_id(parent and parent.id, node), parent = parent, depth = depth }
      if fn(row) ~= false then visit(node.children, row, depth + 1) end
    end
  end
  visit(state.roots, nil, 0)
end

local function visible_rows()
  local rows = {}
  M.walk(function(row)
    table.insert(rows, row)
    return row.node.hasChildren and M.is_expanded(row.id, row.node) or false
  end)
  return rows
end

local function index_titles()
  state.titles = {}
  M.walk(function(row)
    local node = row.node
    if node.uri and not node.virtual then
      local path = util.path_of(node.uri)
      if state.titles[path] == nil then state.titles[path] = node.title or node.name end
    end
    -- "All" repeats files shown elsewhere.
    return not node.virtual or node.kind == 'section'
  end)
end

function M.title_of(path) return state.titles[path] end

function M.window()
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then return nil end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == state.buf then return win end
  end
  return nil
end

function M.buffer() return state.buf end

function M.rows() return state.rows end

function M.current_row()
  local win = M.window()
  if not win then return nil end
  local line = vim.api.nvim_win_get_cursor(win)[1]
  return state.rows[line]
end

--- The breadcrumb of a row: titles from the library down, sections left out.
function M.breadcrumb(row)
  local titles = {}
  while row do
    if row.node.kind ~= 'section' then table.insert(titles, 1, row.node.title or row.node.name) end
    row = row.parent
  end
  return table.concat(titles, SEPARATOR)
end

--- The sidebar's winbar, evaluated at each redraw for the window being drawn.
function M.winbar_text()
  local win = vim.g.statusline_winid or M.window()
  local row = win and vim.api.nvim_win_is_valid(win) and state.rows[vim.api.nvim_win_get_cursor(win)[1]]
  return require('carrel.winbar').format(row and M.breadcrumb(row) or 'Carrel')
end

local function update_tree_winbar()
  local win = M.window()
  if not win then return end
  vim.wo[win].winbar = config().winbar and "%{%v:lua.require'carrel.tree'.winbar_text()%}" or ''
end

local function place_cursor(win, id, fallback_line)
  local line
  for index, row in ipairs(state.rows) do
    if row.id == id then
      line = index
      break
    end
  end
  line = line or math.min(math.max(fallback_line or 1, 1), math.max(#state.rows, 1))
  pcall(vim.api.nvim_win_set_cursor, win, { line, 0 })
end

--- Redraws from the last tree, keeping the cursor on the same row.
function M.render(cursor_id)
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then return end
  local win = M.window()
  local previous = M.current_row()
  local previous_line = win and vim.api.nvim_win_get_cursor(win)[1]
  cursor_id = cursor_id or (previous and previous.id)

  state.rows = visible_rows()
  local lines, marks = {}, {}
  for index, row in ipairs(state.rows) do
    local text, spans = render.line(row, M.is_expanded)
    lines[index] = text
    marks[index] = spans
  end
  if #lines == 0 then
    lines = { state.roots and 'No libraries.' or 'Loading…' }
  end
  vim.bo[state.buf].modifiable = true
  vim.api.nvim_buf_set_lines(state.buf, 0, -1, false, lines)
  vim.bo[state.buf].modifiable = false
  vim.bo[state.buf].modified = false
  vim.api.nvim_buf_clear_namespace(state.buf, namespace, 0, -1)
  for index, spans in pairs(marks) do
    for _, span in pairs(spans) do
      if span and span[3] > span[2] then
        vim.api.nvim_buf_set_extmark(state.buf, namespace, index - 1, span[2], { end_col = span[3], hl_group = span[1] })
      end
    end
  end
  if win then
    place_cursor(win, cursor_id, previous_line)
    update_tree_winbar()
  end
end

--- Asks the server for the whole tree and redraws. `after` runs once drawn.
function M.refresh(after)
  if after then table.insert(state.after_refresh, after) end
  -- One request at a time; a request the server never answered (it died)
  -- stops blocking after a while.
  if state.refreshing and vim.uv.now() - state.refreshing < 10000 then
    state.refresh_again = true
    return
  end
  state.refreshing = vim.uv.now()
  client.tree(function(roots)
    state.refreshing = false
    if not roots then
      state.after_refresh = {}
      return
    end
    state.roots = roots
    index_titles()
    if state.refresh_again then
      state.refresh_again = false
      return M.refresh()
    end
    M.render()
    require('carrel.winbar').update_all()
    local callbacks = state.after_refresh
    state.after_refresh = {}
    for _, callback in ipairs(callbacks) do callback() end
  end)
end

local function remap(id, old, new)
  local parts = vim.split(id, '\n', { plain = true })
  for index, part in ipairs(parts) do
    local rest = util.relative(part, old)
    if rest then parts[index] = new .. rest end
  end
  return table.concat(parts, '\n')
end

--- After `carrel/didChange`: keep expanded folders (following moves) and refresh.
function M.on_changes(changes)
  for _, change in ipairs(changes) do
    if change.type == 'moved' and change.oldUri then
      local old, new = util.path_of(change.oldUri), util.path_of(change.uri)
      local moved = {}
      for id, value in pairs(state.expanded) do
        moved[remap(id, old, new)] = value
      end
      state.expanded = moved
    end
  end
  if state.roots then M.refresh() end
end

local function set_window_options(win)
  local options = {
    number = false, relativenumber = false, wrap = false, spell = false, list = false,
    signcolumn = 'no', foldcolumn = '0', cursorline = true, winfixwidth = true,
  }
  for name, value in pairs(options) do vim.wo[win][name] = value end
end

local function create_buffer()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, BUFFER_NAME)
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'carrel'
  require('carrel.actions').map_keys(buf)
  return buf
end

function M.is_open() return M.window() ~= nil end

function M.open()
  local win = M.window()
  if win then
    vim.api.nvim_set_current_win(win)
    return
  end
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then state.buf = create_buffer() end
  local placement = config().side == 'right' and 'botright' or 'topleft'
  vim.cmd(('%s vertical %dsplit'):format(placement, config().width))
  win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, state.buf)
  set_window_options(win)
  M.render()
  M.refresh()
end

function M.close()
  local win = M.window()
  if not win then return end
  if #vim.api.nvim_tabpage_list_wins(0) == 1 then
    vim.cmd('vertical new')
  end
  vim.api.nvim_win_close(win, true)
end

function M.toggle()
  if M.is_open() then M.close() else M.open() end
end

--- The window where files open: the last other normal window, or a new one.
function M.main_window()
  local tree_win = M.window()
  local previous = vim.fn.win_getid(vim.fn.winnr('#'))
  local function usable(win)
    return win ~= 0 and win ~= tree_win and vim.api.nvim_win_is_valid(win)
      and vim.api.nvim_win_get_config(win).relative == ''
  end
  if usable(previous) then return previous end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if usable(win) then return win end
  end
  if tree_win then vim.api.nvim_set_current_win(tree_win) end
  vim.cmd(config().side == 'right' and 'leftabove vnew' or 'rightbelow vnew')
  local win = vim.api.nvim_get_current_win()
  if tree_win then vim.api.nvim_win_set_width(tree_win, config().width) end
  return win
end

--- Expands everything above `path` and puts the cursor on it. False if absent.
function M.reveal(path)
  local target
  M.walk(function(row)
    if target then return false end
    local node = row.node
    if node.virtual and node.kind ~= 'section' then return false end
    if node.uri and util.path_of(node.uri) == path then
      target = row
      return false
    end
  end)
  if not target then return false end
  local ancestor = target.parent
  while ancestor do
    state.expanded[ancestor.id] = true
    ancestor = ancestor.parent
  end
  M.render(target.id)
  return true
end

--- Forgets everything, for tests and `:Carrel` restarts.
function M.reset()
  M.close()
  if state.buf and vim.api.nvim_buf_is_valid(state.buf) then
    vim.api.nvim_buf_delete(state.buf, { force = true })
  end
  state.buf, state.roots, state.rows, state.expanded, state.titles = nil, nil, {}, {}, {}
  state.refreshing, state.refresh_again, state.after_refresh = false, false, {}
end

return M

-- The sidebar: its window and buffer, and the binder's rows as fetched so far.
-- Rows are fetched lazily (depth 1, or 2 for a project) and kept by the
-- identity the server gives them, so expansion survives every refetch and a
-- change refetches only the expanded folders it touches.
local util = require('carrel.util')
local client = require('carrel.client')
local render = require('carrel.render')

local M = {}

local BUFFER_NAME = 'carrel://tree'
local SEPARATOR = ' › '
local REVEAL_PATIENCE_MS = 3000
local namespace = vim.api.nvim_create_namespace('carrel_tree')

local state = {
  buf = nil,
  roots = nil, -- keys of the roots, once the first answer came
  entries = {}, -- key → { node = the node without children, parent = key, children = keys or nil }
  expanded = {}, -- key → true/false where the writer changed the default
  loading = {}, -- key → callbacks waiting for its fetch
  stale = {}, -- key → true when a change arrived while its fetch was on the way
  rows = {}, -- the visible rows, one per line
  draw_pending = false,
  reveal = nil, -- { path, deadline } a row to put the cursor on once it shows
}

M.state = state

local function config() return require('carrel').config end

--- A row's identity: the server's `id`, else its `uri`.
function M.key_of(node, parent_key)
  return node.id or node.uri or ((parent_key or '') .. '#' .. (node.name or ''))
end

function M.entry(key) return state.entries[key] end

local function bare(node)
  local copy = {}
  for field, value in pairs(node) do
    if field ~= 'children' then copy[field] = value end
  end
  return copy
end

local function forget(key, parent_key)
  local entry = state.entries[key]
  -- The same key may already live under another parent (a move both folders showed).
  if not entry or (parent_key and entry.parent ~= parent_key) then return end
  state.entries[key] = nil
  for _, child in ipairs(entry.children or {}) do forget(child, key) end
end

local function store(node, parent_key)
  local key = M.key_of(node, parent_key)
  local previous = state.entries[key]
  local entry = { node = bare(node), parent = parent_key, children = previous and previous.children or nil }
  state.entries[key] = entry
  if node.children then
    local keys, kept = {}, {}
    for _, child in ipairs(node.children) do
      local child_key = store(child, key)
      table.insert(keys, child_key)
      kept[child_key] = true
    end
    for _, old in ipairs(previous and previous.children or {}) do
      if not kept[old] then forget(old, key) end
    end
    entry.children = keys
  end
  return key
end

local function is_first_section(key, entry)
  local parent = state.entries[entry.parent]
  return parent ~= nil and parent.children ~= nil and parent.children[1] == key
end

--- The first view shows each library's projects and their first section.
local function expanded_by_default(key, entry)
  local kind = entry.node.kind
  if kind == 'library' or kind == 'project' then return true end
  return kind == 'section' and is_first_section(key, entry)
end

function M.is_expanded(key)
  local entry = state.entries[key]
  if not entry then return false end
  local choice = state.expanded[key]
  if choice == nil then return expanded_by_default(key, entry) end
  return choice
end

function M.set_expanded(key, value) state.expanded[key] = value end

--- Whether a row and every row above it are expanded, so its children show.
local function showing_children(key)
  while key do
    if not M.is_expanded(key) then return false end
    key = state.entries[key] and state.entries[key].parent
  end
  return true
end

---------------------------------------------------------------- fetching

local schedule_draw

--- Fetches a row's children: depth 1, depth 2 for a project (its sections
--- list their folders); a section is fetched with its project. With
--- `changed`, a fetch already on its way is followed by one more, since it
--- may have left before the change.
function M.fetch(key, after, changed)
  local entry = state.entries[key]
  if not entry then
    if after then after() end
    return
  end
  if entry.node.kind == 'section' then return M.fetch(entry.parent, after, changed) end
  if state.loading[key] then
    if changed then state.stale[key] = true end
    if after then table.insert(state.loading[key], after) end
    return
  end
  state.loading[key] = { after }
  local depth = entry.node.kind == 'project' and 2 or 1
  client.request('carrel/tree', { uri = entry.node.uri, depth = depth }, function(err, result)
    local waiting = state.loading[key] or {}
    state.loading[key] = nil
    local current = state.entries[key]
    if current and not err and type(result) == 'table' and result[1] then
      store(result[1], current.parent)
    end
    if state.stale[key] and current then
      state.stale[key] = nil
      return M.fetch(key, function() for _, callback in ipairs(waiting) do callback() end end, true)
    end
    schedule_draw()
    for _, callback in ipairs(waiting) do callback() end
  end)
end

--- Fetches the roots (depth 1) and the rows already expanded that show.
function M.refresh(after)
  client.request('carrel/tree', { depth = 1 }, function(err, roots)
    if err or type(roots) ~= 'table' then
      if err then client.report(err) end
      return
    end
    local keys, kept = {}, {}
    for _, root in ipairs(roots) do
      local key = store(root, nil)
      table.insert(keys, key)
      kept[key] = true
    end
    for _, old in ipairs(state.roots or {}) do
      if not kept[old] then forget(old, nil) end
    end
    local first = state.roots == nil
    state.roots = keys
    if not first then
      for key, entry in pairs(state.entries) do
        if entry.parent and entry.children and entry.node.kind ~= 'section' and showing_children(key) then
          M.fetch(key, nil, true)
        end
      end
    end
    M.draw()
    if after then after() end
  end)
end

---------------------------------------------------------------- rows

local function hint_text()
  local key = 'P'
  for lhs, action in pairs(config().keys) do
    if action == 'new_project' then key = lhs end
  end
  return ('No project yet: press %s to make one'):format(key)
end

local function has_project(entry)
  for _, child in ipairs(entry.children or {}) do
    local found = state.entries[child]
    if found and found.node.kind == 'project' then return true end
  end
  return false
end

--- Visits the rows that show, calling fn(row) with { node, id, parent = row, depth }.
--- Expanded rows whose children were never fetched are fetched now.
local function visible_rows()
  local rows = {}
  local function visit(keys, parent, depth)
    for _, key in ipairs(keys or {}) do
      local entry = state.entries[key]
      if entry then
        local row = { node = entry.node, id = key, parent = parent, depth = depth }
        table.insert(rows, row)
        if entry.node.hasChildren and M.is_expanded(key) then
          if entry.children then
            visit(entry.children, row, depth + 1)
          else
            M.fetch(key)
          end
        end
        if entry.node.kind == 'library' and entry.children and M.is_expanded(key) and not has_project(entry) then
          local hint = { kind = 'hint', title = hint_text() }
          table.insert(rows, { node = hint, id = key .. '#hint', parent = row, depth = depth + 1 })
        end
      end
    end
  end
  visit(state.roots, nil, 0)
  return rows
end

--- Every row fetched so far, shown or not, as rows with parents.
function M.walk(fn)
  local function visit(keys, parent, depth)
    for _, key in ipairs(keys or {}) do
      local entry = state.entries[key]
      if entry then
        local row = { node = entry.node, id = key, parent = parent, depth = depth }
        if fn(row) ~= false then visit(entry.children, row, depth + 1) end
      end
    end
  end
  visit(state.roots, nil, 0)
end

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
    if row.node.kind ~= 'section' and row.node.kind ~= 'hint' then
      table.insert(titles, 1, row.node.title or row.node.name)
    end
    row = row.parent
  end
  return table.concat(titles, SEPARATOR)
end

--- The sidebar's winbar, evaluated at each redraw of the sidebar only.
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

local try_reveal

local PAINT_SLICE = 1000 -- rows highlighted per turn of the event loop
local generation = 0

local function paint_rows(marks, from, to)
  for index = from, to do
    for _, span in pairs(marks[index] or {}) do
      if span and span[3] > span[2] then
        local mark = { end_col = span[3], hl_group = span[1] }
        vim.api.nvim_buf_set_extmark(state.buf, namespace, index - 1, span[2], mark)
      end
    end
  end
end

--- Highlights the rows in view at once and the rest in slices, one per turn
--- of the event loop, so a long listing never holds up typing. A newer
--- draw stops an older one's slices.
local function paint(marks, win)
  generation = generation + 1
  local own = generation
  local first, last = 1, 0
  if win then
    first = math.max(1, vim.fn.line('w0', win) - 10)
    last = math.min(#marks, first + vim.api.nvim_win_get_height(win) + 20)
    paint_rows(marks, first, last)
  end
  local pending = { { 1, first - 1 }, { last + 1, #marks } }
  local function slice()
    if own ~= generation or not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then return end
    local range = pending[1]
    while range and range[1] > range[2] do
      table.remove(pending, 1)
      range = pending[1]
    end
    if not range then return end
    local to = math.min(range[2], range[1] + PAINT_SLICE - 1)
    paint_rows(marks, range[1], to)
    range[1] = to + 1
    vim.schedule(slice)
  end
  -- Small listings are painted whole now: nothing is left for later.
  if #marks <= PAINT_SLICE then
    paint_rows(marks, 1, first - 1)
    paint_rows(marks, last + 1, #marks)
    return
  end
  vim.schedule(slice)
end

--- Redraws from the rows fetched so far, keeping the cursor on the same row.
function M.draw(cursor_id)
  state.draw_pending = false
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then return end
  local win = M.window()
  local previous = M.current_row()
  local previous_line = win and vim.api.nvim_win_get_cursor(win)[1]
  cursor_id = cursor_id or (previous and previous.id)

  state.rows = visible_rows()
  local lines, marks = {}, {}
  for index, row in ipairs(state.rows) do
    lines[index], marks[index] = render.line(row, M.is_expanded)
  end
  if #lines == 0 then lines = { state.roots and 'No libraries.' or 'Loading…' } end
  -- Marks cleared first: set_lines would otherwise move every old one.
  vim.api.nvim_buf_clear_namespace(state.buf, namespace, 0, -1)
  vim.bo[state.buf].modifiable = true
  vim.api.nvim_buf_set_lines(state.buf, 0, -1, false, lines)
  vim.bo[state.buf].modifiable = false
  vim.bo[state.buf].modified = false
  paint(marks, win)
  if win then
    place_cursor(win, cursor_id, previous_line)
    update_tree_winbar()
  end
  if state.reveal then try_reveal() end
end

M.render = M.draw

--- Draws once per turn of the event loop, after every message that arrived with it.
schedule_draw = function()
  if state.draw_pending then return end
  state.draw_pending = true
  vim.schedule(function()
    if state.draw_pending then M.draw() end
  end)
end

---------------------------------------------------------------- changes

local function under(uri, root)
  return type(uri) == 'string' and (uri == root or vim.startswith(uri, root .. '/'))
end

local function parent_uri(uri) return uri and uri:match('^(.*)/[^/]*$') end

local function remap_expanded(old, new)
  local moved = {}
  for key, value in pairs(state.expanded) do
    if under(key, old) then moved[new .. key:sub(#old + 1)] = value else moved[key] = value end
  end
  state.expanded = moved
end

local function forget_under(uri)
  for key, entry in pairs(state.entries) do
    if under(entry.node.uri, uri) then state.entries[key] = nil end
  end
end

local function owner_of_settings(uri)
  local entry = state.entries[uri]
  return entry and (entry.node.kind == 'project' or entry.node.kind == 'library')
end

--- The fetched folders whose listing the changes alter.
local function folders_to_fetch(changes)
  local wanted = {}
  local function want_parent(uri)
    local parent = parent_uri(uri)
    local entry = parent and state.entries[parent]
    if entry and entry.children then wanted[parent] = true end
  end
  for _, change in ipairs(changes) do
    if change.type == 'changed' and owner_of_settings(change.uri) then
      for key, entry in pairs(state.entries) do
        local below = entry.children and entry.node.kind ~= 'section' and under(entry.node.uri, change.uri)
        if below then wanted[key] = true end
      end
    else
      want_parent(change.uri)
      if change.oldUri then want_parent(change.oldUri) end
    end
    for key, entry in pairs(state.entries) do
      if entry.node.role == 'all' and entry.children then
        local project = entry.node.uri:gsub('/%.carrel/all$', '')
        if under(change.uri, project) or under(change.oldUri, project) then wanted[key] = true end
      end
    end
  end
  return wanted
end

--- Applies `carrel/didChange`: rows in `updated` are replaced in place; only
--- expanded folders whose listing changed are fetched, once each.
function M.on_change(params)
  if not state.roots then return end
  for _, node in ipairs(params.updated or {}) do
    local entry = state.entries[M.key_of(node)]
    if entry then entry.node = bare(node) end
  end
  local changes = params.changes or {}
  local wanted = folders_to_fetch(changes)
  for _, change in ipairs(changes) do
    if change.type == 'moved' and change.oldUri then
      remap_expanded(change.oldUri, change.uri)
      forget_under(change.oldUri)
    elseif change.type == 'deleted' then
      forget_under(change.uri)
    end
  end
  for key in pairs(wanted) do
    local entry = state.entries[key]
    if entry then
      -- A folder that does not show (or a closed binder) is fetched again only when it shows.
      if M.window() and showing_children(key) then M.fetch(key, nil, true) else entry.children = nil end
    end
  end
  schedule_draw()
end

---------------------------------------------------------------- reveal

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

try_reveal = function()
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
      M.draw(key)
      return
    end
    table.insert(chain, key)
    if not entry.children then
      for _, above in ipairs(chain) do state.expanded[above] = true end
      return M.fetch(key)
    end
    keys = entry.children
  end
  -- Not listed yet: the `carrel/didChange` that follows a command brings it.
end

--- Expands what is above `path` and puts the cursor on it, fetching the
--- folders on the way and waiting a moment for a row a change will bring.
function M.reveal(path)
  state.reveal = { path = path, deadline = vim.uv.now() + REVEAL_PATIENCE_MS }
  try_reveal()
end

---------------------------------------------------------------- window

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
  -- Every redraw replaces the lines; keeping them for undo would grow without end.
  vim.bo[buf].undolevels = -1
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
  M.draw()
  if not state.roots then M.refresh() end
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

--- Forgets every row, for a server that restarts with other folders: what
--- the old one was asked may never be answered. An open binder asks again.
function M.restart()
  state.roots, state.rows = nil, {}
  state.entries, state.expanded, state.loading, state.stale = {}, {}, {}, {}
  state.reveal = nil
  if M.window() then
    M.draw()
    M.refresh()
  end
end

--- Forgets everything, for tests and `:Carrel` restarts.
function M.reset()
  M.close()
  if state.buf and vim.api.nvim_buf_is_valid(state.buf) then
    vim.api.nvim_buf_delete(state.buf, { force = true })
  end
  state.buf, state.roots, state.rows = nil, nil, {}
  state.entries, state.expanded, state.loading, state.stale = {}, {}, {}, {}
  state.draw_pending, state.reveal = false, nil
end

return M

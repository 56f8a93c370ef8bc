-- The sidebar: its window and buffer, and the binder's rows as fetched so far.
-- Rows are fetched lazily (depth 1, or 2 for a project) and kept by the
-- identity the server gives them, so expansion survives every refetch and a
-- change refetches only the expanded folders it touches.
local client = require('carrel.client')
local render = require('carrel.render')

local M = {}

local BUFFER_NAME = 'carrel://tree'
local SEPARATOR = ' › '
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
  roots_asked = false, -- the first roots are on their way
}

M.state = state

local function config() return require('carrel').config end

--- A row's identity: the server's `id`, else its `uri`.
function M.key_of(node, parent_key)
  return node.id or node.uri or ((parent_key or '') .. '#' .. (node.name or ''))
end

function M.entry(key) return state.entries[key] end

function M.bare(node)
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
  local entry = { node = M.bare(node), parent = parent_key, children = previous and previous.children or nil }
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
function M.showing_children(key)
  while key do
    if not M.is_expanded(key) then return false end
    key = state.entries[key] and state.entries[key].parent
  end
  return true
end

---------------------------------------------------------------- fetching

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
    elseif current and not current.children then
      -- Shown empty rather than asked again at every redraw; a change to it fetches it again.
      current.children = {}
    end
    if state.stale[key] and current then
      state.stale[key] = nil
      return M.fetch(key, function() for _, callback in ipairs(waiting) do callback() end end, true)
    end
    M.schedule_draw()
    for _, callback in ipairs(waiting) do callback() end
  end)
end

--- Fetches the roots (depth 1) and the rows already expanded that show.
function M.refresh(after)
  state.roots_asked = true
  client.request('carrel/tree', { depth = 1 }, function(err, roots)
    state.roots_asked = false
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
        -- A root came whole with the roots, but a project's sections list its folders only at depth 2.
        local root_done = entry.parent == nil and entry.node.kind ~= 'project'
        if not root_done and entry.children and entry.node.kind ~= 'section' and M.showing_children(key) then
          M.fetch(key, nil, true)
        end
      end
    end
    M.draw()
    if after then after() end
  end)
end

---------------------------------------------------------------- rows

--- The onboarding line, and its short form for a sidebar too narrow for it.
local function hint_text()
  for lhs, action in pairs(config().keys) do
    if action == 'new_project' then
      return ('No project yet: press %s to make one'):format(lhs), ('Press %s for a new project'):format(lhs)
    end
  end
  -- No key for it: the command still works.
  return 'No project yet: run :Carrel new_project to make one', 'Run :Carrel new_project'
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
          local title, short = hint_text()
          local hint = { kind = 'hint', title = title, short = short }
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

--- The cursor's row went away (deleted, moved, or no longer listed): the
--- row that followed it before still there, else the one before it, so
--- that `d` pressed again deletes the next one even when a row above went
--- too (the same file listed under an open "All").
local function follower(old_rows, old_line, lines_of)
  for index = old_line + 1, #old_rows do
    if lines_of[old_rows[index].id] then return lines_of[old_rows[index].id] end
  end
  for index = old_line - 1, 1, -1 do
    if lines_of[old_rows[index].id] then return lines_of[old_rows[index].id] end
  end
  return nil
end

local function place_cursor(win, id, fallback_line, old_rows)
  local line
  for index, row in ipairs(state.rows) do
    if row.id == id then
      line = index
      break
    end
  end
  if not line and old_rows and fallback_line and old_rows[fallback_line] and old_rows[fallback_line].id == id then
    local lines_of = {}
    for index, row in ipairs(state.rows) do
      lines_of[row.id] = lines_of[row.id] or index
    end
    line = follower(old_rows, fallback_line, lines_of)
  end
  line = line or math.min(math.max(fallback_line or 1, 1), math.max(#state.rows, 1))
  pcall(vim.api.nvim_win_set_cursor, win, { line, 0 })
end

--- Redraws from the rows fetched so far, keeping the cursor on the same row.
function M.draw(cursor_id)
  state.draw_pending = false
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then return end
  local win = M.window()
  local previous = M.current_row()
  local previous_line = win and vim.api.nvim_win_get_cursor(win)[1]
  cursor_id = cursor_id or (previous and previous.id)

  local old_rows = state.rows
  state.rows = visible_rows()
  local lines, marks = {}, {}
  local width = win and vim.api.nvim_win_get_width(win)
  for index, row in ipairs(state.rows) do
    lines[index], marks[index] = render.line(row, M.is_expanded, width)
  end
  if #lines == 0 then lines = { state.roots and 'No libraries.' or 'Loading…' } end
  -- Marks cleared first: set_lines would otherwise move every old one.
  vim.api.nvim_buf_clear_namespace(state.buf, namespace, 0, -1)
  vim.bo[state.buf].modifiable = true
  vim.api.nvim_buf_set_lines(state.buf, 0, -1, false, lines)
  vim.bo[state.buf].modifiable = false
  vim.bo[state.buf].modified = false
  require('carrel.paint').paint(state.buf, namespace, marks, win)
  if win then
    place_cursor(win, cursor_id, previous_line, old_rows)
    update_tree_winbar()
  end
  if state.reveal then require('carrel.reveal').retry() end
end

M.render = M.draw

--- Draws once per turn of the event loop, after every message that arrived with it.
function M.schedule_draw()
  if state.draw_pending then return end
  state.draw_pending = true
  vim.schedule(function()
    if state.draw_pending then M.draw() end
  end)
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
  -- What fits a row depends on the width, so a resized sidebar is drawn again.
  vim.api.nvim_create_autocmd('WinResized', {
    group = vim.api.nvim_create_augroup('CarrelSidebarWidth', { clear = true }),
    callback = function()
      local sidebar = M.window()
      if sidebar and vim.tbl_contains(vim.v.event.windows or {}, sidebar) then M.schedule_draw() end
    end,
  })
  M.draw()
  if not (state.roots or state.roots_asked) then M.refresh() end
end

--- Whether a library folder holds a project: its own `.carrel/project.json`,
--- or one of its folders'. One listing, nothing followed: this runs at every
--- start, in any folder, and must not start a server for a home folder.
local function holds_project(folder)
  local uv = vim.uv or vim.loop
  local function is_project(path)
    local dot = uv.fs_lstat(path .. '/.carrel')
    local file = dot and dot.type == 'directory' and uv.fs_lstat(path .. '/.carrel/project.json')
    return file and file.type == 'file' or false
  end
  if is_project(folder) then return true end
  local listing = uv.fs_scandir(folder)
  while listing do
    local name, kind = uv.fs_scandir_next(listing)
    if not name then break end
    -- Hidden folders, like links, are never projects to the server.
    if kind == 'directory' and name:sub(1, 1) ~= '.' and is_project(folder .. '/' .. name) then return true end
  end
  return false
end

--- Starts the server and fetches the first view into the binder's buffer,
--- shown in no window, so that opening shows it at once. Changes keep it
--- current meanwhile, as they keep an open binder. Nothing when the server
--- runs already, or no library folder holds a project.
function M.preload()
  if state.roots or state.roots_asked or client.is_running() then return end
  local found = false
  for _, folder in ipairs(client.libraries()) do
    found = found or holds_project(folder)
  end
  if not found then return end
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then state.buf = create_buffer() end
  M.refresh()
end

--- The first view is held: the roots, and the children of every expanded row.
function M.first_view_held()
  if not state.roots or next(state.loading) then return false end
  for _, row in ipairs(visible_rows()) do
    local entry = state.entries[row.id]
    if entry and entry.node.hasChildren and M.is_expanded(row.id) and not entry.children then return false end
  end
  return true
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

--- Expands what is above `path` and puts the cursor on it.
function M.reveal(path) require('carrel.reveal').reveal(path) end

--- Applies `carrel/didChange`.
function M.on_change(params) require('carrel.changes').apply(params) end

--- Forgets every row, for a server that restarts with other folders: what
--- the old one was asked may never be answered. An open binder asks again.
function M.restart()
  state.roots, state.rows, state.roots_asked = nil, {}, false
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
  state.buf, state.roots, state.rows, state.roots_asked = nil, nil, {}, false
  state.entries, state.expanded, state.loading, state.stale = {}, {}, {}, {}
  state.draw_pending, state.reveal = false, nil
end

return M

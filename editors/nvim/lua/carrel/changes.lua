-- `carrel/didChange` applied to the rows fetched so far: rows in `updated`
-- replaced in place, and only the expanded folders whose listing changed
-- fetched again, once each.
local tree = require('carrel.tree')

local M = {}

local state = tree.state

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

--- The fetched folders whose listing the changes alter. With `placed`, the
--- rows added and moved are patched in, so only "All", a folder's new order
--- and a setting's folders are fetched.
local function folders_to_fetch(changes, placed)
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
      if not placed then
        want_parent(change.uri)
        if change.oldUri then want_parent(change.oldUri) end
      end
      -- A `changed` on a folder means its order changed: its own listing too.
      local own = change.type == 'changed' and state.entries[change.uri]
      if own and own.children and own.node.kind == 'folder' then wanted[change.uri] = true end
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

local function index_of(list, value)
  for i, item in ipairs(list) do
    if item == value then return i end
  end
end

--- Takes a row out of the listing that holds it.
local function unlist(key)
  local entry = state.entries[key]
  local parent = entry and state.entries[entry.parent]
  local at = parent and parent.children and index_of(parent.children, key)
  if at then table.remove(parent.children, at) end
end

--- Puts each placed row in its listing, just after the row the server
--- names; a listing that lacks that row is behind, and is fetched instead.
local function place(placed, wanted)
  for _, p in ipairs(placed) do
    local parent = state.entries[p.parent]
    if parent and parent.children then
      local key = tree.key_of(p.node)
      local previous = state.entries[key]
      if previous then unlist(key) end
      local at = p.after and index_of(parent.children, p.after) or (not p.after and 0)
      if not at or p.node.kind == 'project' then
        -- A section's listing is fetched with its project.
        wanted[parent.node.kind == 'section' and parent.parent or p.parent] = true
      else
        table.insert(parent.children, at + 1, key)
        local kept = previous and previous.parent == p.parent and previous.children or nil
        state.entries[key] = { node = tree.bare(p.node), parent = p.parent, children = kept }
      end
    end
  end
end

--- Applies `carrel/didChange`: rows in `updated` are replaced in place, rows
--- added, moved and removed are patched into the listings (`placed`); only
--- expanded folders whose listing cannot be patched are fetched, once each.
function M.apply(params)
  if not state.roots then return end
  for _, node in ipairs(params.updated or {}) do
    local entry = state.entries[tree.key_of(node)]
    if entry then entry.node = tree.bare(node) end
  end
  local changes = params.changes or {}
  local placed = params.placed
  local wanted = folders_to_fetch(changes, placed)
  for _, change in ipairs(changes) do
    if change.type == 'moved' and change.oldUri then
      remap_expanded(change.oldUri, change.uri)
      if placed then unlist(change.oldUri) end
      forget_under(change.oldUri)
    elseif change.type == 'deleted' then
      if placed then unlist(change.uri) end
      forget_under(change.uri)
    end
  end
  if placed then place(placed, wanted) end
  for key in pairs(wanted) do
    local entry = state.entries[key]
    if entry then
      -- A folder that does not show (or a closed binder) is fetched again only when it shows.
      if tree.window() and tree.showing_children(key) then tree.fetch(key, nil, true) else entry.children = nil end
    end
  end
  tree.schedule_draw()
end

return M

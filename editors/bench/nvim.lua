-- Drives a tree in Neovim, in a tmux terminal or headless; see run.sh for the
-- environment.
-- BENCH_TREE names it: carrel (the plugin, the default), or a peer found under
-- BENCH_PEERS (nvim-tree, neo-tree, oil), each with its defaults but for the
-- file watcher, turned on where it is off by default so that an outside change
-- can show at all. Times are taken in Neovim with vim.uv.hrtime. No tree
-- announces a render, so every buffer is watched with nvim_buf_attach: a row
-- counts as shown once the buffer change that first contains it has been
-- drawn, the screen redrawn before the time is taken (in a terminal the
-- drawing is part of what a writer waits for; headless, it costs nothing).
local env = vim.env
local library, mode, out = env.BENCH_LIBRARY, env.BENCH_MODE, env.BENCH_OUT
local which = env.BENCH_TREE or 'carrel'
local uv = vim.uv
local now = function() return uv.hrtime() / 1e6 end
local result = { tree = which }

local function rss_kb()
  for line in io.lines('/proc/self/status') do
    local kb = line:match('^VmRSS:%s+(%d+)')
    if kb then return tonumber(kb) end
  end
end

-- The longest gap between ticks of a 10 ms timer, over a window.
local stall = { last = nil, worst = 0 }
local ticker = uv.new_timer()
ticker:start(10, 10, function()
  local t = now()
  if stall.last then stall.worst = math.max(stall.worst, t - stall.last - 10) end
  stall.last = t
end)
local function stall_window() stall.last, stall.worst = now(), 0 end
local function stall_worst() return stall.worst end

local seen = {} -- text → time of the buffer change that first showed it
local watching = {}
local attached = {}
local function watch(buf)
  if attached[buf] or not vim.api.nvim_buf_is_valid(buf) or not vim.api.nvim_buf_is_loaded(buf) then return end
  attached[buf] = vim.api.nvim_buf_attach(buf, false, {
    on_lines = function(_, b, _, first, _, last_new)
      if not next(watching) then return end
      local lines = vim.api.nvim_buf_get_lines(b, first, last_new, false)
      local t = now()
      for text in pairs(watching) do
        if not seen[text] then
          for _, line in ipairs(lines) do
            if line:find(text, 1, true) then seen[text] = t break end
          end
        end
      end
    end,
    on_detach = function() attached[buf] = nil end,
  })
end
vim.api.nvim_create_autocmd({ 'BufNew', 'BufAdd', 'BufReadPre', 'BufEnter', 'BufWinEnter', 'FileType' }, {
  callback = function(args) watch(args.buf) end,
})
local function wait_for(text, ms)
  watching[text] = true
  vim.wait(ms or 30000, function() return seen[text] ~= nil end, 1)
  watching[text] = nil
  if not seen[text] then return nil end
  vim.cmd('redraw')
  return now()
end

-- The native baseline: what a tree plugin does to open, with nothing of its
-- own: list the library's top two levels and draw them into a buffer.
local function scan(dir)
  local names = {}
  local handle = uv.fs_scandir(dir)
  while handle do
    local name, kind = uv.fs_scandir_next(handle)
    if not name then break end
    names[#names + 1] = { name, kind }
  end
  table.sort(names, function(a, b) return a[1] < b[1] end)
  return names
end
do
  local t0 = now()
  local lines = {}
  for _, entry in ipairs(scan(library)) do
    lines[#lines + 1] = entry[1]
    if entry[2] == 'directory' then
      for _, child in ipairs(scan(library .. '/' .. entry[1])) do lines[#lines + 1] = '  ' .. child[1] end
    end
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  result.baseline_ms = now() - t0
  vim.api.nvim_buf_delete(buf, { force = true })
end

local peers = env.BENCH_PEERS or ''
local trees = {
  carrel = function()
    -- The driver preloads itself, when asked, where it can time it.
    require('carrel').setup({ cmd = vim.json.decode(env.BENCH_SERVER), libraries = { library }, preload = false })
    return function() vim.cmd('Carrel open') end
  end,
  ['nvim-tree'] = function()
    vim.opt.rtp:prepend(peers .. '/nvim-tree.lua')
    require('nvim-tree').setup({})
    return function() require('nvim-tree.api').tree.open({ path = library }) end
  end,
  ['neo-tree'] = function()
    for _, name in ipairs({ 'plenary.nvim', 'nui.nvim', 'neo-tree.nvim' }) do
      vim.opt.rtp:prepend(peers .. '/' .. name)
    end
    require('neo-tree').setup({ filesystem = { use_libuv_file_watcher = true } })
    return function() require('neo-tree.command').execute({ dir = library }) end
  end,
  oil = function()
    vim.opt.rtp:prepend(peers .. '/oil.nvim')
    require('oil').setup({ watch_for_changes = true })
    return function() require('oil').open(library) end
  end,
}
local open = trees[which]()

-- Puts the cursor on the first row that shows `text`, in a window of its buffer.
local function goto_row(text)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local buf = vim.api.nvim_win_get_buf(win)
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      if line:find(text, 1, true) then
        vim.api.nvim_set_current_win(win)
        vim.api.nvim_win_set_cursor(win, { i, 0 })
        return true
      end
    end
  end
end

-- Preloaded (BENCH_PRELOAD=1): the server started and the first view was
-- fetched in no window while the writer began, as `preload = true` does at
-- startup; then the open below only shows it. The stall of that background
-- work is the preload's.
if which == 'carrel' and mode == 'open' and env.BENCH_PRELOAD == '1' then
  stall_window()
  local t = now()
  vim.cmd('Carrel preload')
  local held = vim.wait(30000, function() return require('carrel.tree').first_view_held() end, 1)
  result.preload_ms = held and now() - t or nil
  vim.wait(1000, function() return false end, 10)
  result.preload_stall_ms = stall_worst()
end

local rss_before = rss_kb()
watching['Poems'] = true
stall_window()
local start = now()
open()
for _, buf in ipairs(vim.api.nvim_list_bufs()) do watch(buf) end
local shown = wait_for('Poems', 60000)
result.open_ms = shown and shown - start or nil
vim.wait(1000, function() return false end, 10) -- what the plugin does right after its first rows
result.stall_open_ms = stall_worst()

-- Expanding a folder of a thousand: Enter on its row, as a writer does, until its first child shows.
if mode == 'open' and goto_row('Letters') then
  local key = vim.api.nvim_replace_termcodes('<CR>', true, false, true)
  watching['Letter 0000.md'] = true
  local t = now()
  vim.api.nvim_feedkeys(key, 'x', false)
  local at = wait_for('Letter 0000.md', 30000)
  result.expand_ms = at and at - t or nil
end

local function count()
  local file = io.open(env.BENCH_COUNT or '', 'r')
  if not file then return nil end
  local n = tonumber(file:read('*a'))
  file:close()
  return n
end

-- BENCH_CHANGES_IN: the changes go into that folder, expanded first.
local into = library
if mode == 'changes' and (env.BENCH_CHANGES_IN or '') ~= '' and goto_row(env.BENCH_CHANGES_IN) then
  watching['Letter 0000.md'] = true
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
  assert(wait_for('Letter 0000.md', 30000), 'the folder to expand')
  vim.wait(1000, function() return false end, 10)
  into = library .. '/' .. env.BENCH_CHANGES_IN
  result.changes_in = env.BENCH_CHANGES_IN
end

if mode == 'changes' then
  result.change_ms, result.change_bytes = {}, {}
  local changes = tonumber(env.BENCH_CHANGES)
  for i = 1, changes do
    local name = ('Outside %d.md'):format(i)
    local before = count()
    -- Written elsewhere and renamed in: one step, as another program saves.
    local staging = env.BENCH_STAGING .. '/' .. name
    local file = assert(io.open(staging, 'w'))
    file:write('words\n')
    file:close()
    local t = now()
    assert(uv.fs_rename(staging, into .. '/' .. name))
    local at = wait_for(name, 5000)
    vim.wait(100, function() return false end, 10) -- anything the plugin asks after drawing
    result.change_ms[i] = at and at - t or -1
    result.change_bytes[i] = before and count() - before or -1
    if i == 100 then result.rss_after_100_kb = rss_kb() end
  end
  result.rss_before_kb = rss_before
  result.rss_after_kb = rss_kb()
end
-- A burst from another process; the loop's longest stall until the last file
-- shows. After the changes, and alone in the sessions of mode `burst`.
if mode == 'changes' or mode == 'burst' then
  local burst = tonumber(env.BENCH_BURST)
  -- As long after the open as in a change session: the server has counted the words.
  if mode == 'burst' then vim.wait(5000, function() return false end, 10) end
  if burst > 0 then
    stall_window()
    vim.system({ 'python3', env.BENCH_DIR .. '/burst.py', library, env.BENCH_BURST })
    wait_for(('Burst %d.md'):format(burst - 1), 120000)
    vim.wait(500, function() return false end, 10)
    result.stall_burst_ms = stall_worst()
  end
end

local file = assert(io.open(out, 'w'))
file:write(vim.json.encode(result))
file:close()
ticker:stop()
vim.cmd('qa!')

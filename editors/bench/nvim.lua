-- Drives the Neovim plugin in headless Neovim; see run.sh for the environment.
-- Times are taken in Neovim with vim.uv.hrtime. The plugin has no render
-- event, so the binder's buffer is watched with nvim_buf_attach: a row
-- counts as shown on the buffer change that first contains it.
local env = vim.env
local library, mode, out = env.BENCH_LIBRARY, env.BENCH_MODE, env.BENCH_OUT
local uv = vim.uv
local now = function() return uv.hrtime() / 1e6 end
local result = {}

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

-- The native baseline: the library's top two levels, as a tree plugin lists them.
local function scan(dir)
  local names = {}
  local handle = uv.fs_scandir(dir)
  while handle do
    local name, kind = uv.fs_scandir_next(handle)
    if not name then break end
    names[#names + 1] = { name, kind }
  end
  return names
end
local t0 = now()
for _, entry in ipairs(scan(library)) do
  if entry[2] == 'directory' then scan(library .. '/' .. entry[1]) end
end
result.baseline_ms = now() - t0

local seen = {} -- text → time of the buffer change that first showed it
local watching = {}
local function watch(buf)
  vim.api.nvim_buf_attach(buf, false, {
    on_lines = function(_, b, _, first, _, last_new)
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
  })
end
local function wait_for(text, ms)
  watching[text] = true
  vim.wait(ms or 30000, function() return seen[text] ~= nil end, 1)
  watching[text] = nil
  return seen[text]
end

local rss_before = rss_kb()
require('carrel').setup({ cmd = vim.json.decode(env.BENCH_SERVER), libraries = { library } })
watching['Poems'] = true
stall_window()
local start = now()
vim.cmd('Carrel open')
watch(require('carrel.tree').buffer())
local shown = wait_for('Poems', 60000)
result.open_ms = shown and shown - start or nil
vim.wait(1000, function() return false end, 10) -- what the plugin does right after its first rows
result.stall_open_ms = stall_worst()

local function count()
  local file = io.open(env.BENCH_COUNT or '', 'r')
  if not file then return nil end
  local n = tonumber(file:read('*a'))
  file:close()
  return n
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
    assert(uv.fs_rename(staging, library .. '/' .. name))
    local at = wait_for(name, 5000)
    vim.wait(100, function() return false end, 10) -- anything the plugin asks after drawing
    result.change_ms[i] = at and at - t or -1
    result.change_bytes[i] = before and count() - before or -1
    if i == 100 then result.rss_after_100_kb = rss_kb() end
  end
  result.rss_before_kb = rss_before
  -- A burst from another process; the loop's longest stall until the last file shows.
  stall_window()
  vim.system({ 'python3', env.BENCH_DIR .. '/burst.py', library, env.BENCH_BURST })
  wait_for(('Burst %d.md'):format(tonumber(env.BENCH_BURST) - 1), 120000)
  vim.wait(500, function() return false end, 10)
  result.stall_burst_ms = stall_worst()
end

local file = assert(io.open(out, 'w'))
file:write(vim.json.encode(result))
file:close()
ticker:stop()
vim.cmd('qa!')

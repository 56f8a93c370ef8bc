local H = require('harness')

--- The binder's own `carrel/tree` requests (the harness asks with depth 0 only).
local function binder_requests()
  return vim.tbl_filter(function(request) return request.params.depth ~= 0 end, H.requests('carrel/tree'))
end

--- Every request fetches at most two levels: never the whole tree.
local function assert_lazy()
  for _, request in ipairs(binder_requests()) do
    local depth = request.params.depth
    H.truthy(type(depth) == 'number' and depth >= 1 and depth <= 2, 'a lazy request: ' .. vim.inspect(request.params))
  end
end

local function received(text)
  for _, entry in ipairs(require('carrel.log').entries()) do
    if entry.direction == '←' and entry.text:find('"method":"carrel/didChange"', 1, true)
      and entry.text:find(text, 1, true) then
      return true
    end
  end
  return false
end

--- Lets the event loop run, so any request a change would cause is sent.
local function settle() vim.wait(300, function() return false end, 20) end

H.test('opening fetches the roots at depth 1 and the project at depth 2, nothing deeper', function()
  local project = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Act 1/Scene 1/Take.md')
  H.open()
  H.wait(function() return H.row('Draft') end, 'Draft')
  settle()
  assert_lazy()
  local requests = binder_requests()
  H.eq(requests[1].params, { depth = 1 }, 'the roots')
  H.eq(#requests, 2, 'requests to open: the roots, then the project')
  H.eq(requests[2].params, { uri = H.uri(project), depth = 2 }, 'the project')
  H.eq(H.row('Act 1'), nil, 'folders stay closed')
  H.go('Draft')
  H.press('zo')
  H.wait(function() return H.row('Act 1', 'Draft') end, 'Act 1')
  H.eq(binder_requests()[3].params, { uri = H.uri(project .. '/Draft'), depth = 1 }, 'expanding fetches one level')
  assert_lazy()
end)

H.test('a change in a closed folder fetches nothing: the counts come in `updated`', function()
  local project = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Act 1/Old.md')
  H.open()
  H.wait(function() return H.row('Draft') end, 'Draft')
  settle()
  local before = #binder_requests()
  H.write(project .. '/Draft/Act 1/New.md', 'x')
  H.wait(function() return received('New.md') end, 'the change to arrive')
  H.wait(function() return H.has_line('Draft  2 files') end, 'Draft to count 2 files')
  settle()
  H.eq(#binder_requests(), before, 'requests after a change in a closed folder')
end)

--- The titles of the rows listed under `folder`, in the binder's order.
local function listed(folder)
  local titles = {}
  H.tree().walk(function(row)
    if row.parent and row.parent.node.title == folder then table.insert(titles, row.node.title) end
  end)
  return titles
end

H.test('an outside create, rename and delete in an open folder are patched in, in order, no fetch', function()
  local project = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md')
  H.put(project .. '/Draft/Winter.md')
  H.open()
  H.go('Draft')
  H.press('zo')
  H.go('Spring.md', 'Draft')
  settle()
  local before = #binder_requests()
  H.write(project .. '/Draft/Autumn.md', 'x')
  H.wait(function() return H.row('Autumn.md', 'Draft') end, 'Autumn.md to show')
  H.eq(listed('Draft'), { 'Autumn.md', 'Spring.md', 'Winter.md' }, 'a new file in its place')
  vim.uv.fs_rename(project .. '/Draft/Winter.md', project .. '/Draft/Baker.md')
  H.wait(function() return H.row('Baker.md', 'Draft') end, 'Baker.md to show')
  H.eq(listed('Draft'), { 'Autumn.md', 'Baker.md', 'Spring.md' }, 'a renamed file in its new place')
  os.remove(project .. '/Draft/Autumn.md')
  H.wait(function() return not H.row('Autumn.md', 'Draft') end, 'Autumn.md to go')
  H.eq(listed('Draft'), { 'Baker.md', 'Spring.md' }, 'a deleted file gone')
  settle()
  H.eq(vim.list_slice(binder_requests(), before + 1), {}, 'requests after the changes')
  H.eq(H.tree().current_row().node.title, 'Spring.md', 'cursor kept')
  -- Redraws after every outside change must not pile up as undo history.
  H.eq(vim.fn.undotree(H.tree().buffer()).seq_last, 0, 'undo states kept by the binder buffer')
  assert_lazy()
end)

H.test('rows are known by the server’s id, else their uri, the same in every client', function()
  local project = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md')
  H.open()
  H.go('All')
  H.press('zo')
  H.wait(function() return H.row('Spring.md', 'All') end, 'All to list Spring.md')
  H.eq(H.row('YOUR POETRY').id, H.uri(project) .. '#section-0', 'a section')
  H.eq(H.row('Draft').id, H.uri(project .. '/Draft'), 'a folder')
  H.eq(H.row('Spring.md', 'All').id, H.row('All').node.uri .. '#Draft/Spring.md', 'a row under All')
end)

H.test('a long listing is highlighted in view at once and whole a few turns later', function()
  local project = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  for index = 1, 1500 do H.write(('%s/Research/Clip %04d.md'):format(project, index), '') end
  H.wait(function() return H.server_has(project .. '/Research/Clip 1500.md') end, 'the server to see the clips')
  H.open()
  H.wait(function() return H.row('Research') and H.has_line('Research  1,500 files') end, 'Research')
  H.go('Research')
  H.press('zo')
  H.wait(function() return H.row('Clip 1500.md', 'Research') end, 'the clips to show')
  local buf, namespace = H.tree().buffer(), vim.api.nvim_create_namespace('carrel_tree')
  local function marked(line)
    return #vim.api.nvim_buf_get_extmarks(buf, namespace, { line - 1, 0 }, { line - 1, -1 }, {}) > 0
  end
  local _, research = H.row('Research')
  H.truthy(marked(research), 'the row under the cursor is highlighted at once')
  local _, last = H.row('Clip 1500.md', 'Research')
  H.wait(function() return marked(last) end, 'the last row to be highlighted')
  for line = 1, #H.lines() do H.truthy(marked(line), 'row ' .. line .. ' highlighted') end
end)

H.test('a workspace folder that is itself a project opens with its first section, fetched at depth 2', function()
  local folder = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.write(folder .. '/Draft/Spring.md', 'x')
  -- The same project, now opened as the workspace folder itself.
  H.truthy(require('carrel').setup({ cmd = { H.carrel, 'lsp' }, libraries = { folder } }), 'setup')
  H.open()
  H.wait(function() return H.row('Draft') and H.has_line('Draft  1 file · 1 word') end, 'Draft in the first section')
  H.eq(H.row('Magazines'), nil, 'the other sections stay closed')
  settle()
  local requests = vim.tbl_map(function(request) return request.params end, binder_requests())
  H.eq(vim.list_slice(requests, 1, 2), { { depth = 1 }, { uri = H.uri(folder), depth = 2 } }, 'requests')
  -- Once the words are counted the server says the library changed, and
  -- the open rows are fetched again, no deeper.
  for i = 3, #requests do
    H.eq(requests[i], { uri = H.uri(folder), depth = 2 }, 'a refetch: ' .. vim.inspect(requests))
  end
end)

H.test('without placed rows, a notification fetches each open folder it names once', function()
  local project = H.setup() .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md')
  H.put(project .. '/Ready/Ode.md')
  H.open()
  H.go('Draft')
  H.press('zo')
  H.wait(function() return H.row('Spring.md', 'Draft') end, 'Draft open')
  settle()
  local before = #binder_requests()
  -- As the server would send it: two files in Draft, one moved from Ready (closed) into Draft.
  require('carrel.handlers')['carrel/didChange'](nil, { updated = {}, changes = {
    { type = 'created', uri = H.uri(project .. '/Draft/A.md') },
    { type = 'created', uri = H.uri(project .. '/Draft/B.md') },
    { type = 'moved', oldUri = H.uri(project .. '/Ready/Ode.md'), uri = H.uri(project .. '/Draft/Ode.md') },
  } })
  settle()
  local after = vim.list_slice(binder_requests(), before + 1)
  H.eq(vim.tbl_map(function(request) return request.params end, after),
    { { uri = H.uri(project .. '/Draft'), depth = 1 } }, 'requests for the notification')
end)

--- Relays the server, holding back the second half of each message that holds a text (the Vim suite's).
local here = vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2))
local relay = here .. '/../../vim/tests/pausing_relay.py'

H.test('a file another program makes while its folder is being fetched shows', function()
  if vim.fn.executable('python3') == 0 then return H.skip('python3 is not installed: the relay needs it') end
  -- The listing's answer is held a second on its way, as a long one is on
  -- a loaded machine: the file comes while it is in flight.
  local project = H.setup({ cmd = { 'python3', relay, 'Spring.md', '1.0', H.carrel, 'lsp' } }) .. '/My Poems'
  H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md')
  H.open()
  H.go('Draft')
  H.press('zo')
  H.write(project .. '/Draft/Autumn.md', 'x')
  H.wait(function() return H.row('Autumn.md', 'Draft') end, 'Autumn.md to show')
  H.wait(function() return H.row('Spring.md', 'Draft') end, 'Spring.md to show')
  H.eq(listed('Draft'), { 'Autumn.md', 'Spring.md' }, 'both files, in order')
end)

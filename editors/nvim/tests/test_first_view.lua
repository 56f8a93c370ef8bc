local H = require('harness')

--- The methods sent so far, in order.
local function sent_methods()
  local methods = {}
  for _, entry in ipairs(require('carrel.log').entries()) do
    if entry.direction == '→' then table.insert(methods, vim.json.decode(entry.text).method or '(answer)') end
  end
  return methods
end

--- The roots requests sent so far (`carrel/tree` without a uri).
local function roots_requests()
  return vim.tbl_filter(function(request) return request.params.uri == nil end, H.requests('carrel/tree'))
end

--- Lets the event loop run, so any request still to come is sent.
local function settle() vim.wait(300, function() return false end, 20) end

H.test('opening with no server running asks for the roots right behind initialize, once', function()
  local library = H.setup()
  H.write(library .. '/My Poems/.carrel/project.json', '{"type":"poetry","version":1}')
  H.open()
  H.truthy(H.row('My Poems'), 'the project row')
  settle()
  local methods = sent_methods()
  H.eq({ methods[1], methods[2], methods[3] }, { 'initialize', 'carrel/tree', 'initialized' }, 'the first messages')
  H.eq(#roots_requests(), 1, 'roots requests')
end)

--- A server started through carrel.rpc alone, with the roots asked ahead;
--- returns the client and the notifications as they come ({ method, params }).
local function start_with_roots_ahead(library)
  local notifications = {}
  local client = require('carrel.rpc').start({ H.carrel, 'lsp' }, {
    notification = function(method, params) table.insert(notifications, { method = method, params = params }) end,
    server_request = function() return vim.NIL end,
    on_exit = function() end,
  }, { method = 'carrel/tree', params = { depth = 1 } })
  local initialized
  client.request('initialize', {
    rootUri = H.uri(library),
    workspaceFolders = { { uri = H.uri(library), name = 'Library' } },
    capabilities = { experimental = { carrel = { didChange = true } } },
  }, function(_, result) initialized = result end)
  H.wait(function() return initialized end, 'initialize')
  client.notify('initialized', vim.empty_dict())
  H.wait(function()
    for _, entry in ipairs(require('carrel.log').entries()) do
      if entry.direction == '←' and entry.text:find('"id":2', 1, true) then return true end
    end
  end, 'the early roots answer')
  return client, notifications
end

--- The roots asked through `client`, with the names of the library's rows.
local function ask_roots(client)
  local roots
  client.request('carrel/tree', { depth = 1 }, function(err, result) roots = err or result end)
  H.wait(function() return roots end, 'the roots')
  return vim.tbl_map(function(row) return row.name end, roots[1].children or {})
end

-- A folder, not a file: a file's words would be told in a change of the
-- server's own, which may come after the early answer and rightly make
-- the binder ask again.
H.test('the roots asked ahead answer the same request later, without asking the server again', function()
  local library = H.new_library()
  vim.fn.mkdir(library .. '/Before', 'p')
  local client = start_with_roots_ahead(library)
  H.eq(ask_roots(client), { 'Before' }, 'the rows')
  H.eq(#roots_requests(), 1, 'roots requests')
  client.terminate()
end)

H.test('a change told after the roots asked ahead makes the same request go to the server', function()
  local library = H.new_library()
  vim.fn.mkdir(library .. '/Before', 'p')
  local client, notifications = start_with_roots_ahead(library)
  H.write(library .. '/Outside.md', 'x')
  H.wait(function()
    for _, n in ipairs(notifications) do
      for _, change in ipairs(n.method == 'carrel/didChange' and n.params.changes or {}) do
        if change.uri:find('/Outside.md', 1, true) then return true end
      end
    end
  end, 'the change told')
  H.eq(ask_roots(client), { 'Before', 'Outside.md' }, 'the rows')
  H.eq(#roots_requests(), 2, 'roots requests')
  client.terminate()
end)

-- A tiny test harness: fresh plugin, fresh library and scripted answers per test.
local H = {}

local tests = {}
H.carrel = assert(vim.env.CARREL, 'CARREL is not set')

function H.test(name, fn) table.insert(tests, { name = name, fn = fn }) end

-- Results go to a file of their own, so nothing Neovim prints can garble them.
local function out(line)
  local file = assert(io.open(assert(vim.env.CARREL_TEST_RESULTS, 'run the tests with tests/run.sh'), 'a'))
  file:write(line .. '\n')
  file:close()
end

---------------------------------------------------------------- assertions

function H.fail(message) error(message, 0) end

local SKIP = {}

--- Ends the test as skipped, saying why; only for a server that lacks what the test needs.
function H.skip(why) error({ [SKIP] = why }, 0) end

function H.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    H.fail(('%s: expected %s, got %s'):format(what or 'value', vim.inspect(expected), vim.inspect(actual)))
  end
end

function H.truthy(value, what)
  if not value then H.fail((what or 'condition') .. ' was false') end
  return value
end

--- Waits (at most `ms`, default 5 s) for `condition` to hold; fails with `what`.
function H.wait(condition, what, ms)
  local ok = vim.wait(ms or 5000, function()
    local fine, result = pcall(condition)
    return fine and result
  end, 20)
  if not ok then H.fail('timed out waiting for ' .. what .. (H.extra_context and H.extra_context() or '')) end
end

function H.contains(list, item, what)
  for _, value in ipairs(list) do
    if value == item then return end
  end
  H.fail(('%s: %s not in %s'):format(what or 'list', vim.inspect(item), vim.inspect(list)))
end

---------------------------------------------------------------- disk

function H.exists(path) return vim.uv.fs_stat(path) ~= nil end

function H.write(path, text)
  vim.fn.mkdir(vim.fs.dirname(path), 'p')
  vim.fn.writefile(vim.split(text or '', '\n'), path)
end

function H.read(path) return table.concat(vim.fn.readfile(path), '\n') end

function H.sh(command)
  local result = vim.system({ 'sh', '-c', command }, { text = true }):wait()
  if result.code ~= 0 then H.fail(command .. ' failed: ' .. result.stderr) end
  return result.stdout
end

--- A real library folder made with mktemp -d (TMPDIR is the sandbox).
function H.new_library()
  local dir = vim.trim(H.sh('mktemp -d'))
  return vim.fs.normalize(vim.uv.fs_realpath(dir))
end

---------------------------------------------------------------- scripted writer

H.prompts = {} -- every prompt shown, in order
H.notes = {} -- every vim.notify: { message, level }
local answers = {}

--- Queues answers for the next vim.ui.input / vim.ui.select calls. A string
--- answers input with that text, or select with the item shown as that text
--- (leading spaces ignored); false dismisses.
function H.answer(...)
  for _, answer in ipairs({ ... }) do table.insert(answers, answer) end
end

function H.pending_answers() return #answers end

local unexpected = {}

local function next_answer(prompt)
  table.insert(H.prompts, prompt)
  if #answers == 0 then
    table.insert(unexpected, prompt)
    return false
  end
  return table.remove(answers, 1)
end

H.inputs = {} -- the opts of every vim.ui.input
H.selects = {} -- every vim.ui.select, as H.last_select holds the last

local function install_stubs()
  vim.ui.input = function(opts, on_confirm)
    table.insert(H.inputs, opts)
    local answer = next_answer(opts.prompt)
    on_confirm(answer ~= false and answer or nil)
  end
  vim.ui.select = function(items, opts, on_choice)
    local answer = next_answer(opts.prompt)
    H.last_select = { items = items, opts = opts, labels = {} }
    table.insert(H.selects, H.last_select)
    local format = opts.format_item or tostring
    for index, item in ipairs(items) do H.last_select.labels[index] = format(item) end
    for index, item in ipairs(items) do
      if answer ~= false and vim.trim(H.last_select.labels[index]) == vim.trim(answer) then
        return on_choice(item, index)
      end
    end
    if answer ~= false then
      table.insert(unexpected, ('no choice %q in %s'):format(answer, vim.inspect(H.last_select.labels)))
    end
    on_choice(nil, nil)
  end
  vim.notify = function(message, level)
    table.insert(H.notes, { message = message, level = level or vim.log.levels.INFO })
  end
end

--- The first notification containing `text` (plain), waiting for it.
function H.wait_note(text, level)
  local found
  H.wait(function()
    for _, note in ipairs(H.notes) do
      if note.message:find(text, 1, true) and (level == nil or note.level == level) then
        found = note
        return true
      end
    end
  end, 'a notification containing ' .. vim.inspect(text))
  return found
end

---------------------------------------------------------------- plugin

--- Drops every loaded carrel module so each test starts from nothing.
local function unload()
  pcall(function() require('carrel.client').stop() end)
  pcall(function() require('carrel.tree').reset() end)
  for name in pairs(package.loaded) do
    if name == 'carrel' or name:match('^carrel%.') then package.loaded[name] = nil end
  end
end

--- setup() with a fresh library; returns the library path.
function H.setup(opts)
  H.library = H.new_library()
  local config = vim.tbl_extend('force', { cmd = { H.carrel, 'lsp' }, libraries = { H.library } }, opts or {})
  H.truthy(require('carrel').setup(config), 'setup() accepted the options')
  return H.library
end

function H.tree() return require('carrel.tree') end

function H.lines()
  local buf = H.tree().buffer()
  if not buf then return {} end
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

function H.has_line(text)
  for _, line in ipairs(H.lines()) do
    if line:find(text, 1, true) then return true end
  end
  return false
end

--- Opens the sidebar and waits for the library to show.
function H.open()
  vim.cmd('Carrel open')
  H.wait(function() return H.tree().state.roots ~= nil and #H.tree().rows() > 0 end, 'the tree to load')
  H.wait(function() return vim.api.nvim_get_current_buf() == H.tree().buffer() end, 'the tree to have focus')
end

--- Runs a server command synchronously (for test set-up); returns result, err.
function H.execute(command, arguments)
  local done, result, failure
  local params = { command = command, arguments = { arguments } }
  require('carrel.client').request('workspace/executeCommand', params, function(err, res)
    done, result, failure = true, res, err
  end)
  H.wait(function() return done end, command)
  return result, failure
end

function H.uri(path) return vim.uri_from_fname(path) end

--- A Move destination as the picker shows it: the library, then these titles, joined with ›.
function H.place(...)
  return table.concat(vim.list_extend({ vim.fs.basename(H.library) }, { ... }), ' › ')
end

--- The JSON-RPC requests sent so far with this method, decoded.
function H.requests(method)
  local found = {}
  for _, entry in ipairs(require('carrel.log').entries()) do
    if entry.direction == '→' and entry.text:find('"method":"' .. method .. '"', 1, true) then
      table.insert(found, vim.json.decode(entry.text))
    end
  end
  return found
end

--- The `carrel.*` commands the running server lists in `executeCommandProvider`.
function H.server_commands()
  local commands
  require('carrel.client').with_client(function(client)
    commands = ((client.server_capabilities or {}).executeCommandProvider or {}).commands or {}
  end)
  H.wait(function() return commands end, 'the server to start')
  return commands
end

--- Skips the test unless the server offers `command`: for features of the server still to come.
function H.needs_command(command)
  if not vim.tbl_contains(H.server_commands(), command) then
    H.skip(('the server at $CARREL does not offer %s yet'):format(command))
  end
end

--- The arguments of every `workspace/executeCommand` sent for `command`, in order.
function H.commands_sent(command)
  local found = {}
  for _, request in ipairs(H.requests('workspace/executeCommand')) do
    if request.params.command == command then table.insert(found, request.params.arguments[1]) end
  end
  return found
end

--- Whether the server's model has `path` (it learns of outside writes by watching).
function H.server_has(path)
  local done, found
  require('carrel.client').request('carrel/tree', { uri = H.uri(path), depth = 0 }, function(err, result)
    done, found = true, err == nil and type(result) == 'table' and #result == 1
  end)
  vim.wait(5000, function() return done end, 10)
  return found
end

--- Writes a file the way another program would, and waits until the server has seen it.
function H.put(path, text)
  H.write(path, text or vim.fs.basename(path))
  H.wait(function() return H.server_has(path) end, 'the server to see ' .. path)
  return path
end

--- A folder made by another program, once the server has seen it.
function H.put_folder(path)
  vim.fn.mkdir(path, 'p')
  H.wait(function() return H.server_has(path) end, 'the server to see ' .. path)
  return path
end

--- A project made through the server (as the P key would).
function H.project(name, kind)
  local _, err = H.execute('carrel.newProject', { parentUri = H.uri(H.library), name = name, type = kind or 'poetry' })
  if err then H.fail('newProject: ' .. err.message) end
  return H.library .. '/' .. name
end

--- The visible row whose title is `title`, inside a row titled `within`.
--- Rows under the virtual "All" are skipped unless `within` is "All".
function H.row(title, within)
  for index, row in ipairs(H.tree().rows()) do
    if row.node.title == title then
      local inside, in_all = within == nil, false
      local ancestor = row.parent
      while ancestor do
        if ancestor.node.title == within then inside = true end
        if ancestor.node.role == 'all' then in_all = true end
        ancestor = ancestor.parent
      end
      if inside and (not in_all or within == 'All') then return row, index end
    end
  end
  return nil
end

--- Waits for the sidebar cursor to be on the row titled `title`; returns that row.
function H.wait_cursor_on(title, what)
  H.wait(function()
    local row = H.tree().current_row()
    return row and row.node.title == title
  end, what or ('the cursor on ' .. title))
  return H.tree().current_row()
end

--- Waits for the row, then puts the sidebar cursor on it.
function H.go(title, within)
  local index
  H.wait(function()
    local _, found = H.row(title, within)
    index = found
    return index
  end, ('row %q%s in the tree'):format(title, within and (' in ' .. within) or ''))
  vim.api.nvim_set_current_win(H.tree().window())
  -- A motion, as the writer would make, so CursorMoved runs.
  H.press(index .. 'G')
  return H.tree().current_row()
end

--- Types keys as the writer would (mappings apply).
function H.press(keys)
  vim.api.nvim_feedkeys(vim.keycode(keys), 'mx', false)
end

--- Messages in the raw log that went to the server with this method.
function H.sent(method)
  local count = 0
  for _, entry in ipairs(require('carrel.log').entries()) do
    if entry.direction == '→' and entry.text:find('"method":"' .. method .. '"', 1, true) then count = count + 1 end
  end
  return count
end

---------------------------------------------------------------- runner

local function reset_state()
  answers, unexpected = {}, {}
  H.prompts, H.notes, H.inputs, H.last_select, H.selects = {}, {}, {}, nil, {}
  vim.cmd('silent! only!')
  vim.cmd('silent! %bwipeout!')
  install_stubs()
end

function H.run_file(file)
  dofile(file)
  local short = vim.fn.fnamemodify(file, ':t:r')
  local only = vim.env.CARREL_TEST_ONLY -- a plain substring of test names, for debugging
  for _, test in ipairs(tests) do
    if only and only ~= '' and not test.name:find(only, 1, true) then goto continue end
    unload()
    reset_state()
    local ok, err = xpcall(test.fn, function(e)
      if type(e) == 'table' and e[SKIP] then return e end
    return tostring(e) .. (type(e) == 'string' and not e:find('\n') and ('\n' .. debug.traceback('', 2)) or '')
    end)
    if not ok and type(err) == 'table' and err[SKIP] then
      out(('ok - %s: %s # skip: %s'):format(short, test.name, err[SKIP]))
      goto continue
    end
    if ok and #unexpected > 0 then
      ok, err = false, 'unexpected prompts: ' .. vim.inspect(unexpected)
    end
    if ok and #answers > 0 then
      ok, err = false, 'answers never asked for: ' .. vim.inspect(answers)
    end
    if ok then
      out(('ok - %s: %s'):format(short, test.name))
    else
      out(('not ok - %s: %s'):format(short, test.name))
      for _, line in ipairs(vim.split(tostring(err), '\n')) do
        if line ~= '' and not line:find('harness.lua', 1, true) then out('  ' .. line) end
      end
      local notes = vim.tbl_map(function(n) return n.message end, H.notes)
      if #notes > 0 then out('  notifications: ' .. vim.inspect(notes)) end
      local ok_log, log_lines = pcall(function() return require('carrel.log').lines() end)
      if ok_log then
        out('  last messages:')
        for i = math.max(1, #log_lines - 11), #log_lines do out('    ' .. log_lines[i]:sub(1, 400)) end
      end
    end
    ::continue::
  end
  unload()
  out('# done')
  vim.cmd('qa!')
end

return H

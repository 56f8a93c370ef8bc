-- What each key in the sidebar does. Every action takes the row under the cursor.
local util = require('carrel.util')
local client = require('carrel.client')
local tree = require('carrel.tree')
local prompts = require('carrel.prompts')

local M = {}

-- In the order `?` lists them.
M.order = {
  'open', 'new_file', 'new_folder', 'rename', 'move', 'duplicate', 'delete', 'restore', 'empty_trash', 'new_project',
  'sort', 'move_up', 'move_down', 'set_target', 'expand', 'collapse', 'expand_all', 'collapse_all', 'refresh', 'parent',
  'help', 'close', 'ask_before_deleting', 'compile', 'toggle_compile', 'set_byline', 'undo', 'redo', 'snapshot',
  'snapshots', 'submit', 'submissions', 'market_details',
}

M.descriptions = {
  open = 'Open a file, or expand/collapse a folder',
  new_file = 'New File (opens it in insert mode)',
  new_folder = 'New Folder',
  rename = 'Rename',
  move = 'Move To (a folder picker, with “New folder…”)',
  duplicate = 'Duplicate (a copy beside it)',
  delete = 'Delete (moves to Trash)',
  restore = 'Restore (an item in Trash)',
  empty_trash = 'Empty Trash',
  new_project = 'New Project',
  sort = 'Sort',
  move_up = 'Move Up among its siblings (binder order)',
  move_down = 'Move Down among its siblings (binder order)',
  set_target = 'Set Word Target (empty clears it)',
  expand = 'Expand',
  collapse = 'Collapse',
  expand_all = 'Expand All',
  collapse_all = 'Collapse All',
  refresh = 'Refresh',
  parent = 'Go to the parent',
  help = 'Show these keys',
  close = 'Close the sidebar',
  ask_before_deleting = 'Ask before deleting again, in this project (or library)',
  compile = 'Compile… the project (a recipe and a format), then open the result',
  toggle_compile = 'Leave out of compile / Include in compile',
  set_byline = 'Set byline… of the project: its author, then its contact lines',
  undo = 'Undo the library’s last change made on this device',
  redo = 'Redo what Undo took back',
  snapshot = 'Take Snapshot… of a file (of each file in a folder)',
  snapshots = 'Snapshots… of a file: compare with one, or roll back to it',
  submit = 'Submit… the file to a market of its project',
  submissions = 'Submissions… of a file, a market or the project: set a status',
  market_details = 'Market Details… of a market folder: deadline, fee, URL…',
}

--- The nearest row, from `row` up, whose node matches.
local function up_to(row, matches)
  while row do
    if matches(row.node) then return row end
    row = row.parent
  end
  return nil
end

--- Where a new item goes: the folder under the cursor, or the one showing the file.
local function container(row)
  return up_to(row, function(node) return node.uri ~= nil and node.kind ~= 'file' end)
end

local function project_of(row)
  return up_to(row, function(node) return node.kind == 'project' end)
end

--- Opens `path` in the main window.
function M.edit(path, insert)
  local win = tree.main_window()
  vim.api.nvim_set_current_win(win)
  vim.cmd.edit(vim.fn.fnameescape(path))
  if insert then vim.cmd.startinsert() end
end

--- After a command: put the cursor on the row it answered, once the
--- `carrel/didChange` that follows has brought it.
local function refresh_onto(node)
  if type(node) == 'table' and node.uri then tree.reveal(util.path_of(node.uri)) end
end

local function needs_row(row)
  if row then return true end
  util.notify('Put the cursor on an item of the tree first.', vim.log.levels.WARN)
  return false
end

function M.open(row)
  if not needs_row(row) then return end
  local node = row.node
  if node.kind == 'file' then
    M.edit(util.path_of(node.uri))
  else
    -- Also on empty folders, so what arrives in them later shows at once.
    tree.set_expanded(row.id, not tree.is_expanded(row.id))
    tree.render()
  end
end

function M.new_file(row)
  local parent = container(row)
  if not parent then return needs_row(nil) end
  prompts.input({ prompt = 'New file name: ' }, function(name)
    local answered = false
    local arguments = { parentUri = parent.node.uri, name = name }
    client.request('workspace/executeCommand', { command = 'carrel.newFile', arguments = { arguments } },
      function(err, node)
        answered = true
        if err then return client.report(err) end
        tree.set_expanded(parent.id, true)
        refresh_onto(node)
        M.edit(util.path_of(node.uri), true)
      end)
    -- A writer types the first words right after Enter: until the file is
    -- open, keys wait in typeahead instead of reaching the sidebar.
    vim.wait(5000, function() return answered end, 5)
  end)
end

function M.new_folder(row)
  local parent = container(row)
  if not parent then return needs_row(nil) end
  prompts.input({ prompt = 'New folder name: ' }, function(name)
    client.execute('carrel.newFolder', { parentUri = parent.node.uri, name = name }, function(node)
      tree.set_expanded(parent.id, true)
      refresh_onto(node)
    end)
  end)
end

--- Rename, Move To and Delete also serve `:Carrel rename` etc. on a file.
function M.rename_uri(uri, current_name)
  prompts.input({ prompt = 'Rename to: ', default = current_name }, function(name)
    if name == current_name then return end
    client.execute('carrel.rename', { uri = uri, newName = name }, refresh_onto)
  end)
end

function M.move_uri(uri, name)
  prompts.pick_destination(uri, ('Move “%s” to: '):format(name), function(destination)
    client.execute('carrel.moveTo', { uri = uri, destinationUri = destination }, refresh_onto)
  end)
end

function M.delete_uri(uri)
  -- The server asks for confirmation itself (window/showMessageRequest).
  client.execute('carrel.delete', { uri = uri })
end

local function needs_uri(row)
  if not needs_row(row) then return false end
  if row.node.uri then return true end
  util.notify(('“%s” is a section header: choose a folder or a file.'):format(row.node.title), vim.log.levels.WARN)
  return false
end

function M.rename(row)
  if not needs_uri(row) then return end
  -- The server refuses a permanent folder whatever the name, and a rename
  -- to the same name changes nothing: asking it first gives the writer its
  -- refusal, in its words, before any typing.
  if row.node.permanent or row.node.kind == 'library' then
    return client.execute('carrel.rename', { uri = row.node.uri, newName = row.node.name })
  end
  M.rename_uri(row.node.uri, row.node.name)
end

function M.move(row)
  if needs_uri(row) then M.move_uri(row.node.uri, row.node.title or row.node.name) end
end

function M.delete(row)
  if needs_uri(row) then M.delete_uri(row.node.uri) end
end

function M.duplicate(row)
  if not needs_uri(row) then return end
  client.execute('carrel.duplicate', { uri = row.node.uri }, refresh_onto)
end

function M.restore(row)
  if not needs_uri(row) then return end
  client.execute('carrel.restore', { uri = row.node.uri }, refresh_onto)
end

function M.empty_trash(row)
  local project = project_of(row)
  if not project then
    util.notify('Put the cursor inside a project to empty its Trash.', vim.log.levels.WARN)
    return
  end
  -- The server asks first, and says what it did.
  client.execute('carrel.emptyTrash', { projectUri = project.node.uri })
end

function M.new_project(row)
  local library = up_to(row, function(node) return node.kind == 'library' end)
  if not library then
    local libraries = vim.tbl_filter(function(r) return r.node.kind == 'library' end, tree.rows())
    library = #libraries == 1 and libraries[1] or nil
  end
  if not library then
    util.notify('Put the cursor in a library to make a project there.', vim.log.levels.WARN)
    return
  end
  prompts.input({ prompt = 'Project name: ' }, function(name)
    client.offers(function(offers)
      prompts.select(offers.projectTypes or {}, {
        prompt = 'Project type: ',
        format_item = function(item) return item.title end,
      }, function(choice)
        local arguments = { parentUri = library.node.uri, name = name, type = choice.id }
        client.execute('carrel.newProject', arguments, refresh_onto)
      end)
    end)
  end)
end

function M.sort(row)
  local owner = project_of(row) or up_to(row, function(node) return node.kind == 'library' end)
  if not owner then return needs_row(nil) end
  client.offers(function(offers)
    prompts.select(offers.sorts or {}, {
      prompt = 'Sort by: ',
      format_item = function(item) return item.title end,
    }, function(choice)
      local arguments = { uri = owner.node.uri, by = choice.by, descending = choice.descending }
      client.execute('carrel.setSort', arguments, refresh_onto)
    end)
  end)
end

--- Rows the writer can put in order: files and their own folders, not
--- sections, permanent folders, "All" or the rows it lists (those carry an `id`).
local function orderable(node)
  return node.uri ~= nil and node.id == nil and (node.kind == 'file' or node.kind == 'folder')
    and not node.permanent and not node.virtual
end

--- The row's orderable siblings under the same parent, in display order, and the row's place among them.
local function siblings(row)
  local parent = row.parent and tree.entry(row.parent.id)
  local list, place = {}, nil
  for _, key in ipairs(parent and parent.children or {}) do
    local entry = tree.entry(key)
    if entry and orderable(entry.node) then
      table.insert(list, entry.node)
      if key == row.id then place = #list end
    end
  end
  return list, place
end

--- Moves the row one place up (-1) or down (+1) with `carrel.reorder`; at either end nothing is sent.
local function reorder(row, step)
  if not needs_row(row) then return end
  if not orderable(row.node) then
    util.notify(('“%s” keeps its place: only files and your own folders move up and down.')
      :format(row.node.title or row.node.name), vim.log.levels.WARN)
    return
  end
  local list, place = siblings(row)
  local neighbour = place and list[place + step]
  if not neighbour then
    util.notify(('“%s” is already %s.'):format(row.node.title or row.node.name, step < 0 and 'first' or 'last'))
    return
  end
  local arguments = { uri = row.node.uri }
  arguments[step < 0 and 'before' or 'after'] = neighbour.uri
  local uri = row.node.uri
  client.execute('carrel.reorder', arguments, function(node)
    refresh_onto(type(node) == 'table' and node.uri and node or { uri = uri })
  end)
end

function M.move_up(row) reorder(row, -1) end

function M.move_down(row) reorder(row, 1) end

--- Sets or clears (an empty answer) the word target of a project, folder or file.
function M.set_target(row)
  if not needs_uri(row) then return end
  local uri, current = row.node.uri, row.node.target
  local prompt = ('Word target for “%s” (empty clears it): '):format(row.node.title or row.node.name)
  -- Not prompts.input: an empty answer means something here (clear the target); only dismissing does nothing.
  vim.ui.input({ prompt = prompt, default = current and tostring(current) or '' }, util.guard(function(text)
    if text == nil then return end
    text = vim.trim(text)
    local words = vim.NIL
    -- Anything but digits goes as typed: the server's refusal says what it expects, in the writer's language.
    if text ~= '' then words = text:match('^%d+$') and tonumber(text) or text end
    client.execute('carrel.setTarget', { uri = uri, words = words })
  end))
end

--- Opens a compiled document: text formats in the main window, the
--- others (DOCX, ODT, EPUB, PDF) with the system's viewer.
local text_formats = { markdown = true, text = true, html = false, fountain = true }

local function open_compiled(result)
  if type(result) ~= 'table' or not result.path then return end
  if text_formats[result.format] then
    M.edit(result.path)
  elseif vim.ui.open then
    vim.ui.open(result.path)
  end
  tree.reveal(result.path)
end

--- Compile…: picks one of the recipes the project offers (its type's and
--- its own, from `carrel/compileOptions`) and a format (from what
--- `initialize` offers), then compiles and opens the document. The server
--- reports what it wrote and counted (window/showMessage).
function M.compile(row)
  local project = project_of(row)
  if not project then
    util.notify('Put the cursor in a project to compile it.', vim.log.levels.WARN)
    return
  end
  client.request('carrel/compileOptions', { projectUri = project.node.uri }, function(err, options)
    if err then return client.report(err) end
    client.offers(function(offers)
      local compile = offers.compile or {}
      prompts.select((options or {}).recipes or {}, {
        prompt = 'Recipe: ',
        format_item = function(item) return item.title end,
      }, function(recipe)
        -- The recipe's own format first, so Enter keeps it.
        local formats = {}
        for _, f in ipairs(compile.formats or {}) do
          if f.id == recipe.format then table.insert(formats, 1, f) else table.insert(formats, f) end
        end
        prompts.select(formats, {
          prompt = 'Format: ',
          format_item = function(item) return item.title end,
        }, function(format)
          local arguments = { projectUri = project.node.uri, recipe = recipe.name, format = format.id }
          client.execute('carrel.compile', arguments, function(result)
            open_compiled(result)
            M._offer_packet(result, project.node.title or project.node.name)
          end)
        end)
      end)
    end)
  end)
end

--- Set byline…: the compiled title page's author, then its contact lines
--- (joined by " | "), each prompt holding what the project has now
--- (`carrel/compileOptions`); an empty answer clears, dismissing sends nothing.
function M.set_byline(row)
  local project = project_of(row)
  if not project then
    util.notify('Put the cursor in a project to set its byline.', vim.log.levels.WARN)
    return
  end
  local uri = project.node.uri
  client.request('carrel/compileOptions', { projectUri = uri }, function(err, options)
    if err then return client.report(err) end
    local byline = (options or {}).byline or {}
    local author = type(byline.author) == 'string' and byline.author or ''
    local lines = table.concat(type(byline.contact) == 'table' and byline.contact or {}, ' | ')
    -- Not prompts.input: an empty answer means something here (clear it); only dismissing does nothing.
    vim.ui.input({ prompt = 'Author: ', default = author }, util.guard(function(name)
      if name == nil then return end
      vim.ui.input({ prompt = 'Contact lines, separated by |: ', default = lines }, util.guard(function(text)
        if text == nil then return end
        local contact = {}
        for line in text:gmatch('[^|]+') do
          line = vim.trim(line)
          if line ~= '' then table.insert(contact, line) end
        end
        client.execute('carrel.setByline', { projectUri = uri, author = vim.trim(name), contact = contact })
      end))
    end))
  end)
end

--- Leaves the row out of compiled documents, or puts it back.
function M.toggle_compile(row)
  if not needs_uri(row) then return end
  if row.node.kind ~= 'file' and row.node.kind ~= 'folder' then
    util.notify('Only a file or a folder of a project can be left out of compile.', vim.log.levels.WARN)
    return
  end
  local arguments = { uri = row.node.uri, included = row.node.leftOut == true }
  client.execute('carrel.setCompileIncluded', arguments, refresh_onto)
end

--- Turns "Ask before deleting" back on, after "Delete and Don't Ask Again",
--- for the project holding `uri` (or its library outside projects).
function M.ask_before_deleting_uri(uri, on_result)
  client.execute('carrel.setConfirmDelete', { uri = uri, confirm = true }, on_result)
end

--- The choices of Link Updates, in the words every Carrel client shows.
M.LINK_UPDATES = {
  { mode = 'always', title = 'Update them without asking' },
  { mode = 'ask', title = 'Ask each time' },
  { mode = 'never', title = 'Never update them' },
}

--- Whether a move updates the links it breaks, for the project holding
--- the row (or its library outside projects); the mode in force is marked.
function M.link_updates(row)
  local owner = project_of(row) or up_to(row, function(node) return node.kind == 'library' end)
  if not owner then return needs_row(nil) end
  local now = owner.node.linkUpdates or 'ask'
  prompts.select(M.LINK_UPDATES, {
    prompt = ('When a move breaks links in “%s”:'):format(owner.node.title),
    format_item = function(item) return item.title .. (item.mode == now and ' (now)' or '') end,
  }, function(choice)
    client.execute('carrel.setLinkUpdates', { uri = owner.node.uri, mode = choice.mode }, refresh_onto)
  end)
end

function M.ask_before_deleting(row)
  local owner = project_of(row) or up_to(row, function(node) return node.kind == 'library' end)
  if not owner then return needs_row(nil) end
  M.ask_before_deleting_uri(owner.node.uri, refresh_onto)
end

--- The nearest row with a URI, from `row` up: a section header stands for its project.
local function with_uri(row)
  return up_to(row, function(node) return node.uri ~= nil end)
end

--- After undo or redo: the cursor goes to the item, unless the answer is
--- the library (nothing to undo) or an item the step put in the Trash.
local function onto_undone(node)
  if type(node) == 'table' and node.kind ~= 'library' and not node.inTrash then refresh_onto(node) end
end

--- Undo and Redo: the library's last step on this device; the server says what it did.
local function undo_step(command, row)
  local owner = with_uri(row)
  -- An empty Lua table would go as a JSON array; the server wants an object.
  local arguments = owner and { library = owner.node.uri } or vim.empty_dict()
  client.execute(command, arguments, onto_undone)
end

function M.undo(row) undo_step('carrel.undo', row) end

function M.redo(row) undo_step('carrel.redo', row) end

--- Snapshot: a dated copy of the file's text, with an optional title; on a
--- folder or project, of each file in it. The server reports what it took.
function M.snapshot(row)
  if not needs_uri(row) then return end
  local uri = row.node.uri
  -- Not prompts.input: an empty title is a fine answer (no title); only dismissing does nothing.
  vim.ui.input({ prompt = 'Snapshot title (optional): ' }, util.guard(function(text)
    if text == nil then return end
    text = vim.trim(text)
    client.execute('carrel.snapshot', { uri = uri, title = text ~= '' and text or nil })
  end))
end

local function snapshot_label(snapshot)
  local parts = { snapshot.date }
  if type(snapshot.title) == 'string' then table.insert(parts, snapshot.title) end
  table.insert(parts, ('%s words'):format(tostring(snapshot.words)))
  return table.concat(parts, ' · ')
end

local COMPARE, ROLL_BACK = 'Compare with the current text', 'Roll back to this snapshot'

--- Snapshots (history): the file's snapshots, newest first as the server
--- sends them; one chosen is compared with the file in a diff tab, or the
--- file is rolled back to it (the server keeps the replaced text as a snapshot).
function M.snapshots(row)
  if not needs_uri(row) then return end
  local uri, name = row.node.uri, row.node.title or row.node.name
  local path = util.path_of(uri)
  client.execute('carrel.snapshots', { uri = uri }, function(result)
    local snapshots = type(result) == 'table' and result.snapshots or {}
    if #snapshots == 0 then return util.notify(('“%s” has no snapshots yet.'):format(name)) end
    prompts.select(snapshots, { prompt = ('Snapshots of “%s”'):format(name), format_item = snapshot_label },
      function(snapshot)
        prompts.select({ COMPARE, ROLL_BACK }, { prompt = 'Snapshot of ' .. snapshot.date }, function(choice)
          local arguments = { uri = uri, snapshot = snapshot.name }
          if choice == COMPARE then
            client.execute('carrel.compareSnapshot', arguments, function(compared)
              require('carrel.snapshot_view').open(compared.snapshot or snapshot, path)
              util.notify(compared.summary)
            end)
          else
            client.execute('carrel.rollBack', arguments, function()
              require('carrel.snapshot_view').reload(path)
            end)
          end
        end)
      end)
  end)
end

--- Asks for one of the markets of `uris`' project and the day sent
--- (today's, to edit), then submits them; `packet` is the compiled
--- document they went out in, if any. A market that refuses simultaneous
--- submissions makes the server ask first, through the showMessageRequest
--- handler.
local function submit_to_market(uris, name, project_title, packet)
  client.request('carrel/destinations', { uri = uris[1], purpose = 'submit' }, function(err, result)
    if err then return client.report(err) end
    if type(result) ~= 'table' or #result == 0 then
      return util.notify(('“%s” has no market yet: make a folder in Magazines, Competitions, Commissions or Other.')
        :format(project_title), vim.log.levels.WARN)
    end
    local markets = vim.tbl_map(function(market)
      return { uri = market.uri, label = table.concat(market.label or {}, ' › ') }
    end, result)
    local prompt = #uris == 1 and ('Submit “%s” to: '):format(name) or ('Submit %d pieces to: '):format(#uris)
    prompts.select(markets, {
      prompt = prompt,
      format_item = function(item) return item.label end,
      kind = 'carrel_folder',
    }, function(market)
      prompts.input_each({ { prompt = 'Date sent (YYYY-MM-DD): ', default = os.date('%Y-%m-%d') } }, function(answers)
        local date = vim.trim(answers[1])
        client.execute('carrel.submit', {
          items = uris, marketUri = market.uri, date = date ~= '' and date or nil, packetUri = packet,
        })
      end)
    end)
  end)
end

--- Submit: the file goes to one of its project's markets.
function M.submit(row)
  if not needs_uri(row) then return end
  if row.node.kind ~= 'file' then
    local said = ('“%s” is not a file: put the cursor on the piece to submit.'):format(row.node.title or row.node.name)
    return util.notify(said, vim.log.levels.WARN)
  end
  local name = row.node.title or row.node.name
  local project = project_of(row)
  submit_to_market({ row.node.uri }, name, project and project.node.title or name)
end

--- After a compile of a submission packet: Submit this packet… runs
--- Submit… on the pieces compiled, the document as their packet.
local function offer_packet(result, project_title)
  if type(result) ~= 'table' or not result.submission or type(result.pieceUris) ~= 'table'
    or #result.pieceUris == 0 then
    return
  end
  local document = vim.fs.basename(result.path or '')
  prompts.select({ 'Submit this packet…' }, { prompt = ('Compiled “%s”:'):format(document) }, function()
    local first = vim.fs.basename(vim.uri_to_fname(result.pieceUris[1]))
    submit_to_market(result.pieceUris, first, project_title, result.uri)
  end)
end
M._offer_packet = offer_packet

local MARKET_ROLES = { magazines = true, competitions = true, commissions = true, other = true }

local function is_market(row)
  return row ~= nil and row.node.kind == 'folder' and row.parent ~= nil
    and MARKET_ROLES[row.parent.node.role] == true
end

local WITHDRAW = 'Withdraw it everywhere else'

--- One piece at one market: a status to set (the current one marked), and,
--- once accepted, withdrawing it from every other market.
local function piece_at_market(entry)
  client.offers(function(offers)
    local choices = {}
    for _, status in ipairs((offers.submissions or {}).statuses or {}) do
      local now = status.id == entry.piece.status and ' (now)' or ''
      table.insert(choices, { status = status.id, label = status.title .. now })
    end
    if entry.piece.status == 'accepted' then table.insert(choices, { withdraw = true, label = WITHDRAW }) end
    local question = ('“%s” at “%s”: '):format(entry.piece_name, entry.market)
    prompts.select(choices, { prompt = question, format_item = function(item) return item.label end },
      function(choice)
        local arguments = { record = entry.record, piece = entry.piece.key }
        if choice.withdraw then return client.execute('carrel.withdrawOthers', arguments) end
        arguments.status = choice.status
        client.execute('carrel.setSubmissionStatus', arguments)
      end)
  end)
end

--- Submissions: a piece's history, a market's, or a project's (from any
--- row of it, the Submissions folder too), one row per piece sent.
function M.submissions(row)
  local scope = with_uri(row)
  if scope and scope.node.role == 'submissions' then scope = project_of(scope) end
  if not scope then return needs_row(nil) end
  client.request('carrel/submissions', { uri = scope.node.uri }, function(err, result)
    if err then return client.report(err) end
    local entries = {}
    for _, submission in ipairs(type(result) == 'table' and result.submissions or {}) do
      local market = (submission.market or {}).name or ''
      for _, piece in ipairs(submission.pieces or {}) do
        table.insert(entries, {
          record = submission.id, piece = piece, market = market, sent = submission.sent,
          piece_name = util.basename(piece.path or ''),
        })
      end
    end
    if #entries == 0 then return util.notify('No submissions yet.') end
    prompts.select(entries, {
      prompt = 'Submissions',
      format_item = function(e)
        return table.concat({ e.piece.title or e.piece.status, e.market, e.sent, e.piece_name }, ' · ')
      end,
    }, piece_at_market)
  end)
end

--- Market details: each field asked in turn, prefilled with the market's
--- value (`carrel/market`). An answer left as prefilled is not sent, so a
--- field another machine changed meanwhile keeps that change; one emptied
--- is sent as null, which clears it. Dismissing any question sends nothing.
function M.market_details(row)
  if not is_market(row) then
    return util.notify('Market details are kept on a folder in Magazines, Competitions, Commissions or Other.',
      vim.log.levels.WARN)
  end
  local uri = row.node.uri
  local fields = {
    { 'deadline', 'Deadline (YYYY-MM-DD, empty for none): ' }, { 'readingPeriod', 'Reading period: ' },
    { 'fee', 'Fee: ' }, { 'url', 'URL: ' }, { 'simultaneous', 'Simultaneous submissions (yes/no): ' },
    { 'notes', 'Notes: ' },
  }
  client.request('carrel/market', { uri = uri }, function(err, details)
    if err then return client.report(err) end
    details = type(details) == 'table' and details or {}
    local prefills = vim.tbl_map(function(field)
      local value = details[field[1]]
      if type(value) == 'boolean' then return value and 'yes' or 'no' end
      return type(value) == 'string' and value or ''
    end, fields)
    local questions = {}
    for index, field in ipairs(fields) do questions[index] = { prompt = field[2], default = prefills[index] } end
    prompts.input_each(questions, function(answers)
      local given = vim.empty_dict()
      for index, field in ipairs(fields) do
        local text = vim.trim(answers[index])
        if text ~= prefills[index] then given[field[1]] = text == '' and vim.NIL or text end
      end
      -- Anything but yes or no goes as typed: the server's refusal says what it expects.
      local flag = { yes = true, y = true, no = false, n = false }
      if type(given.simultaneous) == 'string' and flag[given.simultaneous:lower()] ~= nil then
        given.simultaneous = flag[given.simultaneous:lower()]
      end
      client.execute('carrel.setMarket', { uri = uri, fields = given })
    end)
  end)
end

function M.expand(row)
  if not needs_row(row) or row.node.kind == 'file' then return end
  tree.set_expanded(row.id, true)
  tree.render()
end

--- Collapses the row, or, on a leaf or a closed folder, its parent.
function M.collapse(row)
  if not needs_row(row) then return end
  if row.node.hasChildren and tree.is_expanded(row.id) then
    tree.set_expanded(row.id, false)
    tree.render(row.id)
  elseif row.parent then
    tree.set_expanded(row.parent.id, false)
    tree.render(row.parent.id)
  end
end

--- Fetching each folder as it opens is the one way to ask for more than
--- what shows: the writer asked for everything.
--- Expands every row below the row under the cursor (everything, on a top
--- row), a level at a time as each arrives. "All" stays closed: it lists
--- again what its folders hold.
function M.expand_all(row)
  local function open(key)
    local entry = tree.entry(key)
    if not entry or not entry.node.hasChildren or entry.node.role == 'all' then return end
    tree.set_expanded(key, true)
    local function below()
      for _, child in ipairs((tree.entry(key) or {}).children or {}) do open(child) end
      tree.render()
    end
    if entry.children then below() else tree.fetch(key, below) end
  end
  if row and row.node.kind == 'file' then row = row.parent end
  local tops = (row and row.depth > 0) and { row.id } or tree.state.roots or {}
  for _, key in ipairs(tops) do open(key) end
  tree.render()
end

--- Collapses everything below the libraries, so the projects stay in view.
function M.collapse_all()
  tree.walk(function(row)
    if row.node.hasChildren then tree.set_expanded(row.id, row.depth == 0) end
  end)
  tree.render()
end

function M.refresh() tree.refresh() end

function M.parent(row)
  if row and row.parent then tree.render(row.parent.id) end
end

function M.help() require('carrel.help').show() end

function M.close() tree.close() end

--- Installs the configured keys on the sidebar buffer.
function M.map_keys(buf)
  for lhs, action in pairs(require('carrel').config.keys) do
    local fn = type(action) == 'function' and action or (M.descriptions[action] and M[action])
    if action ~= false and fn then
      vim.keymap.set('n', lhs, util.guard(function()
        local row = tree.current_row()
        if row and row.node.kind == 'hint' then
          -- The onboarding line stands for its library; Enter does what it says.
          if action == 'open' then fn = M.new_project end
          row = row.parent
        end
        fn(row)
      end), {
        buffer = buf,
        nowait = true,
        desc = type(action) == 'string' and ('Carrel: ' .. M.descriptions[action]) or 'Carrel',
      })
    end
  end
end

return M

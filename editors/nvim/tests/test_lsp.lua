local H = require('harness')

H.test("vim.lsp.enable('carrel') starts the server in a project; workspace_symbol finds files and folders", function()
  -- No setup(): stock vim.lsp, with `carrel` found on PATH by lsp/carrel.lua.
  local library = H.new_library()
  H.sh(('cd %s && carrel init %s --type poetry'):format(vim.fn.shellescape(library), vim.fn.shellescape('My Poems')))
  local spring = library .. '/My Poems/Draft/Spring.md'
  H.write(spring, 'spring')
  H.write(library .. '/My Poems/Ready/Summer.md', 'summer')
  vim.lsp.enable('carrel')
  vim.cmd('edit ' .. vim.fn.fnameescape(spring))
  local client
  H.wait(function()
    client = vim.lsp.get_clients({ name = 'carrel', bufnr = 0 })[1]
    return client and client.initialized
  end, 'the carrel client to attach')
  H.eq(client.root_dir, library .. '/My Poems', 'root is the project')
  local items
  H.wait(function()
    vim.lsp.buf.workspace_symbol('sprng', { on_list = function(list) items = list.items end })
    vim.wait(2000, function() return items ~= nil end, 20)
    return items and #items > 0
  end, 'workspace symbols for "sprng"')
  H.eq(items[1].filename, spring, 'best match')
  H.truthy(items[1].text:find('Spring.md', 1, true), 'item text: ' .. items[1].text)
  -- Folders are listed too, as in Emacs and VS Code; choosing one edits the
  -- folder, which Neovim shows as a directory listing.
  items = nil
  vim.lsp.buf.workspace_symbol('Ready', { on_list = function(list) items = list.items end })
  vim.wait(2000, function() return items ~= nil end, 20)
  local folder = vim.tbl_filter(function(item) return item.filename == library .. '/My Poems/Ready' end, items or {})
  H.eq(#folder, 1, 'the Ready folder is a result: ' .. vim.inspect(items))
  vim.lsp.enable('carrel', false)
  client:stop(true)
end)

H.test('the stock client gets the outline of a chapter, with each section\'s words, and of its unsaved text', function()
  -- No setup() again: only what Neovim's own LSP client does.
  local library = H.new_library()
  H.sh(('cd %s && carrel init %s --type novel'):format(vim.fn.shellescape(library), vim.fn.shellescape('Winter')))
  local chapter = library .. '/Winter/Novel/One.md'
  H.write(chapter, '# Arrival\nThe train was late.\n\n## Platform\nSnow on the rails.\n# Departure\nGone.\n')
  vim.lsp.enable('carrel')
  vim.cmd('edit ' .. vim.fn.fnameescape(chapter))
  local client
  H.wait(function()
    client = vim.lsp.get_clients({ name = 'carrel', bufnr = 0 })[1]
    return client and client.initialized
  end, 'the carrel client to attach')
  local function outline()
    local params = { textDocument = vim.lsp.util.make_text_document_params(0) }
    local replies = vim.lsp.buf_request_sync(0, 'textDocument/documentSymbol', params, 5000) or {}
    local reply = replies[client.id]
    return reply and reply.result or {}
  end
  local symbols = outline()
  H.eq(vim.tbl_map(function(s) return s.name .. ' ' .. s.detail end, symbols),
    { 'Arrival 8 words', 'Departure 1 word' }, 'the top-level sections')
  H.eq(symbols[1].children[1].name .. ' ' .. symbols[1].children[1].detail, 'Platform 4 words', 'a subsection')
  -- An edit not saved: the outline is the buffer's, sent with full sync.
  vim.api.nvim_buf_set_lines(0, 0, 1, false, { '# Arrival at dawn' })
  H.wait(function()
    local now = outline()
    return now[1] and now[1].name == 'Arrival at dawn'
  end, 'the outline of the unsaved buffer')
  H.eq(H.read(chapter):sub(1, 9), '# Arrival', 'nothing was written')
  vim.cmd('bwipeout!')
  vim.lsp.enable('carrel', false)
  client:stop(true)
end)

H.test('stock vim.lsp.start in a project folder, no version control: delete goes to the project Trash', function()
  -- No setup() and no lsp/carrel.lua: the folder of the opened file is the
  -- root, as a writer's own vim.lsp.start({ root_dir = ... }) would give it.
  local library = H.new_library()
  H.sh(('cd %s && carrel init %s --type poetry'):format(vim.fn.shellescape(library), vim.fn.shellescape('My Poems')))
  local draft = library .. '/My Poems/Draft'
  local spring = draft .. '/Spring.md'
  H.write(spring, 'spring')
  vim.fn.mkdir(draft .. '/Sea Cycle', 'p')
  H.write(draft .. '/Sea Cycle/Waves.md', 'waves')
  H.write(library .. '/My Poems/Ready/Summer.md', 'summer')
  vim.cmd('edit ' .. vim.fn.fnameescape(spring))
  local client_id = vim.lsp.start({ name = 'stock-carrel', cmd = { 'carrel', 'lsp' }, root_dir = draft })
  local client = vim.lsp.get_client_by_id(client_id)
  H.wait(function() return client.initialized end, 'the stock client to initialize')
  local function symbols(query)
    local reply = client:request_sync('workspace/symbol', { query = query }, 5000, 0)
    H.truthy(reply and not reply.err, 'workspace/symbol answered: ' .. vim.inspect(reply))
    local paths = vim.tbl_map(function(s) return vim.uri_to_fname(s.location.uri) end, reply.result or {})
    table.sort(paths)
    return paths
  end
  -- The whole library's files, and no folder, which a stock client opens as a file.
  H.eq(symbols('s'), { draft .. '/Sea Cycle/Waves.md', spring, library .. '/My Poems/Ready/Summer.md' },
    'files of the library')
  local reply = client:request_sync('workspace/executeCommand',
    { command = 'carrel.delete', arguments = { { uri = vim.uri_from_fname(spring), confirmed = true } } }, 5000, 0)
  H.truthy(reply and reply.result and reply.result.inTrash, 'deleted into a Trash: ' .. vim.inspect(reply))
  H.truthy(H.exists(library .. '/My Poems/Trash/Spring.md'), 'in the project\'s Trash')
  vim.cmd('bwipeout!')
  client:stop(true)
end)

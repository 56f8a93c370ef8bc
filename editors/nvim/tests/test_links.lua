-- Links in the writer's own buffers: the plugin's client attaches to the
-- library's Markdown and Fountain buffers, so the server sees their text and
-- stock vim.lsp features (definition, references, diagnostics) work there,
-- and a rename through the binder updates links in unsaved buffers.
local H = require('harness')

local SCENE = 'She met [Ada](../Characters/Ada.md) at the ball.'

--- A novel with a character and a scene that links to her; returns both paths.
local function novel()
  H.setup()
  local project = H.project('Winter', 'novel')
  local ada = H.put(project .. '/Characters/Ada.md', '# Ada\nA mathematician.')
  local scene = H.put(project .. '/Novel/One.md', SCENE)
  return ada, scene
end

local function carrel_client(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = 'carrel' })[1]
end

local function lines(buf) return vim.api.nvim_buf_get_lines(buf, 0, -1, false) end

H.test('a rename in the binder updates the link in an open scene, keeping its unsaved text and writing nothing',
  function()
    local ada, scene = novel()
    vim.cmd('edit ' .. vim.fn.fnameescape(scene))
    local buf = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_lines(buf, 1, 1, false, { 'Words not saved yet.' })
    H.open()
    H.wait(function() return carrel_client(buf) ~= nil end, 'the Carrel client to attach to the scene')
    H.go('Characters')
    H.press('zo')
    H.go('Ada.md', 'Characters')
    H.answer('Ada Lovelace.md', 'Update Links')
    H.press('r')
    H.wait(function() return lines(buf)[1]:find('Ada%20Lovelace.md', 1, true) ~= nil end, 'the link to follow')
    H.eq(lines(buf), { 'She met [Ada](../Characters/Ada%20Lovelace.md) at the ball.', 'Words not saved yet.' },
      'the link changed, the unsaved text kept')
    H.eq(vim.bo[buf].modified, true, 'still modified')
    H.eq(H.read(scene), SCENE, 'nothing written to the scene on disk')
    H.eq(H.exists(ada), false, 'the character was renamed')
    H.wait_note('Updated 1 link in 1 file.')
    -- One undo step takes the link back; the writer's own edit stays.
    vim.api.nvim_buf_call(buf, function() vim.cmd('silent undo') end)
    H.eq(lines(buf), { SCENE, 'Words not saved yet.' }, 'one undo step undoes the link update')
  end)

H.test('in a scene, definition goes to the character, references list the scene, and broken links are shown',
  function()
    local ada, scene = novel()
    -- Opened before the server starts: it is attached when the server is ready.
    vim.cmd('edit ' .. vim.fn.fnameescape(scene))
    local buf = vim.api.nvim_get_current_buf()
    H.open()
    H.wait(function() return carrel_client(buf) ~= nil end, 'the Carrel client to attach to the scene')
    vim.cmd('wincmd p')
    H.eq(vim.api.nvim_get_current_buf(), buf, 'back in the scene')
    H.eq(vim.bo[buf].tagfunc, 'v:lua.vim.lsp.tagfunc', 'CTRL-] goes to definitions')
    vim.api.nvim_win_set_cursor(0, { 1, 10 })
    vim.lsp.buf.definition()
    H.wait(function() return vim.api.nvim_buf_get_name(0) == ada end, 'definition to open the character')
    local character = vim.api.nvim_get_current_buf()
    H.wait(function() return carrel_client(character) ~= nil end, 'the client to attach to the character')
    vim.fn.setqflist({}, 'r')
    vim.lsp.buf.references()
    H.wait(function() return #vim.fn.getqflist() > 0 end, 'the backlinks in the quickfix list')
    local backlinks = vim.tbl_map(function(item)
      return { vim.api.nvim_buf_get_name(item.bufnr), item.lnum }
    end, vim.fn.getqflist())
    H.eq(backlinks, { { scene, 1 } }, 'the scene links to the character')
    vim.cmd('buffer ' .. buf)
    vim.api.nvim_buf_set_lines(buf, 1, 1, false, { 'And [[Nobody]] came.' })
    H.wait(function() return #vim.diagnostic.get(buf) > 0 end, 'a diagnostic for the broken link')
    local diagnostic = vim.diagnostic.get(buf)[1]
    H.eq({ diagnostic.lnum, diagnostic.message, diagnostic.severity },
      { 1, 'Nothing in the library is called “Nobody”.', vim.diagnostic.severity.WARN }, 'the broken link')
    H.eq(H.read(scene), SCENE, 'nothing written')
  end)

H.test('buffers outside the libraries, and files that are not Markdown or Fountain, are left alone', function()
  local _, scene = novel()
  local notes = H.put(vim.fs.dirname(scene) .. '/notes.txt', 'plain')
  local outside = vim.trim(H.sh('mktemp -d')) .. '/Elsewhere.md'
  H.write(outside, 'elsewhere')
  H.open()
  vim.cmd('wincmd p')
  vim.cmd('edit ' .. vim.fn.fnameescape(scene))
  local attached = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. vim.fn.fnameescape(notes))
  local plain = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. vim.fn.fnameescape(outside))
  local elsewhere = vim.api.nvim_get_current_buf()
  H.wait(function() return carrel_client(attached) ~= nil end, 'the client on the scene')
  H.eq(carrel_client(plain), nil, 'not on a .txt file')
  H.eq(carrel_client(elsewhere), nil, 'not outside the library')
end)

H.test('a buffer that follows its renamed file is closed under the old URI and opened under the new one', function()
  local ada = novel()
  vim.cmd('edit ' .. vim.fn.fnameescape(ada))
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 1, 1, false, { 'Born in London.' })
  H.open()
  H.wait(function() return carrel_client(buf) ~= nil end, 'the Carrel client to attach')
  H.go('Characters')
  H.press('zo')
  H.go('Ada.md', 'Characters')
  H.answer('Ada Lovelace.md', "Don't Update")
  H.press('r')
  local renamed = vim.fs.dirname(ada) .. '/Ada Lovelace.md'
  H.wait(function() return vim.api.nvim_buf_get_name(buf) == renamed end, 'the buffer to follow')
  H.wait(function()
    local opened = H.requests('textDocument/didOpen')
    return #opened == 2 and opened[2].params.textDocument.uri == H.uri(renamed)
  end, 'the buffer opened under its new URI')
  local closed = H.requests('textDocument/didClose')
  H.eq(#closed, 1, 'one didClose')
  H.eq(closed[1].params.textDocument.uri, H.uri(ada), 'closed under the old URI')
  H.eq(H.requests('textDocument/didOpen')[2].params.textDocument.text, '# Ada\nBorn in London.\nA mathematician.\n',
    'its unsaved text')
  H.eq(carrel_client(buf) ~= nil, true, 'still attached')
  H.wait(function() return H.pending_answers() == 0 end, 'the question about the scene\'s link')
end)

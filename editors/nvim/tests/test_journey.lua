local H = require('harness')

H.test('a new writer makes a Poetry project, drafts, moves, renames, trashes and restores from the sidebar', function()
  local library = H.setup()
  local project = library .. '/My Poems'
  vim.cmd('Carrel')
  H.wait(function() return #H.tree().rows() > 0 end, 'the sidebar')

  H.answer('My Poems', 'Poetry')
  H.press('P')
  H.go('Draft', 'My Poems')

  H.answer('Spring')
  -- Typed as a writer types: the first words right after the name.
  H.press('aRoses are red<Esc>')
  local draft = project .. '/Draft/Spring.md'
  H.wait(function() return vim.api.nvim_buf_get_name(0) == draft end, 'the new draft to open')
  vim.cmd('write')
  H.eq(H.read(draft), 'Roses are red', 'the draft on disk')
  local buf = vim.api.nvim_get_current_buf()

  vim.cmd('Carrel open')
  H.go('Spring.md', 'Draft')
  H.answer(H.place('My Poems', 'Ready'))
  H.press('m')
  local ready = project .. '/Ready/Spring.md'
  H.wait(function() return H.exists(ready) end, 'the draft in Ready')

  H.go('Ready')
  H.press('zo')
  H.go('Spring.md', 'Ready')
  -- Typed without an extension, the name keeps the file's own.
  H.answer('Spring Song')
  H.press('r')
  local renamed = project .. '/Ready/Spring Song.md'
  H.wait(function() return H.exists(renamed) end, 'the rename')
  H.wait(function() return vim.api.nvim_buf_get_name(buf) == renamed end, 'the buffer to follow')

  H.go('Spring Song.md', 'Ready')
  H.answer('Delete')
  H.press('d')
  local trashed = project .. '/Trash/Spring Song.md'
  H.wait(function() return H.exists(trashed) end, 'the poem in the Trash')

  H.go('TRASH')
  H.press('zo')
  H.go('Trash')
  H.press('zo')
  H.go('Spring Song.md', 'Trash')
  H.press('u')
  H.wait(function() return H.exists(renamed) end, 'the poem restored to Ready')
  H.eq(H.read(renamed), 'Roses are red', 'the words survived')
  H.wait(function() return H.row('Spring Song.md', 'Ready') end, 'the tree to show it in Ready')
end)

H.test('locale = "fr" shows French titles and server messages', function()
  H.setup({ locale = 'fr' })
  local project = H.project('Poèmes', 'poetry')
  H.open()
  H.wait(function() return H.row('Brouillons') end, 'Draft as “Brouillons”')
  H.go('Brouillons')
  -- No name asked: a permanent folder is refused before any typing.
  H.press('r')
  H.wait_note('est un dossier permanent', vim.log.levels.ERROR)
  H.truthy(vim.fn.isdirectory(project .. '/Draft') == 1, 'Draft untouched')
end)

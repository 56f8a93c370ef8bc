local H = require('harness')

H.test('setup() works with zero options and finds carrel on PATH', function()
  H.truthy(require('carrel').setup({}), 'setup({}) returned true')
  H.truthy(require('carrel').setup(), 'setup() returned true')
  local cmd = require('carrel.client').command()
  H.eq(cmd, { vim.fn.exepath('carrel'), 'lsp' }, 'server command')
  H.eq(vim.fn.resolve(cmd[1]), vim.fn.resolve(H.carrel), 'binary found on PATH')
  H.eq(require('carrel.client').libraries(), { vim.fs.normalize(vim.fn.getcwd()) }, 'libraries default to the cwd')
  H.eq(#H.notes, 0, 'notifications')
end)

H.test('setup() reports every invalid option by name and keeps the old config', function()
  local before = vim.deepcopy(require('carrel').config)
  local ok = require('carrel').setup({ width = 'wide', side = 'up', icons = 3, bogus = 1, cmd = { 1 } })
  H.eq(ok, false, 'setup() result')
  local note = H.wait_note('Carrel:', vim.log.levels.ERROR)
  for _, expected in ipairs({
    'option `width` must be a whole number of columns',
    'option `side` must be "left" or "right", got "up"',
    "option `icons` must be 'text', 'nerd', 'auto' or a table of glyphs, got 3",
    'unknown option `bogus`',
    'option `cmd` must be a path or a list of strings',
  }) do
    H.truthy(note.message:find(expected, 1, true), 'message mentions: ' .. expected .. ' in ' .. note.message)
  end
  H.eq(require('carrel').config, before, 'config after a refused setup()')
end)

H.test('setup() refuses keys mapped to unknown actions', function()
  H.eq(require('carrel').setup({ keys = { x = 'fly' } }), false, 'setup() result')
  H.wait_note('keys["x"] must be an action name', vim.log.levels.ERROR)
  H.eq(require('carrel').setup({ keys = { 'open' } }), false, 'a key given as a list item')
  H.wait_note('keys must be indexed by key sequences', vim.log.levels.ERROR)
end)

H.test('cmd given as a path runs `path lsp`', function()
  require('carrel').setup({ cmd = H.carrel })
  H.eq(require('carrel.client').command(), { H.carrel, 'lsp' }, 'server command')
end)

H.test('a missing binary is reported in words, not a stack trace', function()
  require('carrel').setup({ cmd = 'no-such-carrel-binary', libraries = { H.new_library() } })
  vim.cmd('Carrel')
  local note = H.wait_note('cannot find the `no-such-carrel-binary` program', vim.log.levels.ERROR)
  H.truthy(not note.message:find('traceback'), 'no traceback')
end)

H.test('keys are remappable and removable', function()
  H.setup({ keys = { ['<C-n>'] = 'new_file', a = false } })
  H.open()
  local buf = H.tree().buffer()
  local maps = {}
  for _, map in ipairs(vim.api.nvim_buf_get_keymap(buf, 'n')) do maps[map.lhs] = map.desc end
  H.eq(maps['<C-N>'], 'Carrel: New File (opens it in insert mode)', '<C-n> mapping')
  H.eq(maps['a'], nil, 'a mapping')
  H.eq(maps['A'], 'Carrel: New Folder', 'A mapping kept')
end)

H.test('an unknown :Carrel subcommand says which exist', function()
  H.setup()
  vim.cmd('Carrel fly')
  H.wait_note('unknown command “fly”', vim.log.levels.ERROR)
  H.eq(vim.fn.getcompletion('Carrel re', 'cmdline'), { 'refresh', 'rename', 'reveal' }, 'completion')
end)

H.test('libraries default to the directory the server started in; setup() with new libraries restarts it', function()
  local first = H.new_library()
  local second = H.new_library()
  vim.cmd('cd ' .. vim.fn.fnameescape(first))
  require('carrel').setup({ cmd = { H.carrel, 'lsp' } })
  H.open()
  H.eq(H.tree().rows()[1].node.uri, H.uri(first), 'root shown')
  vim.cmd('cd ' .. vim.fn.fnameescape(second))
  H.eq(require('carrel.client').libraries(), { first }, 'libraries after :cd')
  require('carrel').setup({ cmd = { H.carrel, 'lsp' }, libraries = { second } })
  H.wait(function() return H.tree().rows()[1] and H.tree().rows()[1].node.uri == H.uri(second) end, 'the new library')
  H.eq(#H.tree().rows(), 2, 'the new library and its onboarding line, nothing of the old one')
end)

H.test('after a failed start, fixing cmd makes :Carrel work', function()
  local library = H.new_library()
  require('carrel').setup({ cmd = 'no-such-carrel-binary', libraries = { library } })
  vim.cmd('Carrel')
  H.wait_note('cannot find', vim.log.levels.ERROR)
  require('carrel').setup({ cmd = H.carrel, libraries = { library } })
  vim.cmd('Carrel refresh')
  H.wait(function() return #H.tree().rows() > 0 and H.tree().rows()[1].node.uri == H.uri(library) end,
    'the library to show')
end)

H.test('a server that exits at once is reported, not waited for', function()
  require('carrel').setup({ cmd = { 'sh', '-c', 'echo broken >&2; exit 3' }, libraries = { H.new_library() } })
  vim.cmd('Carrel')
  H.wait_note('exit code 3', vim.log.levels.ERROR)
  vim.cmd('Carrel log')
  local log = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  H.truthy(log:find('stderr broken', 1, true), 'stderr in the log')
end)

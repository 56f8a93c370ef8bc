local H = require('harness')

local function titles()
  return vim.tbl_map(function(row) return row.node.title end, H.tree().rows())
end

local function line_of(title, within)
  local _, index = H.row(title, within)
  H.truthy(index, 'row ' .. title)
  return H.lines()[index], index
end

H.test('the first view expands the projects and their first section, nothing else', function()
  local library = H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put_folder(project .. '/Notes')
  H.put(project .. '/Draft/Spring.md')
  H.open()
  H.wait(function() return H.row('Notes') end, 'the project root folder Notes')
  local expected = { vim.fs.basename(library), 'My Poems', 'YOUR POETRY', 'All', 'Draft', 'Ready', 'Set Aside',
    'Published', 'Collections', 'Submissions', 'Research', 'Notes', 'PUBLICATIONS', 'TRASH' }
  H.eq(titles(), expected, 'rows')
  H.eq(H.row('YOUR POETRY').node.kind, 'section', 'section kind')
  H.go('PUBLICATIONS')
  H.press('zo')
  H.wait(function() return H.row('Magazines') end, 'PUBLICATIONS to open')
end)

H.test('rows show icon, title and the server summary, dimmed, with plain text icons by default', function()
  local library = H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.put_folder(project .. '/Draft/Act 1')
  for i = 1, 12 do H.put(('%s/Ready/Poem %d.md'):format(project, i), 'x') end
  H.open()
  -- Words follow the files once the server has counted them, after the first paint.
  H.wait(function() return line_of('Ready'):find('12 words', 1, true) end, 'Ready summary')
  H.eq(vim.trim(line_of('Ready')), '= Ready  12 files · 12 words', 'a permanent folder')
  H.eq(vim.trim(line_of('Draft')), '= Draft  1 file · 1 word', 'Draft')
  H.eq(vim.trim(line_of('Set Aside')), '= Set Aside', 'an empty folder has no summary')
  H.eq(vim.trim(line_of('YOUR POETRY')), 'YOUR POETRY  13 files · 13 words', 'section: no mark')
  H.eq(line_of('YOUR POETRY'):match('^ *'), '    ', 'a section is indented by its depth alone, as in Vim')
  H.eq(vim.trim(line_of('My Poems')), '@ My Poems  13 files · 13 words', 'project')
  H.eq(vim.trim(line_of(vim.fs.basename(library))), '# ' .. vim.fs.basename(library) .. '  13 files · 13 words',
    'library')
  H.go('Draft')
  H.press('<CR>')
  H.wait(function() return H.row('Spring.md', 'Draft') end, 'Spring.md under Draft')
  H.eq(vim.trim(line_of('Draft')), '= Draft  1 file · 1 word', 'an open folder: the same mark')
  H.eq(vim.trim(line_of('Spring.md', 'Draft')), '. Spring.md  1 word', 'a file: its words')
  H.eq(vim.trim(line_of('Act 1', 'Draft')), '/ Act 1', 'a folder of the writer')
  for _, line in ipairs(H.lines()) do
    H.eq(vim.fn.match(line, '[\\ue000-\\uf8ff▸▾]'), -1, 'no private-use glyphs nor arrows in ' .. line)
  end
  local _, index = H.row('Ready')
  local marks = vim.api.nvim_buf_get_extmarks(H.tree().buffer(), -1, { index - 1, 0 }, { index - 1, -1 },
    { details = true })
  local dimmed = vim.tbl_filter(function(mark) return mark[4].hl_group == 'CarrelCount' end, marks)
  H.eq(#dimmed, 1, 'the summary is highlighted as a count')
  H.eq(H.lines()[index]:sub(dimmed[1][3] + 1, dimmed[1][4].end_col), '12 files · 12 words', 'the dimmed text')
end)

H.test("icons = 'nerd' shows Nerd Font glyphs mapped from SF Symbols, without chevrons", function()
  H.setup({ icons = 'nerd' })
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.open()
  H.wait(function()
    return H.row('Draft') and H.row('All') and line_of('Draft'):find('1 word', 1, true)
      and line_of('All'):find('1 word', 1, true) and line_of('My Poems'):find('1 word', 1, true)
  end, 'the words')
  H.eq(vim.trim(line_of('Draft')), '\u{f044} Draft  1 file · 1 word', 'Draft row')
  H.eq(vim.trim(line_of('All')), '\u{f0ac} All  1 file · 1 word', 'All row')
  H.eq(vim.trim(line_of('My Poems')), '\u{f0b1} My Poems  1 file · 1 word', 'project row')
  H.go('Draft')
  H.press('<CR>')
  H.wait(function() return H.row('Spring.md', 'Draft') end, 'Spring.md under Draft')
  H.eq(vim.trim(line_of('Spring.md', 'Draft')), '\u{f0f6} Spring.md  1 word', 'file row')
end)

--- Opens the binder on a library with no project, puts the cursor on the
--- onboarding line `line`, and makes the project "Sonnets" with `act`.
local function project_from_onboarding(line, act)
  H.open()
  H.wait(function() return H.has_line(line) end, 'the onboarding line')
  H.go(line)
  H.answer('Sonnets', 'Poetry')
  act()
  H.wait(function() return H.row('Sonnets') end, 'the new project')
end

H.test('with no key for New Project, the onboarding line names the command', function()
  H.setup({ keys = { P = false }, width = 60 })
  project_from_onboarding('No project yet: run :Carrel new_project to make one',
    function() vim.cmd('Carrel new_project') end)
end)

H.test('a library without a project says how to make one, with the key', function()
  H.setup({ keys = { P = false, N = 'new_project' } })
  project_from_onboarding('No project yet: press N to make one', function() H.press('N') end)
  H.wait(function() return not H.has_line('No project yet') end, 'the onboarding line to go')
end)

H.test('Enter on the onboarding line starts New Project', function()
  H.setup()
  project_from_onboarding('No project yet: press P to make one', function() H.press('<CR>') end)
end)

H.test('a summary too wide for the sidebar goes whole, and comes back when it fits', function()
  local project = (function()
    H.setup({ width = 40 })
    return H.project('My Poems', 'poetry')
  end)()
  for i = 1, 3 do H.put(('%s/Draft/Poem %d.md'):format(project, i), 'one two three four five six seven eight nine') end
  H.open()
  H.wait(function() return line_of('YOUR POETRY'):find('27 words', 1, true) end, 'the section summary')
  local win = H.tree().window()
  -- A headless Neovim has no screen to fire WinResized; draw as it would.
  vim.api.nvim_win_set_width(win, 34)
  H.tree().draw()
  H.wait(function() return vim.trim(line_of('YOUR POETRY')) == 'YOUR POETRY' end, 'the summary to go at 34 columns')
  for _, line in ipairs(H.lines()) do
    H.truthy(vim.fn.strdisplaywidth(line) <= 34 or not line:find('  %d'), 'no summary cut: ' .. line)
    H.truthy(not line:find(' wor$') and not line:find(' word$'), 'no word cut: ' .. line)
  end
  H.eq(vim.trim(line_of('Draft')), '= Draft  3 files · 27 words', 'a summary that fits stays')
  vim.api.nvim_win_set_width(win, 40)
  H.tree().draw()
  H.wait(function() return line_of('YOUR POETRY'):find('27 words', 1, true) end, 'the summary back at 40 columns')
end)

H.test('the onboarding line reads whole: its short form where the long one does not fit', function()
  H.setup({ width = 28 })
  H.open()
  H.wait(function() return H.has_line('Press P for a new project') end, 'the short onboarding line')
  H.eq(vim.trim(H.lines()[2]), 'Press P for a new project', 'the short form, whole')
  vim.api.nvim_win_set_width(H.tree().window(), 40)
  H.tree().draw()
  H.wait(function() return H.has_line('No project yet: press P to make one') end, 'the long form at 40 columns')
end)

H.test('counts = false hides counts; permanent folders are highlighted as such', function()
  H.setup({ counts = false })
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.put_folder(project .. '/Mine')
  H.open()
  H.wait(function() return H.row('Mine') end, 'Mine')
  H.eq(vim.trim(line_of('Draft')), '= Draft', 'no summary')
  local function groups_on(title)
    local _, index = H.row(title)
    local marks = vim.api.nvim_buf_get_extmarks(H.tree().buffer(), -1, { index - 1, 0 }, { index - 1, -1 },
      { details = true })
    return vim.tbl_map(function(mark) return mark[4].hl_group end, marks)
  end
  H.contains(groups_on('Draft'), 'CarrelPermanent', 'Draft highlights')
  H.contains(groups_on('Mine'), 'CarrelFolder', 'Mine highlights')
  H.contains(groups_on('YOUR POETRY'), 'CarrelSection', 'section highlights')
  H.contains(groups_on('My Poems'), 'CarrelProject', 'project highlights')
end)

H.test('"All" lists the files of Draft and Ready, flat', function()
  H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.put(project .. '/Ready/Ode.md', 'ode')
  H.open()
  H.go('All')
  H.press('<CR>')
  H.wait(function() return H.row('Spring.md', 'All') and H.row('Ode.md', 'All') end, 'All contents')
  H.eq(H.row('Spring.md', 'All').node.uri, H.uri(project .. '/Draft/Spring.md'), 'All points at the real file')
end)

H.test('? shows the keys', function()
  H.setup()
  H.open()
  H.press('?')
  H.wait(function() return vim.api.nvim_win_get_config(0).relative ~= '' end, 'a floating window')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  local keys = { 'a      New File', 'd      Delete (moves to Trash)', 'm      Move To', 'zR     Expand All',
    '-      Go to the parent', ':Carrel ask_before_deleting  Ask before deleting again' }
  for _, expected in ipairs(keys) do
    H.truthy(text:find(expected, 1, true), 'help lists ' .. expected .. '\n' .. text)
  end
  H.press('q')
  H.wait(function() return vim.api.nvim_win_get_config(0).relative == '' end, 'the float to close')
end)

H.test('icons can be replaced per SF Symbol', function()
  H.setup({ icons = { ['doc.badge.ellipsis'] = 'D!', folder = 'F!' } })
  local project = H.project('My Poems', 'poetry')
  H.put_folder(project .. '/Mine')
  H.open()
  H.wait(function() return H.row('Mine') end, 'Mine')
  H.truthy(line_of('Draft'):find('D! Draft', 1, true), 'custom Draft icon: ' .. line_of('Draft'))
  H.truthy(line_of('Mine'):find('F! Mine', 1, true), 'custom folder icon: ' .. line_of('Mine'))
  H.truthy(line_of('Ready'):find('\u{f058} Ready', 1, true), 'other icons are Nerd Font glyphs')
  H.put(project .. '/Mine/Ode.md')
  H.go('Mine')
  H.press('zo')
  H.wait(function() return H.row('Ode.md', 'Mine') end, 'Mine to open')
  H.truthy(line_of('Mine'):find('F! Mine', 1, true), 'an open folder keeps the custom glyph: ' .. line_of('Mine'))
end)

H.test('symbolic links are shown as links and open like files', function()
  H.setup()
  local project = H.project('My Poems', 'poetry')
  local target = H.put(project .. '/Draft/Spring.md', 'spring')
  vim.uv.fs_symlink(target, project .. '/Draft/Link.md')
  H.wait(function() return H.server_has(project .. '/Draft/Link.md') end, 'the server to see the link')
  H.open()
  H.go('Draft')
  H.press('zo')
  H.wait(function() return H.row('Link.md', 'Draft') end, 'Link.md')
  H.eq(vim.trim(line_of('Link.md', 'Draft')), '> Link.md', 'link row')
  H.eq(H.row('Link.md', 'Draft').node.link, true, 'node.link')
end)

H.test("icons = 'auto' shows plain text without an icon plugin", function()
  H.setup({ icons = 'auto' })
  H.put(H.project('My Poems', 'poetry') .. '/Draft/Spring.md')
  H.open()
  H.wait(function() return H.row('Draft') and line_of('Draft'):find('word', 1, true) end, 'Draft summary')
  H.eq(vim.trim(line_of('Draft')), '= Draft  1 file · 2 words', 'without an icon plugin')
end)

H.test("icons = 'auto' shows Nerd Font glyphs where an icon plugin is installed", function()
  package.loaded['mini.icons'] = {}
  local ok, err = pcall(function()
    H.setup({ icons = 'auto' })
    H.put(H.project('My Poems', 'poetry') .. '/Draft/Spring.md')
    H.open()
    H.wait(function() return H.row('Draft') and line_of('Draft'):find('word', 1, true) end, 'Draft summary')
    H.eq(vim.trim(line_of('Draft')), '\u{f044} Draft  1 file · 2 words', 'with mini.icons')
  end)
  package.loaded['mini.icons'] = nil
  if not ok then error(err, 0) end
end)

H.test('the default keys are the ones the client model gives Neovim and Vim', function()
  local protocol = H.read(vim.env.CARREL_NVIM_PLUGIN .. '/../PROTOCOL.md')
  local table_text = protocol:match('| action | Neovim and Vim | Emacs |\n(.-)\n\n')
  H.truthy(table_text, 'the key table in PROTOCOL.md')
  local wanted = {}
  for row in table_text:gmatch('[^\n]+') do
    local keys = row:match('^|[^|]*|([^|]*)|')
    for key in (keys or ''):gmatch('`([^`]+)`') do table.insert(wanted, key) end
  end
  local bound = vim.tbl_keys(require('carrel').defaults.keys)
  table.sort(wanted)
  table.sort(bound)
  H.eq(bound, wanted, 'default keys')
end)

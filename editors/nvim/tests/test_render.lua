local H = require('harness')

local function titles()
  return vim.tbl_map(function(row) return row.node.title end, H.tree().rows())
end

local function line_of(title, within)
  local _, index = H.row(title, within)
  H.truthy(index, 'row ' .. title)
  return H.lines()[index], index
end

H.test('a Poetry project shows its sections and permanent folders in template order', function()
  local library = H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put_folder(project .. '/Notes')
  H.open()
  H.wait(function() return H.row('Notes') end, 'the project root folder Notes')
  local shown = titles()
  local expected = { vim.fs.basename(library), 'My Poems', 'YOUR POETRY', 'All', 'Draft', 'Ready', 'Set Aside', 'Published',
    'Collections', 'Submissions', 'Research', 'Notes', 'PUBLICATIONS', 'Magazines', 'Competitions', 'Commissions', 'Other',
    'TRASH', 'Trash' }
  H.eq(shown, expected, 'rows')
  H.eq(H.row('YOUR POETRY').node.kind, 'section', 'section kind')
  -- Sections are headers: no indentation below the project, no counts of files.
  H.truthy(line_of('YOUR POETRY'):find('YOUR POETRY', 1, true), 'section header text')
end)

H.test('rows show Nerd Font icons mapped from SF Symbols, and counts', function()
  H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.put(project .. '/Draft/Summer.md', 'summer')
  for _, name in ipairs({ 'Act 1', 'Act 2', 'Act 3' }) do H.put_folder(project .. '/Ready/' .. name) end
  for i = 1, 12 do H.put(('%s/Ready/Poem %d.md'):format(project, i), 'x') end
  H.open()
  H.wait(function() return line_of('Draft'):find('▸ 2', 1, true) end, 'Draft counts')
  local draft = line_of('Draft')
  H.truthy(draft:find('\u{f044} Draft  ▸ 2', 1, true), 'Draft row shows pencil icon and file count: ' .. draft)
  H.truthy(line_of('Ready'):find('\u{f058} Ready  3 ▸ 12', 1, true), 'Ready row: ' .. line_of('Ready'))
  H.truthy(line_of('Trash'):find('\u{f1f8} Trash', 1, true), 'Trash icon')
  H.truthy(line_of('All'):find('\u{f0ac} All', 1, true), 'All icon')
  H.truthy(line_of('My Poems'):find('\u{f0b1} My Poems', 1, true), 'project icon')
  -- Collapsed folders show a closed chevron; expanding shows files with the document icon.
  H.truthy(draft:find('\u{f054}', 1, true), 'closed chevron on Draft')
  H.go('Draft')
  H.press('<CR>')
  H.wait(function() return H.row('Spring.md', 'Draft') end, 'Spring.md under Draft')
  H.truthy(line_of('Spring.md', 'Draft'):find('\u{f0f6} Spring.md', 1, true), 'file icon')
  H.truthy(line_of('Draft'):find('\u{f078}', 1, true), 'open chevron on Draft')
  H.truthy(not line_of('Spring.md', 'Draft'):find('▸', 1, true), 'no counts on files')
end)

H.test('icons = false shows plain text labels', function()
  local library = H.setup({ icons = false })
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.put_folder(project .. '/Draft/Act 1')
  H.open()
  H.go('Draft')
  H.press('<CR>')
  H.wait(function() return H.row('Spring.md', 'Draft') end, 'Spring.md')
  H.truthy(line_of(vim.fs.basename(library)):find('- [L] ' .. vim.fs.basename(library), 1, true), 'library label')
  H.truthy(line_of('My Poems'):find('- [P] My Poems', 1, true), 'project label')
  H.truthy(line_of('YOUR POETRY'):find('- [S] YOUR POETRY', 1, true), 'section label')
  H.truthy(line_of('All'):find('+ [A] All', 1, true), 'All label: ' .. line_of('All'))
  H.truthy(line_of('Draft'):find('- [*] Draft  1 ▸ 1', 1, true), 'permanent folder label: ' .. line_of('Draft'))
  H.truthy(line_of('Act 1'):find('  [D] Act 1', 1, true), 'folder label')
  H.truthy(line_of('Spring.md', 'Draft'):find('  [F] Spring.md', 1, true), 'file label')
  H.truthy(line_of('Trash'):find('[T] Trash', 1, true), 'Trash label')
  for _, line in ipairs(H.lines()) do
    H.eq(vim.fn.match(line, '[\\ue000-\\uf8ff]'), -1, 'private-use glyphs in ' .. line)
  end
end)

H.test('counts = false hides counts; permanent folders are highlighted as such', function()
  H.setup({ counts = false })
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  H.put_folder(project .. '/Mine')
  H.open()
  H.wait(function() return H.row('Mine') end, 'Mine')
  H.truthy(not line_of('Draft'):find('▸', 1, true), 'no counts: ' .. line_of('Draft'))
  local function groups_on(title)
    local _, index = H.row(title)
    local marks = vim.api.nvim_buf_get_extmarks(H.tree().buffer(), -1, { index - 1, 0 }, { index - 1, -1 }, { details = true })
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
  for _, expected in ipairs({ 'a      New File', 'd      Delete (moves to Trash)', 'm      Move To', 'zR     Expand All', '-      Go to the parent' }) do
    H.truthy(text:find(expected, 1, true), 'help lists ' .. expected .. '\n' .. text)
  end
  H.press('q')
  H.wait(function() return vim.api.nvim_win_get_config(0).relative == '' end, 'the float to close')
end)

local H = require('harness')

--- The winbar text without its highlight items.
local function plain(winbar) return (winbar:gsub('%%#[%w_]+#', ''):gsub('%%%%', '%%')) end

--- What the sidebar's winbar shows now.
local function tree_winbar()
  local win = H.tree().window()
  return vim.api.nvim_eval_statusline(vim.wo[win].winbar, { winid = win, use_winbar = true, maxwidth = 200 }).str
end

H.test('a project file shows Library › Project › Draft › folder › file in its winbar', function()
  local library = H.setup()
  local project = H.project('My Poems', 'poetry')
  local scene = H.put(project .. '/Draft/Act 1/Scene 1.md', 'x')
  H.open()
  vim.cmd('wincmd p')
  vim.cmd('edit ' .. vim.fn.fnameescape(scene))
  H.eq(plain(vim.wo.winbar), vim.fs.basename(library) .. ' › My Poems › Draft › Act 1 › Scene 1.md', 'file winbar')
  H.truthy(vim.wo.winbar:find('%#CarrelBreadcrumbSeparator# › ', 1, true), 'separator highlighted')
end)

H.test('the winbar follows a rename; files outside libraries get none', function()
  local library = H.setup()
  local project = H.project('My Poems', 'poetry')
  local spring = H.put(project .. '/Draft/Spring.md', 'x')
  vim.cmd('edit ' .. vim.fn.fnameescape(spring))
  H.eq(plain(vim.wo.winbar), vim.fs.basename(library) .. ' › My Poems › Draft › Spring.md', 'before')
  H.execute('carrel.rename', { uri = H.uri(spring), newName = 'Rain.md' })
  H.wait(function() return plain(vim.wo.winbar):find('Rain.md', 1, true) end, 'winbar after rename')
  local elsewhere = H.new_library() .. '/other.txt'
  H.write(elsewhere, 'x')
  vim.cmd('edit ' .. vim.fn.fnameescape(elsewhere))
  H.eq(vim.wo.winbar, '', 'winbar outside libraries')
end)

H.test('the sidebar winbar shows the breadcrumb of the cursor row, without sections', function()
  local library = H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Ready/Ode.md', 'x')
  H.open()
  H.go('Ready')
  H.press('zo')
  H.go('Ode.md', 'Ready')
  H.eq(tree_winbar(), vim.fs.basename(library) .. ' › My Poems › Ready › Ode.md', 'sidebar winbar')
  H.go('My Poems')
  H.eq(tree_winbar(), vim.fs.basename(library) .. ' › My Poems', 'winbar on the project')
end)

H.test('winbar = false leaves winbars alone', function()
  H.setup({ winbar = false })
  local project = H.project('My Poems', 'poetry')
  local spring = H.put(project .. '/Draft/Spring.md', 'x')
  vim.cmd('edit ' .. vim.fn.fnameescape(spring))
  H.eq(vim.wo.winbar, '', 'file winbar')
end)

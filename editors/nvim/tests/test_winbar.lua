local H = require('harness')

--- What the sidebar's winbar shows now.
local function tree_winbar()
  local win = H.tree().window()
  return vim.api.nvim_eval_statusline(vim.wo[win].winbar, { winid = win, use_winbar = true, maxwidth = 200 }).str
end

H.test('the breadcrumb is only in the binder: windows of library files keep their own winbar', function()
  H.setup()
  local project = H.project('My Poems', 'poetry')
  local scene = H.put(project .. '/Draft/Act 1/Scene 1.md', 'x')
  H.open()
  vim.cmd('wincmd p')
  vim.cmd('edit ' .. vim.fn.fnameescape(scene))
  local file_window = vim.api.nvim_get_current_win()
  H.execute('carrel.rename', { uri = H.uri(scene), newName = 'Scene 2.md' })
  H.wait(function() return vim.api.nvim_buf_get_name(0):find('Scene 2.md', 1, true) end, 'the buffer to follow')
  vim.cmd('split')
  for _, win in ipairs({ file_window, vim.api.nvim_get_current_win() }) do
    H.eq(vim.wo[win].winbar, '', 'winbar of a file window')
  end
  H.truthy(vim.wo[H.tree().window()].winbar ~= '', 'the binder has its breadcrumb')
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
  H.truthy(vim.wo[H.tree().window()].winbar:find('carrel.tree', 1, true), 'drawn by the binder')
  H.go('My Poems')
  H.eq(tree_winbar(), vim.fs.basename(library) .. ' › My Poems', 'winbar on the project')
end)

H.test('winbar = false leaves the sidebar winbar empty', function()
  H.setup({ winbar = false })
  H.project('My Poems', 'poetry')
  H.open()
  H.go('My Poems')
  H.eq(vim.wo[H.tree().window()].winbar, '', 'sidebar winbar')
end)

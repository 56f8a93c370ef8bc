-- A rename made in oil.nvim, another plugin, with the Carrel server running:
-- oil asks every client for `workspace/willRenameFiles` through vim.lsp, and
-- the links to the renamed file follow. oil is not part of Carrel and is not
-- kept in this repository: CARREL_OILNVIM names a checkout of it.
local H = require('harness')

local function oil()
  local checkout = vim.env.CARREL_OILNVIM
  if not checkout or checkout == '' then
    H.fail('CARREL_OILNVIM does not name a checkout of oil.nvim: run.sh runs this file only when it does')
  end
  if not H.exists(checkout .. '/lua/oil/init.lua') then
    H.fail('CARREL_OILNVIM=' .. checkout .. ' holds no lua/oil/init.lua')
  end
  vim.opt.runtimepath:prepend(checkout)
  local plugin = require('oil')
  plugin.setup({
    default_file_explorer = true,
    skip_confirm_for_simple_edits = true,
    -- Files that were not open are written once edited, as a writer who
    -- renames in oil would want.
    lsp_file_methods = { enabled = true, timeout_ms = 5000, autosave_changes = 'unmodified' },
  })
  return plugin
end

H.test('a file renamed in oil takes the links to it along, in closed files and in unsaved buffers', function()
  local plugin = oil()
  H.setup()
  local project = H.project('Winter', 'novel')
  local characters = project .. '/Characters'
  H.put(characters .. '/Ada.md', '# Ada')
  local closed = H.put(project .. '/Novel/One.md', 'She met [Ada](../Characters/Ada.md).')
  local open = H.put(project .. '/Novel/Two.md', 'Then [[Ada]] left.')
  H.open()
  vim.cmd('wincmd p')
  vim.cmd('edit ' .. vim.fn.fnameescape(open))
  local buf = vim.api.nvim_get_current_buf()
  -- Above the link, so edits made on the file's text would miss it.
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { 'Not saved yet.' })
  plugin.open(characters)
  H.wait(function()
    return vim.bo.filetype == 'oil' and vim.fn.search('Ada\\.md', 'nw') > 0
  end, 'oil to list the Characters folder')
  local line = vim.fn.search('Ada\\.md', 'nw')
  local text = vim.api.nvim_buf_get_lines(0, line - 1, line, false)[1]
  vim.api.nvim_buf_set_lines(0, line - 1, line, false, { (text:gsub('Ada%.md', 'Ada Lovelace.md')) })
  plugin.save({ confirm = false })
  H.wait(function() return H.exists(characters .. '/Ada Lovelace.md') end, 'oil to rename the file', 10000)
  H.eq(H.exists(characters .. '/Ada.md'), false, 'the old name is gone')
  H.wait(function() return H.read(closed):find('Ada%20Lovelace.md', 1, true) ~= nil end, 'the closed file to follow')
  H.eq(H.read(closed), 'She met [Ada](../Characters/Ada%20Lovelace.md).', 'the closed file')
  H.eq(vim.api.nvim_buf_get_lines(buf, 0, -1, false), { 'Not saved yet.', 'Then [[Ada Lovelace]] left.' },
    'the open buffer, its unsaved text kept')
  H.eq(vim.bo[buf].modified, true, 'the open buffer is still modified')
  H.eq(H.read(open), 'Then [[Ada]] left.', 'nothing written to the open file')
end)

local H = require('harness')

--- A poetry project whose Draft holds A.md to D.md, shown with Draft expanded.
local function three_drafts()
  H.setup()
  local project = H.project('My Poems', 'poetry')
  local uris = {}
  for _, name in ipairs({ 'A.md', 'B.md', 'C.md', 'D.md' }) do
    uris[name] = H.uri(H.put(project .. '/Draft/' .. name))
  end
  H.open()
  H.go('Draft')
  H.press('zo')
  H.wait(function() return H.row('D.md', 'Draft') end, 'Draft to list its files')
  return uris
end

--- The titles of Draft's rows, top to bottom.
local function draft_order()
  local titles = {}
  for _, row in ipairs(H.tree().rows()) do
    if row.parent and row.parent.node.title == 'Draft' and row.parent.node.role == 'draft' then
      table.insert(titles, row.node.title)
    end
  end
  return titles
end

H.test('K sends carrel.reorder before the previous sibling, J after the next one', function()
  local uris = three_drafts()
  H.go('B.md', 'Draft')
  H.press('K')
  H.wait(function() return #H.commands_sent('carrel.reorder') == 1 end, 'carrel.reorder from K')
  H.eq(H.commands_sent('carrel.reorder')[1], { uri = uris['B.md'], before = uris['A.md'] }, 'K on B.md')
  -- C.md's next sibling is D.md whether or not the server has moved B.md yet.
  H.go('C.md', 'Draft')
  H.press('J')
  H.wait(function() return #H.commands_sent('carrel.reorder') == 2 end, 'carrel.reorder from J')
  H.eq(H.commands_sent('carrel.reorder')[2], { uri = uris['C.md'], after = uris['D.md'] }, 'J on C.md')
end)

H.test('K on the first sibling and J on the last send nothing and say so', function()
  three_drafts()
  H.go('A.md', 'Draft')
  H.press('K')
  H.wait_note('“A.md” is already first')
  H.go('D.md', 'Draft')
  H.press('J')
  H.wait_note('“D.md” is already last')
  H.eq(#H.commands_sent('carrel.reorder'), 0, 'carrel.reorder requests at the ends')
end)

H.test('K and J skip over permanent folders: Draft has no sibling to trade places with', function()
  three_drafts()
  H.go('Draft')
  H.press('K')
  H.wait_note('keeps its place')
  H.eq(#H.commands_sent('carrel.reorder'), 0, 'carrel.reorder requests on a permanent folder')
end)

H.test('K moves the row up on screen and the cursor stays on it', function()
  three_drafts()
  H.needs_command('carrel.reorder')
  H.go('C.md', 'Draft')
  H.press('K')
  H.wait(function() return vim.deep_equal(draft_order(), { 'A.md', 'C.md', 'B.md', 'D.md' }) end,
    'Draft to read A, C, B, D after K on C.md')
  H.wait_cursor_on('C.md')
  H.press('J')
  H.wait(function() return vim.deep_equal(draft_order(), { 'A.md', 'B.md', 'C.md', 'D.md' }) end,
    'Draft to read A, B, C, D after J on C.md')
  H.eq(H.tree().current_row().node.title, 'C.md', 'cursor after J')
end)

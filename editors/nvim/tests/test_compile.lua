local H = require('harness')

local function story()
  H.setup()
  local project = H.project('Story', 'shortStory')
  H.put(project .. '/Draft/Opening.md', 'The sea was calm.')
  local notes = H.put(project .. '/Draft/Notes.md', 'Only for me.')
  H.open()
  H.go('Draft')
  H.press('zo')
  return project, notes
end

H.test('X leaves a row out of compile, the summary says so, and X again puts it back', function()
  local _, notes = story()
  H.go('Notes.md', 'Draft')
  H.press('X')
  H.wait(function()
    local row = H.row('Notes.md', 'Draft')
    return row and row.node.leftOut == true
  end, 'the row to be left out')
  H.eq(H.commands_sent('carrel.setCompileIncluded')[1], { uri = H.uri(notes), included = false }, 'arguments')
  H.truthy(H.row('Notes.md', 'Draft').node.summary:find('left out', 1, true), 'summary')
  H.go('Notes.md', 'Draft')
  H.press('X')
  H.wait(function() return #H.commands_sent('carrel.setCompileIncluded') == 2 end, 'the second toggle')
  H.eq(H.commands_sent('carrel.setCompileIncluded')[2].included, true, 'included again')
end)

H.test('C picks a recipe and a format from initialize and opens the compiled Markdown', function()
  local project = story()
  H.go('Notes.md', 'Draft')
  H.press('X')
  H.wait(function() return (H.row('Notes.md', 'Draft') or { node = {} }).node.leftOut == true end, 'left out')
  -- A story's manuscript is a submission packet: its offer dismissed.
  H.answer('Standard manuscript', 'Markdown', false)
  H.go('Opening.md', 'Draft')
  H.press('C')
  H.wait(function() return H.exists(project .. '/Compiled/Story.md') end, 'the compiled document')
  H.wait(function() return H.pending_answers() == 0 end, 'the offer of the packet')
  H.eq(H.commands_sent('carrel.compile')[1],
    { projectUri = H.uri(project), recipe = 'manuscript', format = 'markdown' }, 'arguments')
  H.eq(H.selects[2].labels[1], 'Word (DOCX)', "the recipe's own format first")
  local text = H.read(project .. '/Compiled/Story.md')
  H.truthy(text:find('The sea was calm.', 1, true), 'the piece')
  H.truthy(not text:find('Only for me', 1, true), 'the left-out piece')
  H.wait(function() return vim.api.nvim_buf_get_name(0) == project .. '/Compiled/Story.md' end, 'opened')
end)

H.test("C offers the project's own recipes after its type's, by their titles, and compiles one", function()
  local project = story()
  H.write(project .. '/.carrel/recipes/beta.json', '{"title":"Beta readers","format":"markdown","fileTitles":true}')
  H.answer('Beta readers', 'Markdown', false)
  H.go('Opening.md', 'Draft')
  H.press('C')
  H.wait(function() return H.exists(project .. '/Compiled/Story (beta).md') end, 'the compiled document')
  H.wait(function() return H.pending_answers() == 0 end, 'the offer of the packet')
  H.eq(H.prompts[1], 'Recipe: ', 'the recipe prompt')
  H.eq(H.commands_sent('carrel.compile')[1], { projectUri = H.uri(project), recipe = 'beta', format = 'markdown' },
    'arguments')
  H.eq(H.selects[2].labels[1], 'Markdown', "the recipe's own format first")
  H.truthy(H.read(project .. '/Compiled/Story (beta).md'):find('# Opening', 1, true), "the recipe's file titles")
end)

H.test('after compiling a packet, Submit this packet… submits the pieces compiled with the document', function()
  local project = story()
  H.put_folder(project .. '/Magazines/Granta')
  H.answer('Standard manuscript', 'Markdown', 'Submit this packet…', H.place('Story', 'Magazines', 'Granta'),
    '2026-11-20')
  H.go('Opening.md', 'Draft')
  H.press('C')
  H.wait(function() return #H.commands_sent('carrel.submit') == 1 end, 'the submission')
  H.eq(H.prompts, {
    'Recipe: ', 'Format: ', 'Compiled “Story.md”:', 'Submit 2 pieces to: ', 'Date sent (YYYY-MM-DD): ',
  }, 'the questions')
  H.eq(H.commands_sent('carrel.submit')[1], {
    items = { H.uri(project .. '/Draft/Notes.md'), H.uri(project .. '/Draft/Opening.md') },
    marketUri = H.uri(project .. '/Magazines/Granta'), date = '2026-11-20',
    packetUri = H.uri(project .. '/Compiled/Story.md'),
  }, 'the pieces compiled, with the document as their packet')
  H.wait_note('Submitted “Notes.md”, “Opening.md” to “Granta” on 2026-11-20.')
end)

H.test('B sets the byline: the author, then the contact lines, each holding what the project has', function()
  local project = story()
  H.answer('Ada Lovelace', ' 12 Any Street | ada@example.com ')
  H.go('Opening.md', 'Draft')
  H.press('B')
  H.wait(function() return #H.commands_sent('carrel.setByline') == 1 end, 'the command')
  H.eq(H.prompts, { 'Author: ', 'Contact lines, separated by |: ' }, 'the prompts')
  local contact = { '12 Any Street', 'ada@example.com' }
  local sent = { projectUri = H.uri(project), author = 'Ada Lovelace', contact = contact }
  H.eq(H.commands_sent('carrel.setByline')[1], sent, 'arguments')
  H.wait_note('Title page of “Story”: by Ada Lovelace, 2 contact lines.')
  H.answer('Ada King', '')
  H.go('Opening.md', 'Draft')
  H.press('B')
  H.wait(function() return #H.commands_sent('carrel.setByline') == 2 end, 'the second command')
  H.eq({ H.inputs[3].default, H.inputs[4].default }, { 'Ada Lovelace', '12 Any Street | ada@example.com' },
    'what the project has, to edit')
  H.eq(H.commands_sent('carrel.setByline')[2], { projectUri = H.uri(project), author = 'Ada King', contact = {} },
    'an empty answer clears')
  H.wait_note('Title page of “Story”: by Ada King, no contact lines.')
end)

local H = require('harness')

--- A poetry project with Draft/Spring.md and the markets named, the binder open on Spring.md.
local function with_markets(...)
  H.setup()
  local project = H.project('My Poems', 'poetry')
  H.put(project .. '/Draft/Spring.md', 'spring')
  for _, market in ipairs({ ... }) do H.put_folder(project .. '/Magazines/' .. market) end
  H.open()
  H.go('Draft')
  H.press('zo')
  H.go('Spring.md', 'Draft')
  return project
end

local function today() return os.date('%Y-%m-%d') end

local function submissions(project)
  local done, result
  require('carrel.client').request('carrel/submissions', { uri = H.uri(project) }, function(_, res)
    done, result = true, res
  end)
  H.wait(function() return done end, 'carrel/submissions')
  return result.submissions
end

H.test('O submits the file to the market chosen, on the date given', function()
  local project = with_markets('Granta', 'Poetry Review')
  H.answer(H.place('My Poems', 'Magazines', 'Granta'), '2026-11-20')
  H.press('O')
  H.wait_note('Submitted “Spring.md” to “Granta” on 2026-11-20.', vim.log.levels.INFO)
  H.eq(H.prompts, { 'Submit “Spring.md” to: ', 'Date sent (YYYY-MM-DD): ' }, 'prompts')
  H.eq(H.inputs[1].default, today(), 'today, prefilled')
  local sent = H.commands_sent('carrel.submit')[1]
  H.eq(sent.items, { H.uri(project .. '/Draft/Spring.md') }, 'items')
  H.eq(sent.marketUri, H.uri(project .. '/Magazines/Granta'), 'market')
  H.eq(sent.date, '2026-11-20', 'date')
  H.eq(#submissions(project), 1, 'one submission recorded')
end)

H.test('O to a market that refuses simultaneous submissions asks first, through the server’s question', function()
  local project = with_markets('Granta', 'Review')
  local spring = H.uri(project .. '/Draft/Spring.md')
  H.execute('carrel.setMarket', { uri = H.uri(project .. '/Magazines/Granta'), fields = { simultaneous = false } })
  H.execute('carrel.submit', { items = { spring }, marketUri = H.uri(project .. '/Magazines/Review') })
  H.answer(H.place('My Poems', 'Magazines', 'Granta'), '2026-11-20', 'Cancel')
  H.press('O')
  H.wait_note('nothing', vim.log.levels.INFO)
  H.eq(#submissions(project), 1, 'Cancel records nothing')
  local question = H.prompts[3]
  H.truthy(question:find('does not take simultaneous submissions', 1, true), 'the server’s question: ' .. question)
  H.answer(H.place('My Poems', 'Magazines', 'Granta'), '2026-11-20', 'Submit Anyway')
  H.press('O')
  H.wait_note('Submitted “Spring.md” to “Granta” on 2026-11-20.')
  H.eq(#submissions(project), 2, 'Submit Anyway records it')
end)

H.test('O without a market says where to make one', function()
  with_markets()
  H.press('O')
  H.wait_note('“My Poems” has no market yet: make a folder in Magazines, Competitions, Commissions or Other.')
  H.eq(#H.commands_sent('carrel.submit'), 0, 'nothing sent')
end)

H.test('I lists submissions; accepted updates the row; Withdraw it everywhere else', function()
  local project = with_markets('Granta', 'Review')
  local spring = H.uri(project .. '/Draft/Spring.md')
  local function market(name) return H.uri(project .. '/Magazines/' .. name) end
  H.execute('carrel.submit', { items = { spring }, marketUri = market('Granta'), date = '2026-11-20' })
  H.execute('carrel.submit', { items = { spring }, marketUri = market('Review'), date = '2026-11-21' })
  H.wait(function() return (H.row('Spring.md', 'Draft').node.summary or ''):find('out at 2', 1, true) end,
    'the row to say where it is out')
  local granta = ('pending · Granta · 2026-11-20 · Spring.md')
  H.answer(granta, 'accepted', 'Not Now')
  H.press('I')
  H.wait_note('“Spring.md” at “Granta”: accepted.')
  H.eq(H.prompts[1], 'Submissions', 'the list’s title')
  H.eq(H.prompts[2], '“Spring.md” at “Granta”: ', 'the statuses’ question')
  H.contains(H.selects[2].labels, 'pending (now)', 'the current status marked')
  H.eq(#H.selects[2].labels, 6, 'every status the server offers, and nothing else while pending')
  local sent = H.commands_sent('carrel.setSubmissionStatus')[1]
  H.eq(sent.status, 'accepted', 'status')
  H.eq(sent.piece, '1', 'the piece’s key')
  H.wait(function()
    local summary = H.row('Spring.md', 'Draft').node.summary or ''
    return summary:find('accepted', 1, true) and not summary:find('out at 2', 1, true)
  end, 'the row’s summary to change')
  H.go('Spring.md', 'Draft')
  H.answer('accepted · Granta · 2026-11-20 · Spring.md', 'Withdraw it everywhere else')
  H.press('I')
  H.wait_note('Withdrew “Spring.md” from “Review”.')
  H.contains(H.last_select.labels, 'accepted (now)', 'the current status marked')
  local statuses = {}
  for _, submission in ipairs(submissions(project)) do
    statuses[submission.market.name] = submission.pieces[1].status
  end
  H.eq(statuses, { Granta = 'accepted', Review = 'withdrawn' }, 'statuses on disk')
end)

H.test('accepted: the server’s offer of Published, answered through vim.lsp’s handler, moves the piece', function()
  local project = with_markets('Granta')
  local spring = H.uri(project .. '/Draft/Spring.md')
  local granta = H.uri(project .. '/Magazines/Granta')
  H.execute('carrel.submit', { items = { spring }, marketUri = granta, date = '2026-11-20' })
  H.wait(function() return (H.row('Spring.md', 'Draft').node.summary or ''):find('out at 1', 1, true) end,
    'the row to say where it is out')
  H.answer('pending · Granta · 2026-11-20 · Spring.md', 'accepted', 'Move to Published')
  H.press('I')
  H.wait(function() return vim.uv.fs_stat(project .. '/Published/Spring.md') ~= nil end, 'Spring.md in Published')
  H.truthy(H.prompts[3]:find('“Spring.md” was accepted at “Granta”. Move it to Published?', 1, true),
    'the server’s question: ' .. tostring(H.prompts[3]))
  H.eq(vim.uv.fs_stat(project .. '/Draft/Spring.md'), nil, 'gone from Draft')
  H.eq(submissions(project)[1].pieces[1].path, 'Published/Spring.md', 'the record follows')
end)

H.test('I with no submissions says so; on the Submissions folder it asks for the project', function()
  local project = with_markets('Granta')
  H.press('I')
  H.wait_note('No submissions yet.')
  H.go('Submissions')
  H.press('I')
  H.wait(function() return #H.requests('carrel/submissions') == 2 end, 'a second listing')
  H.eq(H.requests('carrel/submissions')[2].params.uri, H.uri(project), 'the project’s URI')
end)

H.test('M asks each detail in turn, prefilled, and sends only what changed; a field emptied is cleared', function()
  local project = with_markets('Granta')
  H.write(project .. '/Magazines/Granta/.carrel-market', vim.json.encode({
    id = '1-a',
    fields = {
      readingPeriod = { changed = 1, value = 'March' }, fee = { changed = 1, value = '£3' },
      simultaneous = { changed = 1, value = true }, notes = { changed = 1, value = 'No rhyme' },
    },
  }))
  H.go('PUBLICATIONS')
  H.press('zo')
  H.go('Magazines')
  H.press('zo')
  H.go('Granta', 'Magazines')
  H.answer('2026-12-31', 'March', '', 'https://granta.com', 'no', 'No rhyme')
  H.press('M')
  H.wait_note('Saved the details of “Granta”.', vim.log.levels.INFO)
  H.eq(H.prompts, {
    'Deadline (YYYY-MM-DD, empty for none): ', 'Reading period: ', 'Fee: ', 'URL: ',
    'Simultaneous submissions (yes/no): ', 'Notes: ',
  }, 'prompts')
  H.eq(vim.tbl_map(function(input) return input.default or '' end, H.inputs),
    { '', 'March', '£3', '', 'yes', 'No rhyme' }, 'each prompt prefilled with the market’s value')
  local sent = H.commands_sent('carrel.setMarket')[1].fields
  H.eq(sent, { deadline = '2026-12-31', fee = vim.NIL, url = 'https://granta.com', simultaneous = false },
    'what changed, the fee emptied as null')
  local market = vim.json.decode(H.read(project .. '/Magazines/Granta/.carrel-market'))
  local values = {}
  for key, field in pairs(market.fields) do
    if field.value ~= vim.NIL then values[key] = field.value end
  end
  H.eq(values, {
    deadline = '2026-12-31', readingPeriod = 'March', url = 'https://granta.com', simultaneous = false,
    notes = 'No rhyme',
  }, 'fields, the fee cleared')
end)

H.test('M: dismissing any question sends nothing; off a market it says where details are kept', function()
  with_markets('Granta')
  H.press('M')
  H.wait_note('Market details are kept on a folder in Magazines, Competitions, Commissions or Other.')
  H.go('PUBLICATIONS')
  H.press('zo')
  H.go('Magazines')
  H.press('zo')
  H.go('Granta', 'Magazines')
  H.answer('2026-12-31', '', false)
  H.press('M')
  H.wait(function() return H.pending_answers() == 0 end, 'the questions, after the market’s details')
  H.eq(#H.requests('carrel/market'), 1, 'the details read first')
  H.eq(#H.commands_sent('carrel.setMarket'), 0, 'nothing sent')
end)

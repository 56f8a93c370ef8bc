vim9script
# O, I, M: submitting pieces to markets, their statuses, a market's details.
import './harness.vim' as h

def Poems(markets: list<string> = ['Granta']): string
  var files = h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'})
  for market in markets
    files['My Poems/Magazines/' .. market .. '/'] = ''
  endfor
  var root = h.Library(files)
  # Wide enough that a row's whole summary shows: the row says where a piece is out.
  h.Open(root, {width: 80})
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  return root
enddef

def Records(root: string): list<dict<any>>
  var folder = root .. '/My Poems/.carrel/submissions'
  if !isdirectory(folder)
    return []
  endif
  return readdir(folder)->filter((_, n) => n =~ '\.json$')
    ->mapnew((_, n) => json_decode(join(readfile(folder .. '/' .. n), "\n")))
enddef

def RowOf(name: string): string
  return trim(h.BinderLines()[h.LineOf(name) - 1])
enddef

# Submits Morning.md to `market` on `day`.
def Submit(root: string, market: string, day: string)
  var before = len(Records(root))
  h.Press('. Morning.md', 'O')
  h.Wait(() => !empty(h.Popups()), 'the markets')
  assert_match('Submit “Morning.md” to:', h.Popups()[0].title)
  h.Choose('Writing › My Poems › Magazines › ' .. market, "\<C-U>" .. day .. "\<CR>")
  h.Wait(() => len(Records(root)) == before + 1, 'the record')
enddef

h.Run('O offers the markets, prefills today''s date and records the submission', () => {
  var root = Poems(['Granta', 'Review'])
  h.Press('. Morning.md', 'O')
  h.Wait(() => !empty(h.Popups()), 'the markets')
  assert_equal(['Writing › My Poems › Magazines › Granta', 'Writing › My Poems › Magazines › Review'],
    h.Popups()[0].items)
  # The date question holds today's date: Enter keeps it.
  h.Choose('Writing › My Poems › Magazines › Review', "\<CR>")
  h.Wait(() => len(Records(root)) == 1, 'the record')
  var sent = h.CommandsSent('carrel.submit')[0]
  assert_equal(strftime('%Y-%m-%d'), sent.date)
  assert_match('/Magazines/Review$', sent.marketUri)
  assert_match('/Draft/Morning\.md$', sent.items[0])
  h.Wait(() => h.Messages() =~ 'Submitted “Morning.md” to “Review”', 'the report')
  h.Wait(() => RowOf('. Morning.md') =~ 'out at 1', 'the row''s summary')
})

h.Run('O to a market that takes no simultaneous submissions answers the server''s question', () => {
  var root = Poems(['Granta', 'Review'])
  h.Write(root .. '/My Poems/Magazines/Granta/.carrel-market',
    '{"fields": {"simultaneous": {"changed": 1763815900000, "value": false}}, "id": "1763815900000-9adc5e32d52e5636"}')
  Submit(root, 'Review', '2026-11-19')
  h.Press('. Morning.md', 'O')
  h.Wait(() => !empty(h.Popups()), 'the markets')
  h.Choose('Writing › My Poems › Magazines › Granta', "\<C-U>2026-11-20\<CR>")
  h.Wait(() => !empty(h.Popups()), 'the server''s question')
  assert_match('“Granta” does not take simultaneous submissions', join(h.Popups()[0].items))
  h.Choose('Submit Anyway')
  h.Wait(() => len(Records(root)) == 2, 'the second record')
})

h.Run('O in a project without a market says where to make one', () => {
  Poems([])
  h.Press('. Morning.md', 'O')
  h.Wait(() => h.Messages() =~
    '“My Poems” has no market yet: make a folder in Magazines, Competitions, Commissions or Other.', 'the message')
  assert_equal([], h.Popups())
})

h.Run('I lists the piece''s submissions; accepting it updates its row, and Withdraw takes it back elsewhere', () => {
  var root = Poems(['Granta', 'Review'])
  Submit(root, 'Review', '2026-11-19')
  Submit(root, 'Granta', '2026-11-20')
  h.Wait(() => RowOf('. Morning.md') =~ 'out at 2', 'the row''s summary')
  h.Press('. Morning.md', 'I')
  h.Wait(() => !empty(h.Popups()), 'the submissions')
  assert_match('Submissions', h.Popups()[0].title)
  assert_equal(['pending · Granta · 2026-11-20 · Morning.md', 'pending · Review · 2026-11-19 · Morning.md'],
    h.Popups()[0].items)
  h.Choose('pending · Granta · 2026-11-20 · Morning.md')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ '“Morning.md” at “Granta”:', 'the statuses')
  assert_equal('pending (now)', h.Popups()[0].items[0])
  assert_true(index(h.Popups()[0].items, 'accepted') >= 0)
  assert_true(index(h.Popups()[0].items, 'Withdraw it everywhere else') < 0)
  h.Choose('accepted')
  h.Wait(() => RowOf('. Morning.md') =~ 'out at 1 · 1 accepted', 'the row''s summary')
  h.Wait(() => h.Messages() =~ '“Morning.md” at “Granta”: accepted.', 'the report')
  h.Wait(() => !empty(h.Popups()), 'the offer of Published')
  h.Choose('Not Now')
  var status = h.CommandsSent('carrel.setSubmissionStatus')[0]
  assert_equal(['1', 'accepted'], [status.piece, status.status])
  h.Press('. Morning.md', 'I')
  h.Wait(() => !empty(h.Popups()), 'the submissions')
  h.Choose('accepted · Granta · 2026-11-20 · Morning.md')
  h.Wait(() => !empty(h.Popups()) && index(h.Popups()[0].items, 'accepted (now)') >= 0, 'the statuses')
  h.Choose('Withdraw it everywhere else')
  h.Wait(() => h.Messages() =~ 'Withdrew “Morning.md” from “Review”.', 'the report')
  h.Wait(() => RowOf('. Morning.md') !~ 'out at', 'the row''s summary')
  assert_equal([status.record], h.CommandsSent('carrel.withdrawOthers')->mapnew((_, a) => a.record))
})

h.Run('accepting a piece answers the server''s offer of Published: Move to Published moves it there', () => {
  var root = Poems()
  Submit(root, 'Granta', '2026-11-20')
  h.Press('. Morning.md', 'I')
  h.Wait(() => !empty(h.Popups()), 'the submissions')
  h.Choose('pending · Granta · 2026-11-20 · Morning.md')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ '“Morning.md” at “Granta”:', 'the statuses')
  h.Choose('accepted')
  h.Wait(() => !empty(h.Popups()), 'the offer of Published')
  assert_match('“Morning.md” was accepted at “Granta”. Move it to Published?', h.Popups()[0].title)
  h.Choose('Move to Published')
  h.Wait(() => filereadable(root .. '/My Poems/Published/Morning.md'), 'Morning.md in Published')
  assert_false(filereadable(root .. '/My Poems/Draft/Morning.md'))
  h.Wait(() => Records(root)[0].pieces['1'].path == 'Published/Morning.md', 'the record to follow')
})

h.Run('I on the Submissions folder lists the project''s submissions', () => {
  var root = Poems()
  Submit(root, 'Granta', '2026-11-20')
  h.Press('= Submissions', 'I')
  h.Wait(() => !empty(h.Popups()), 'the submissions')
  assert_equal(['pending · Granta · 2026-11-20 · Morning.md'], h.Popups()[0].items)
  var asked = h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*"carrel/submissions"')
  assert_match('"uri":"file://[^"]*/My%20Poems"', asked[-1])
})

h.Run('I with no submissions says so', () => {
  Poems()
  h.Press('. Morning.md', 'I')
  h.Wait(() => h.Messages() =~ 'No submissions yet.', 'the message')
})

h.Run('M asks each detail of a market, prefilled, and saves what changed; an emptied one is cleared', () => {
  var root = Poems()
  h.Write(root .. '/My Poems/Magazines/Granta/.carrel-market',
    '{"fields": {"readingPeriod": {"changed": 1, "value": "March"}, "fee": {"changed": 1, "value": "£3"}, '
    .. '"simultaneous": {"changed": 1, "value": true}, "notes": {"changed": 1, "value": "No rhyme"}}, "id": "1-a"}')
  h.Press('PUBLICATIONS', 'zo')
  h.Press('= Magazines', 'zo')
  h.WaitLine('/ Granta')
  # Kept as prefilled: the reading period; emptied: the fee; typed after the prefill: the notes.
  h.Press('/ Granta', "M2026-12-31\<CR>\<CR>\<C-U>\<CR>https://granta.com\<CR>\<C-U>no\<CR>, please\<CR>")
  h.Wait(() => h.Messages() =~ 'Saved the details of “Granta”.', 'the report')
  assert_equal([{deadline: '2026-12-31', fee: v:null, url: 'https://granta.com', simultaneous: false,
    notes: 'No rhyme, please'}], h.CommandsSent('carrel.setMarket')->mapnew((_, a) => a.fields))
  var market = json_decode(join(readfile(root .. '/My Poems/Magazines/Granta/.carrel-market'), "\n"))
  assert_equal('2026-12-31', market.fields.deadline.value)
  assert_equal('March', market.fields.readingPeriod.value)
  assert_equal(v:null, market.fields.fee.value, 'the fee cleared')
  assert_equal(false, market.fields.simultaneous.value)
  assert_equal('No rhyme, please', market.fields.notes.value)
})

h.Run('M on a row that is not a market says where markets are', () => {
  Poems()
  h.Press('. Morning.md', 'M')
  h.Wait(() => h.Messages() =~
    'Market details are kept on a folder in Magazines, Competitions, Commissions or Other.', 'the message')
  assert_equal([], h.CommandsSent('carrel.setMarket'))
})

h.Done()

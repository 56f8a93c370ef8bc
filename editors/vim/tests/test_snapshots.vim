vim9script
# S, H: a snapshot of a file, its history, comparing and rolling back.
import './harness.vim' as h

def Poems(): string
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
  h.Open(root)
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  return root
enddef

def Snapshots(root: string): list<string>
  var folder = root .. '/My Poems/.carrel/snapshots/Draft/Morning.md'
  return isdirectory(folder) ? readdir(folder) : []
enddef

# Takes a snapshot titled `title` of Morning.md, then changes its text on disk.
def Snapshot(root: string, title: string)
  h.Press('. Morning.md', "S\<C-U>" .. title .. "\<CR>")
  h.Wait(() => len(Snapshots(root)) == 1, 'the snapshot')
  h.Wait(() => h.Messages() =~ 'Took a snapshot of “Morning.md”.', 'the report')
  h.Write(root .. '/My Poems/Draft/Morning.md', 'dawn light')
enddef

# Opens H on Morning.md and chooses its snapshot titled `title`.
def ChooseSnapshot(title: string)
  h.Press('. Morning.md', 'H')
  h.Wait(() => !empty(h.Popups()), 'the snapshots')
  var popup = h.Popups()[0]
  assert_match('Snapshots of “Morning.md”', popup.title)
  var rows = popup.items->copy()->filter((_, r) => r =~ ' · ' .. title .. ' · 1 words$')
  assert_equal(1, len(rows), string(popup.items))
  h.Choose(rows[0])
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Snapshot of ', 'the second picker')
  assert_equal(['Compare with the current text', 'Roll back to this snapshot'], h.Popups()[0].items)
enddef

h.Run('S takes a snapshot with the title typed, and an empty title takes one without', () => {
  var root = Poems()
  Snapshot(root, 'Before the cut')
  assert_match(' 1w Before the cut\.md$', Snapshots(root)[0])
  var sent = h.CommandsSent('carrel.snapshot')
  assert_equal('Before the cut', sent[0].title)
  assert_match('/Draft/Morning\.md$', sent[0].uri)
  h.Press('. Morning.md', "S\<C-U>\<CR>")
  h.Wait(() => len(Snapshots(root)) == 2, 'the second snapshot')
  assert_false(has_key(h.CommandsSent('carrel.snapshot')[1], 'title'))
})

h.Run('H on a file with no snapshots says so', () => {
  Poems()
  h.Press('. Morning.md', 'H')
  h.Wait(() => h.Messages() =~ '“Morning.md” has no snapshots yet.', 'the message')
  assert_equal([], h.Popups())
})

h.Run('H, Compare opens the snapshot beside the file in a diff, and shows the summary', () => {
  var root = Poems()
  Snapshot(root, 'First')
  ChooseSnapshot('First')
  h.Choose('Compare with the current text')
  h.Wait(() => tabpagenr('$') == 2, 'the diff''s tab')
  var windows = gettabinfo(tabpagenr())[0].windows
  assert_equal(2, len(windows))
  var left = getwininfo(windows[0])[0].bufnr
  var right = getwininfo(windows[1])[0].bufnr
  assert_match('/\.carrel/snapshots/Draft/Morning\.md/.* 1w First\.md$', bufname(left))
  assert_equal(root .. '/My Poems/Draft/Morning.md', bufname(right))
  assert_false(getbufvar(left, '&modifiable'))
  assert_true(getwinvar(windows[0], '&diff'))
  assert_true(getwinvar(windows[1], '&diff'))
  h.Wait(() => h.Messages() =~ '+1 −0 word', 'the summary')
  assert_equal(1, len(h.CommandsSent('carrel.compareSnapshot')))
})

h.Run('H, Roll back puts the snapshot''s text on disk and in the open buffer', () => {
  var root = Poems()
  Snapshot(root, 'First')
  var path = root .. '/My Poems/Draft/Morning.md'
  execute 'tabnew' fnameescape(path)
  var buffer = bufnr()
  assert_equal(['dawn light'], getbufline(buffer, 1, '$'))
  tabfirst
  ChooseSnapshot('First')
  h.Choose('Roll back to this snapshot')
  h.Wait(() => readfile(path) == ['dawn'], 'the text rolled back')
  h.Wait(() => h.Messages() =~ 'Rolled “Morning.md” back to the snapshot', 'the report')
  h.Wait(() => getbufline(buffer, 1, '$') == ['dawn'], 'the buffer reloaded')
  assert_false(getbufvar(buffer, '&modified'))
  # The server reads the buffer again too, so a second roll back is not refused as unsaved.
  h.Wait(() => h.LineOf('. Morning.md  1 word') > 0, 'the row counting the text rolled back')
})

h.Done()

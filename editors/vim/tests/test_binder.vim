vim9script
# What the binder shows and how it moves: rows, first view, keys, breadcrumb.
import './harness.vim' as h
import autoload 'carrel/binder.vim'

def Poems(): string
  var files = h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn',
    'My Poems/Draft/Sea Cycle/Tide.md': 'tide'})
  var root = h.Library(files)
  h.Open(root)
  return root
enddef

h.Run('the first view expands the projects and their first section; rows read icon, title, summary', () => {
  Poems()
  # The words come once the server has counted them, after the first view.
  h.Wait(() => h.BinderLines()[0] == '# Writing  2 files · 2 words', 'the words')
  assert_equal(['# Writing  2 files · 2 words', '  @ My Poems  2 files · 2 words',
    '    YOUR POETRY  2 files · 2 words', '      * All  2 files · 2 words', '      = Draft  2 files · 2 words',
    '      = Ready', '      = Set Aside', '      = Published', '      # Collections',
    '      = Submissions', '      = Research', '    PUBLICATIONS', '    TRASH'], h.BinderLines())
})

h.Run('the summary is dimmed', () => {
  Poems()
  h.WaitLine('= Draft  2 files · 2 words')
  var props = prop_list(h.LineOf('= Draft  2 files'), {bufnr: binder.Buffer()})
  assert_equal(1, len(props))
  assert_equal('CarrelSummary', props[0].type)
  assert_equal(strlen('2 files · 2 words'), props[0].length)
  assert_equal(strlen('      = Draft  ') + 1, props[0].col)
  assert_equal([], prop_list(h.LineOf('= Ready'), {bufnr: binder.Buffer()}))
})

h.Run('a library without a project says how to make one', () => {
  h.Open(h.Library({'notes.md': 'x'}))
  h.WaitLine('# Writing  1 file · 1 word')
  # The library's count comes as a change of its own, its file's with its listing after.
  h.WaitLine('. notes.md  1 word')
  assert_equal(['# Writing  1 file · 1 word', '  . notes.md  1 word', '  No project yet: press P to make one'],
    h.BinderLines())
  # The line belongs to its library, and the breadcrumb says which.
  h.Press('No project yet: press P to make one', '')
  g:statusline_winid = binder.Window()
  assert_equal(' Writing', carrel#binder#Statusline())
  unlet g:statusline_winid
})

h.Run('the binder opens 40 columns wide, where the onboarding line fits whole', () => {
  h.Open(h.Library({}))
  assert_equal(40, winwidth(binder.Window()))
  h.WaitLine('No project yet: press P to make one')
})

h.Run('where the onboarding line does not fit, its short form; a summary that does not fit goes whole', () => {
  h.Open(h.Library({'notes.md': 'x'}), {width: 24})
  h.WaitLine('. notes.md  1 word')
  # '# Writing  1 file · 1 word' is 26 columns; the file's row is 20.
  assert_equal(['# Writing', '  . notes.md  1 word', '  Press P for a new project'], h.BinderLines())
  # Wider, the summary shows again, and the long line where it fits.
  win_execute(binder.Window(), 'vertical resize 40')
  doautocmd VimResized
  h.WaitLine('# Writing  1 file · 1 word')
  h.WaitLine('No project yet: press P to make one')
  win_execute(binder.Window(), 'vertical resize 19')
  doautocmd VimResized
  h.Wait(() => h.BinderLines() == ['# Writing', '  . notes.md', '  Press P for a new project'], 'the narrow rows')
})

h.Run('Enter expands and collapses a folder, and opens a file', () => {
  var root = Poems()
  h.Press('= Draft  2 files', "\<CR>")
  h.WaitLine('/ Sea Cycle  1 file')
  assert_equal(h.LineOf('= Draft  2 files') + 1, h.LineOf('/ Sea Cycle  1 file'))
  assert_equal(h.LineOf('= Draft  2 files') + 2, h.LineOf('. Morning.md'))
  h.Press('= Draft  2 files', "\<CR>")
  h.WaitNoLine('. Morning.md')
  h.Press('= Draft  2 files', "\<CR>")
  h.Press('. Morning.md', "\<CR>")
  h.Wait(() => bufname() == root .. '/My Poems/Draft/Morning.md', 'the file open')
  assert_notequal(binder.Window(), win_getid())
})

h.Run('zo expands, zc collapses, and zc on a leaf collapses its parent', () => {
  Poems()
  h.Press('= Draft  2 files', 'zo')
  h.WaitLine('. Morning.md')
  h.Press('. Morning.md', 'zc')
  h.WaitNoLine('. Morning.md')
  assert_equal(h.LineOf('= Draft  2 files'), line('.'))
  h.Press('PUBLICATIONS', 'zo')
  h.WaitLine('= Magazines')
  h.Press('PUBLICATIONS', 'zc')
  h.WaitNoLine('= Magazines')
})

h.Run('zR on a top row expands everything but All in one press; zM collapses all but the top rows', () => {
  Poems()
  h.Press('# Writing  2 files', 'zR')
  h.WaitLine('= Magazines')
  h.WaitLine('~ Trash')
  h.WaitLine('. Tide.md')
  # All lists again what its folders hold: it stays closed.
  assert_equal(1, len(h.BinderLines()->copy()->filter((_, l) => l =~ '\. Morning.md')))
  h.Press('= Draft  2 files', 'zM')
  h.Wait(() => h.BinderLines() == ['# Writing  2 files · 2 words', '  @ My Poems  2 files · 2 words'],
    'only the projects')
})

h.Run('zM keeps a workspace folder that is itself a project open', () => {
  var root = h.Library({'.carrel/project.json': '{"type":"poetry","version":1}', 'Draft/Morning.md': 'dawn'})
  h.Open(root)
  h.WaitLine('YOUR POETRY')
  h.Press('= Draft', 'zM')
  h.WaitNoLine('= Draft')
  assert_equal(['@ Writing  1 file · 1 word', '  YOUR POETRY  1 file · 1 word', '  PUBLICATIONS', '  TRASH'],
    h.BinderLines())
})

h.Run('zR below the top expands what is under the row only', () => {
  Poems()
  h.Press('= Draft  2 files', 'zR')
  h.WaitLine('. Tide.md')
  assert_equal(0, h.LineOf('= Magazines'), 'PUBLICATIONS stays closed')
})

h.Run('- goes up to the parent row', () => {
  Poems()
  h.Press('= Draft  2 files', 'zo')
  h.Press('. Morning.md', '-')
  h.Wait(() => line('.') == h.LineOf('= Draft  2 files'), 'the cursor on Draft')
})

h.Run('the breadcrumb is in the binder''s status line: library, project, folders, no sections', () => {
  Poems()
  h.Press('= Draft  2 files', 'zo')
  h.Press('/ Sea Cycle  1 file', 'zo')
  h.Press('. Tide.md', '')
  assert_equal('%!carrel#binder#Statusline()', getwinvar(binder.Window(), '&statusline'))
  g:statusline_winid = binder.Window()
  assert_equal(' Writing › My Poems › Draft › Sea Cycle › Tide.md', carrel#binder#Statusline())
  unlet g:statusline_winid
  wincmd p
  assert_notequal('%!carrel#binder#Statusline()', &statusline, 'only in the binder')
})

h.Run('? shows the keys in a popup, q closes the binder', () => {
  Poems()
  h.Press('= Draft  2 files', '?')
  h.Wait(() => !empty(h.Popups()), 'the help')
  var text = join(h.Popups()[0].items, "\n")
  for key in ['<CR>', 'zo', 'zc', 'zR', 'zM', 'a', 'A', 'P', 'r', 'm', 'd', 'u', 'E', 's', 'R', '-', '?', 'q']
    assert_match('\V\n' .. key .. ' ', "\n" .. text)
  endfor
  # The same words as Neovim's help.
  for words in ['New File (opens it in insert mode)', 'Move To (a folder picker, with “New folder…”)',
      'Set Word Target (empty clears it)', 'Go to the parent',
      ':Carrel ask_before_deleting  Ask before deleting again, in this project (or library)']
    assert_match('\V' .. words, text)
  endfor
  feedkeys('q', 'xt')
  h.Wait(() => empty(h.Popups()), 'the help closed')
  h.Press('= Draft  2 files', 'q')
  h.Wait(() => binder.Window() == 0, 'the binder closed')
})

h.Run('a link says so with its icon', () => {
  var root = h.Library({'notes.md': 'x'})
  system('ln -s notes.md ' .. shellescape(root .. '/alias.md'))
  h.Open(root)
  h.WaitLine('> alias.md')
  h.WaitLine('# Writing  1 file · 1 word')
  h.WaitLine('. notes.md  1 word')
  assert_equal(['# Writing  1 file · 1 word', '  > alias.md', '  . notes.md  1 word',
    '  No project yet: press P to make one'], h.BinderLines())
})

h.Run('glyph icons on request; plain text by default', () => {
  var root = h.Library(h.Poetry('My Poems'))
  h.Open(root, {icons: 'glyphs'})
  assert_equal('📚 Writing', h.BinderLines()[0])
  assert_equal('  🗂 My Poems', h.BinderLines()[1])
})
h.Run('a new file sets its own line and the counts above it; the rows around are not set again', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Ode.md': 'x', 'My Poems/Draft/Elegy.md': 'x',
    'My Poems/Draft/Sonnet.md': 'x'}))
  h.Open(root)
  h.Press('= Draft  3 files', 'zo')
  h.WaitLine('. Sonnet.md')
  h.Idle()
  var touched: list<number> = []
  var listener = listener_add((_, _, _, _, changes) => {
    for change in changes
      touched->extend(range(change.lnum, max([change.lnum, change.end + change.added - 1])))
    endfor
  }, binder.Buffer())
  h.Write(root .. '/My Poems/Draft/Haiku.md', 'x')
  h.WaitLine('. Haiku.md')
  h.Idle()
  listener_flush(binder.Buffer())
  listener_remove(listener)
  assert_true(index(touched, h.LineOf('. Haiku.md')) >= 0, string(touched))
  for unchanged in ['. Ode.md', '. Elegy.md', '. Sonnet.md', '= Ready', '= Research', 'TRASH']
    assert_true(index(touched, h.LineOf(unchanged)) < 0, unchanged .. ' set again: ' .. string(touched))
  endfor
})
h.Done()

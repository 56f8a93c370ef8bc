vim9script
# Drawing after an outside change in an expanded folder of 1,000: only the
# rows the change alters are composed and written; every other line is left
# as it was, highlights and all.
import './harness.vim' as h
import autoload 'carrel/binder.vim'
import autoload 'carrel/tree.vim'

def Letters(count: number): string
  var files = h.Poetry('My Poems')
  for i in range(count)
    files[printf('My Poems/Draft/Letters/Letter %04d.md', i)] = ''
  endfor
  var root = h.Library(files)
  h.Open(root)
  h.Press('= Draft', 'zo')
  h.Press('/ Letters', 'zo')
  h.WaitLine(printf('. Letter %04d.md', count - 1))
  h.Idle()
  h.Settle(300)
  return root
enddef

# Renamed in from elsewhere, as another program saves.
def RenameIn(root: string, folder: string, name: string)
  var staging = fnamemodify(root, ':h') .. '/staging'
  mkdir(staging, 'p')
  writefile(['words'], staging .. '/' .. name)
  rename(staging .. '/' .. name, folder .. '/' .. name)
  h.WaitLine('. ' .. name)
  h.Idle()
  h.Settle(300)
enddef

h.Run('a file another program adds to an expanded folder of 1,000 composes only the rows it alters', () => {
  var root = Letters(1000)
  var before = binder.LinesComposed()
  RenameIn(root, root .. '/My Poems/Draft/Letters', 'Outside 1.md')
  # The new row and the folders above it whose counts changed, not the thousand around it.
  var composed = binder.LinesComposed() - before
  assert_true(composed >= 1 && composed <= 12, 'rows composed for one new file: ' .. composed)
})

h.Run('a file another program adds to an expanded folder of 1,000 leaves the other lines as they were', () => {
  var root = Letters(1000)
  var buffer = binder.Buffer()
  prop_type_add('TestMark', {bufnr: buffer})
  var marked = ['. Letter 0100.md', '. Letter 0900.md', '. Letter 0999.md']
  for text in marked
    prop_add(h.LineOf(text), 1, {length: 1, type: 'TestMark', bufnr: buffer})
  endfor
  RenameIn(root, root .. '/My Poems/Draft/Letters', 'Letter 0500a.md')
  # A line written again loses the text properties it had.
  for text in marked
    assert_equal(1, len(prop_list(h.LineOf(text), {bufnr: buffer, types: ['TestMark']})), text .. ' kept its mark')
  endfor
  assert_equal(h.LineOf('. Letter 0500.md') + 1, h.LineOf('. Letter 0500a.md'))
})

def Gone(path: string, row: string)
  delete(path)
  h.WaitNoLine(row)
  h.Idle()
  h.Settle(300)
enddef

def Renamed(from: string, to: string, row: string)
  rename(from, to)
  h.WaitLine(row)
  h.Idle()
  h.Settle(300)
enddef

# What the binder shows, then what it shows once drawn again from the whole
# tree: a patched binder must not tell the two apart.
def AssertAsDrawnWhole()
  var patched = h.BinderLines()
  var keys = binder.Rows()->mapnew((_, row) => row.key)
  binder.Draw()
  h.Idle()
  h.Settle(50)
  assert_equal(patched, h.BinderLines())
  assert_equal(tree.Shown()->mapnew((_, row) => row.key), keys)
enddef

h.Run('outside changes in an expanded folder of 1,000 are drawn without walking the rows shown', () => {
  var root = Letters(1000)
  var letters = root .. '/My Poems/Draft/Letters'
  var before = tree.RowsWalked()
  RenameIn(root, letters, 'Outside 1.md')
  Gone(letters .. '/Letter 0200.md', '. Letter 0200.md')
  Renamed(letters .. '/Letter 0300.md', letters .. '/Letter 0300b.md', '. Letter 0300b.md')
  Renamed(letters .. '/Letter 0400.md', root .. '/My Poems/Draft/Letter 0400.md', '. Letter 0400.md')
  # Each change is its rows written in place, not the 1,000 rows walked again.
  assert_equal(0, tree.RowsWalked() - before, 'rows walked for four outside changes')
  assert_equal(0, h.LineOf('. Letter 0300.md'))
  assert_equal(h.LineOf('. Letter 0299.md') + 1, h.LineOf('. Letter 0300b.md'))
  assert_equal(h.LineOf('. Letter 0199.md') + 1, h.LineOf('. Letter 0201.md'))
  assert_equal(h.LineOf('/ Letters') + 998, h.LineOf('. Letter 0999.md'))
  AssertAsDrawnWhole()
})

h.Run('patched rows keep the cursor on its row, and match the binder drawn whole', () => {
  var root = Letters(1000)
  var letters = root .. '/My Poems/Draft/Letters'
  h.Write(letters .. '/Box/Inside.md', 'kept')
  h.WaitLine('/ Box')
  h.Press('/ Box', 'zo')
  h.WaitLine('. Inside.md')
  h.Idle()
  h.Press('. Letter 0600.md', '')
  Gone(letters .. '/Letter 0100.md', '. Letter 0100.md')
  RenameIn(root, letters, 'Letter 0050a.md')
  assert_equal(h.LineOf('. Letter 0600.md'), line('.', binder.Window()))
  # The row under the cursor goes: the cursor takes the row that followed it.
  Gone(letters .. '/Letter 0600.md', '. Letter 0600.md')
  assert_equal(h.LineOf('. Letter 0601.md'), line('.', binder.Window()))
  # An open folder that goes takes the rows shown inside it.
  rename(letters .. '/Box', fnamemodify(root, ':h') .. '/Box')
  h.WaitNoLine('/ Box')
  h.Idle()
  h.Settle(300)
  assert_equal(0, h.LineOf('. Inside.md'))
  AssertAsDrawnWhole()
})

h.Done()

vim9script
# Drawing after an outside change in an expanded folder of 1,000: only the
# rows the change alters are composed and written; every other line is left
# as it was, highlights and all.
import './harness.vim' as h
import autoload 'carrel/binder.vim'

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

h.Done()

vim9script
# U and <C-r>: the binder takes back a step and does it again, in the server's words.
import './harness.vim' as h

def Poems(): string
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
  h.Open(root)
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  return root
enddef

h.Run('U after a rename puts the old name back, and <C-r> renames it again', () => {
  var root = Poems()
  h.Press('. Morning.md', "r\<C-U>Dawn\<CR>")
  h.WaitLine('. Dawn.md')
  h.Press('. Dawn.md', 'U')
  h.WaitLine('. Morning.md')
  assert_true(filereadable(root .. '/My Poems/Draft/Morning.md'))
  assert_false(filereadable(root .. '/My Poems/Draft/Dawn.md'))
  h.Wait(() => h.Messages() =~ 'Renamed “Dawn.md” back to “Morning.md”.', 'the undo''s report')
  # The step is the library's, whichever row the cursor is on.
  assert_match('/My%20Poems/Draft/Dawn\.md$', h.CommandsSent('carrel.undo')[0].library)
  h.Press('= Draft', "\<C-r>")
  h.WaitLine('. Dawn.md')
  assert_true(filereadable(root .. '/My Poems/Draft/Dawn.md'))
  h.Wait(() => h.Messages() =~ 'Renamed “Morning.md” to “Dawn.md” again.', 'the redo''s report')
})

h.Run('U with nothing to undo says so', () => {
  Poems()
  h.Press('. Morning.md', 'U')
  h.Wait(() => h.Messages() =~ 'Nothing to undo.', 'the report')
})

h.Done()

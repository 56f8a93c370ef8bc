vim9script
# Move up (K) and move down (J) among siblings, with carrel.reorder.
import './harness.vim' as h
import autoload 'carrel/tree.vim'
import autoload 'carrel/binder.vim'

def Drafts(): string
  var root = h.Library(h.Poetry('My Poems')->extend({
    'My Poems/Draft/A.md': 'a', 'My Poems/Draft/B.md': 'b', 'My Poems/Draft/C.md': 'c', 'My Poems/Draft/D.md': 'd'}))
  h.Open(root)
  h.Press('= Draft', 'zo')
  h.WaitLine('. D.md')
  return root
enddef

def Uri(root: string, name: string): string
  return 'file://' .. root .. '/My%20Poems/Draft/' .. name
enddef

h.Run('K sends carrel.reorder before the previous sibling, J after the next one', () => {
  var root = Drafts()
  h.Press('. B.md', 'K')
  h.Wait(() => len(h.CommandsSent('carrel.reorder')) == 1, 'carrel.reorder from K')
  assert_equal({uri: Uri(root, 'B.md'), before: Uri(root, 'A.md')}, h.CommandsSent('carrel.reorder')[0])
  h.Idle()
  # C.md's next sibling is D.md whether or not the server moved B.md.
  h.Press('. C.md', 'J')
  h.Wait(() => len(h.CommandsSent('carrel.reorder')) == 2, 'carrel.reorder from J')
  assert_equal({uri: Uri(root, 'C.md'), after: Uri(root, 'D.md')}, h.CommandsSent('carrel.reorder')[1])
})

h.Run('K on the first sibling and J on the last send nothing and say so', () => {
  Drafts()
  h.Press('. A.md', 'K')
  h.Wait(() => h.Messages() =~ '“A.md” is already first', 'the message at the top')
  h.Press('. D.md', 'J')
  h.Wait(() => h.Messages() =~ '“D.md” is already last', 'the message at the bottom')
  h.Press('= Draft', 'K')
  h.Wait(() => h.Messages() =~ '“Draft” keeps its place', 'the message on a permanent folder')
  assert_equal([], h.CommandsSent('carrel.reorder'))
})

h.Run('K moves the row up on screen and the cursor stays on it', () => {
  Drafts()
  h.NeedsCommand('carrel.reorder')
  h.Press('. C.md', 'K')
  h.Wait(() => h.LineOf('. C.md') == h.LineOf('. A.md') + 1 && h.LineOf('. B.md') == h.LineOf('. C.md') + 1
    && h.LineOf('. D.md') == h.LineOf('. B.md') + 1, 'A, C, B, D on screen')
  h.Wait(() => line('.', binder.Window()) == h.LineOf('. C.md'), 'the cursor on C.md')
  feedkeys('J', 'xt')
  h.Wait(() => h.LineOf('. B.md') == h.LineOf('. A.md') + 1 && h.LineOf('. C.md') == h.LineOf('. B.md') + 1,
    'A, B, C on screen')
  h.Wait(() => line('.', binder.Window()) == h.LineOf('. C.md'), 'the cursor on C.md')
})

# The binder is not open yet, so nothing of the folder is listed: the
# neighbours come from the server.
def FreshIn(root: string, file: string)
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
  execute 'edit' fnameescape(root .. '/' .. file)
enddef

h.Run(':Carrel moveup in a file''s own window moves it among the files of its folder', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({
    'My Poems/Draft/A.md': 'a', 'My Poems/Draft/B.md': 'b', 'My Poems/Draft/C.md': 'c', 'My Poems/Draft/D.md': 'd'}))
  FreshIn(root, 'My Poems/Draft/C.md')
  Carrel moveup
  h.Wait(() => len(h.CommandsSent('carrel.reorder')) == 1, 'carrel.reorder from a file window')
  assert_equal({uri: Uri(root, 'C.md'), before: Uri(root, 'B.md')}, h.CommandsSent('carrel.reorder')[0])
  h.Idle()
  execute 'wincmd p'
  execute 'edit' fnameescape(root .. '/My Poems/Draft/D.md')
  Carrel movedown
  h.Wait(() => h.Messages() =~ '“D.md” is already last', 'the message at the bottom')
  assert_equal(1, len(h.CommandsSent('carrel.reorder')))
})

h.Run(':Carrel moveup on a file at a project''s root finds its neighbours under the first section', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Ideas.md': 'i', 'My Poems/Plans.md': 'p'}))
  FreshIn(root, 'My Poems/Plans.md')
  Carrel moveup
  h.Wait(() => len(h.CommandsSent('carrel.reorder')) == 1, 'carrel.reorder at the project root')
  assert_equal({uri: 'file://' .. root .. '/My%20Poems/Plans.md', before: 'file://' .. root .. '/My%20Poems/Ideas.md'},
    h.CommandsSent('carrel.reorder')[0])
})
h.Done()

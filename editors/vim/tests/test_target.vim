vim9script
# T sets a word target with carrel.setTarget; words show only in the server's summary.
import './harness.vim' as h
import autoload 'carrel/tree.vim'

def Poem(): string
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Spring.md': 'one two three'}))
  h.Open(root)
  h.Press('= Draft', 'zo')
  h.WaitLine('. Spring.md')
  return root
enddef

h.Run('T asks a word target and sends carrel.setTarget with the number', () => {
  var root = Poem()
  h.Press('. Spring.md', "T\<C-U>1500\<CR>")
  h.Wait(() => len(h.CommandsSent('carrel.setTarget')) == 1, 'carrel.setTarget')
  assert_equal({uri: 'file://' .. root .. '/My%20Poems/Draft/Spring.md', words: 1500},
    h.CommandsSent('carrel.setTarget')[0])
})

# Esc (nothing sent) cannot be typed here: headless Vim's command line ends the script on it.
h.Run('T with an empty answer clears the target (words null)', () => {
  var root = Poem()
  h.Press('@ My Poems', "T\<C-U>\<CR>")
  h.Wait(() => len(h.CommandsSent('carrel.setTarget')) == 1, 'carrel.setTarget')
  assert_equal({uri: 'file://' .. root .. '/My%20Poems', words: null}, h.CommandsSent('carrel.setTarget')[0])
})

h.Run('a target set with T shows in the summary the server composes, on the file row', () => {
  var root = Poem()
  h.NeedsCommand('carrel.setTarget')
  h.Press('. Spring.md', "T\<C-U>1500\<CR>")
  var key = 'file://' .. root .. '/My%20Poems/Draft/Spring.md'
  h.Wait(() => get(tree.Node(key), 'target', 0) == 1500, 'the row to learn its target')
  var summary = tree.Node(key).summary
  assert_match('1,500', summary)
  h.WaitLine('. Spring.md  ' .. summary)
})
h.Run(':Carrel settarget in a file''s own window sets the target of that file', () => {
  var root = Poem()
  execute 'wincmd p'
  execute 'edit' fnameescape(root .. '/My Poems/Draft/Spring.md')
  feedkeys(":Carrel settarget\<CR>\<C-U>300\<CR>", 'xt')
  h.Wait(() => len(h.CommandsSent('carrel.setTarget')) == 1, 'carrel.setTarget')
  assert_equal({uri: 'file://' .. root .. '/My%20Poems/Draft/Spring.md', words: 300},
    h.CommandsSent('carrel.setTarget')[0])
})
h.Done()

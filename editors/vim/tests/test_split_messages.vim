vim9script
# A message that reaches Vim in two parts, the second more than 100 ms
# after the first (a long reply written piece by piece on a loaded machine,
# or a pipe that filled while Vim was busy): Vim's own LSP channel drops
# such a message, so a row another program added never showed.
import './harness.vim' as h

const relay = expand('<sfile>:p:h') .. '/pausing_relay.py'

# The binder on a library whose server pauses 300 ms inside each message holding `text`.
def OpenPausing(files: dict<string>, text: string): string
  if !executable('python3')
    h.Skip('python3 is not installed: the relay that pauses inside messages needs it')
  endif
  var root = h.Library(files)
  h.Open(root, {cmd: ['python3', relay, text, '0.3', $CARREL, 'lsp']})
  return root
enddef

def Letters(): dict<string>
  var files = h.Poetry('My Poems')
  for i in range(3)
    files[printf('My Poems/Draft/Letters/Letter %04d.md', i)] = ''
  endfor
  return files
enddef

h.Run('an expanded folder listing that arrives in two parts shows', () => {
  OpenPausing(Letters(), 'Letter 0002.md')
  h.Press('= Draft', 'zo')
  h.Press('/ Letters', 'zo')
  h.WaitLine('. Letter 0002.md')
})

h.Run('a file another program makes shows when its notification arrives in two parts', () => {
  var root = OpenPausing(Letters(), 'Outside.md')
  h.Press('= Draft', 'zo')
  h.Press('/ Letters', 'zo')
  h.WaitLine('. Letter 0002.md')
  h.Idle()
  h.Write(root .. '/My Poems/Draft/Letters/Outside.md', 'words')
  h.WaitLine('. Outside.md')
  h.WaitLine('/ Letters  4 files')
})

h.Done()

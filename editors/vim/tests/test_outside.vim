vim9script
# Other programs' files in a big expanded folder: every one shows, however
# fast they come.
import './harness.vim' as h
import autoload 'carrel/tree.vim'

const relay = expand('<sfile>:p:h') .. '/pausing_relay.py'

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
  return root
enddef

h.Run('files another program makes one after another in an expanded folder of 1,000 all show', () => {
  var root = Letters(1000)
  var folder = root .. '/My Poems/Draft/Letters'
  # A shell makes them while Vim reads the server, as another program would.
  var script = printf('for i in $(seq 1 40); do : > "%s/New $i.md"; sleep 0.02; done', folder)
  var maker = job_start(['sh', '-c', script])
  h.Wait(() => job_status(maker) != 'run', 'the other program', 20.0)
  for i in range(1, 40)
    h.WaitLine('. New ' .. i .. '.md')
  endfor
  h.WaitLine('/ Letters  1,040 files')
})

h.Run('a file another program renames into an expanded folder of 1,000 shows, each of twenty times', () => {
  var root = Letters(1000)
  var folder = root .. '/My Poems/Draft/Letters'
  var staging = fnamemodify(root, ':h') .. '/staging'
  mkdir(staging, 'p')
  for i in range(1, 20)
    var name = printf('Outside %d.md', i)
    writefile(['words'], staging .. '/' .. name)
    rename(staging .. '/' .. name, folder .. '/' .. name)
    h.WaitLine('. ' .. name)
    sleep 100m
  endfor
})

def TreeRequests(): list<dict<any>>
  return h.Traffic()->copy()->filter((_, l) => l =~ '^→ ' && l =~ '"carrel/tree"')
    ->mapnew((_, l) => json_decode(strpart(l, strlen('→ '))).params)
enddef

# The rows listed under Letters, in the binder's order.
def Listed(): list<string>
  var lines = h.BinderLines()
  var top = h.LineOf('/ Letters')
  var indent = matchstr(lines[top - 1], '^ *')
  var rows: list<string> = []
  for line in lines[top :]
    if strlen(matchstr(line, '^ *')) <= strlen(indent)
      break
    endif
    # The row's title, without its summary.
    rows->add(matchstr(trim(line), '^.\{-}\ze\(  \|$\)'))
  endfor
  return rows
enddef

h.Run('an outside create, rename and delete in an open folder are patched in place, in order, with no fetch', () => {
  var root = Letters(3)
  var folder = root .. '/My Poems/Draft/Letters'
  var before = len(TreeRequests())
  h.Write(folder .. '/Letter 0001a.md', '')
  h.WaitLine('. Letter 0001a.md')
  assert_equal(['. Letter 0000.md', '. Letter 0001.md', '. Letter 0001a.md', '. Letter 0002.md'], Listed())
  rename(folder .. '/Letter 0002.md', folder .. '/Letter 0000a.md')
  h.WaitLine('. Letter 0000a.md')
  assert_equal(['. Letter 0000.md', '. Letter 0000a.md', '. Letter 0001.md', '. Letter 0001a.md'], Listed())
  delete(folder .. '/Letter 0001.md')
  h.WaitNoLine('. Letter 0001.md')
  assert_equal(['. Letter 0000.md', '. Letter 0000a.md', '. Letter 0001a.md'], Listed())
  h.Settle(300)
  assert_equal([], TreeRequests()[before :])
})

def Uri(path: string): string
  return 'file://' .. substitute(path, ' ', '%20', 'g')
enddef

def File(folder: string, name: string): dict<any>
  return {uri: Uri(folder .. '/' .. name), name: name, title: name, kind: 'file', icon: 'doc.text'}
enddef

h.Run('rows placed in one notification go in as a chain, first included, in one pass; an unknown row fetches', () => {
  var root = Letters(3)
  var folder = root .. '/My Poems/Draft/Letters'
  var l = Uri(folder)
  var before = len(TreeRequests())
  # As a burst would come: a row first, then two after an old row, the second after the first.
  tree.OnDidChange({changes: [], updated: [], placed: [
    {parent: l, node: File(folder, 'A.md')},
    {parent: l, after: Uri(folder .. '/Letter 0000.md'), node: File(folder, 'Letter 0000a.md')},
    {parent: l, after: Uri(folder .. '/Letter 0000a.md'), node: File(folder, 'Letter 0000b.md')},
    {parent: l, after: Uri(folder .. '/Letter 0002.md'), node: File(folder, 'Z.md')}]})
  h.WaitLine('. Z.md')
  assert_equal(['. A.md', '. Letter 0000.md', '. Letter 0000a.md', '. Letter 0000b.md', '. Letter 0001.md',
    '. Letter 0002.md', '. Z.md'], Listed())
  h.Settle(100)
  assert_equal([], TreeRequests()[before :])
  # A row placed after one the listing lacks: the listing is behind, and is fetched.
  tree.OnDidChange({changes: [], updated: [], placed: [
    {parent: l, after: Uri(folder .. '/Nowhere.md'), node: File(folder, 'Y.md')}]})
  h.Wait(() => len(TreeRequests()) > before, 'the listing fetched')
  assert_equal([{uri: l, depth: 1}], TreeRequests()[before :])
  h.WaitNoLine('. A.md')
})

h.Run('a file another program makes while the folder is being fetched shows', () => {
  if !executable('python3')
    h.Skip('python3 is not installed: the relay that holds the listing back needs it')
  endif
  var files = h.Poetry('My Poems')
  for i in range(3)
    files[printf('My Poems/Draft/Letters/Letter %04d.md', i)] = ''
  endfor
  var root = h.Library(files)
  # The listing's answer is held a second on its way, as a long one is on a
  # loaded machine: the file comes while it is in flight.
  h.Open(root, {cmd: ['python3', relay, 'Letter 0002.md', '1.0', $CARREL, 'lsp']})
  h.Press('= Draft', 'zo')
  h.Press('/ Letters', 'zo')
  h.Write(root .. '/My Poems/Draft/Letters/Outside.md', 'words')
  h.WaitLine('. Outside.md')
  h.WaitLine('. Letter 0002.md')
  h.WaitLine('/ Letters  4 files')
})

h.Done()

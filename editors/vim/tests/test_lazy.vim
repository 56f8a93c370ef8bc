vim9script
# Lazy fetching, read from the client's own traffic log: never the whole
# tree, never more than two levels, and only what a change names.
import './harness.vim' as h
import autoload 'carrel/tree.vim'

def TreeRequests(): list<dict<any>>
  return h.Traffic()->copy()->filter((_, l) => l =~ '^→ ' && l =~ '"carrel/tree"')
    ->mapnew((_, l) => json_decode(strpart(l, strlen('→ '))).params)
enddef

def DidChanges(): number
  return h.Traffic()->copy()->filter((_, l) => l =~ '^← .*"carrel/didChange"')->len()
enddef

def Poems(): string
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
  h.Open(root)
  return root
enddef

def Uri(path: string): string
  return 'file://' .. substitute(path, ' ', '%20', 'g')
enddef

h.Run('the first view asks for the roots at depth 1 and each project at depth 2, nothing more', () => {
  var root = Poems()
  var requests = TreeRequests()
  assert_equal([{depth: 1}, {uri: Uri(root .. '/My Poems'), depth: 2}], requests[: 1])
  # Once the words are counted the server says the library changed, and the
  # open rows are fetched again, no deeper.
  for request in requests[2 :]
    assert_true(get(request, 'depth', 9) <= 2, string(requests))
  endfor
})

h.Run('expanding asks for one level; no request ever lacks a depth or asks for more than two', () => {
  var root = Poems()
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  assert_equal({uri: Uri(root .. '/My Poems/Draft'), depth: 1}, TreeRequests()[-1])
  h.Press('= Draft  1 file', 'zR')
  h.Press('= Draft  1 file', 'R')
  h.Idle()
  for params in TreeRequests()
    assert_true(has_key(params, 'depth') && params.depth <= 2, string(params))
  endfor
})

h.Run('a change in a collapsed folder fetches nothing; its row learns its count from updated', () => {
  var root = Poems()
  var before = len(TreeRequests())
  var changes = DidChanges()
  h.Write(root .. '/My Poems/Ready/Dusk.md', 'x')
  h.WaitLine('= Ready  1 file')
  h.Wait(() => DidChanges() > changes, 'the didChange')
  h.Settle(300)
  assert_equal(before, len(TreeRequests()), string(TreeRequests()[before :]))
  h.WaitLine('= Draft  1 file')
  h.WaitLine('@ My Poems  2 files')
})

h.Run('a change in an expanded folder is patched in from the placed rows, with no fetch', () => {
  var root = Poems()
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  h.Idle()
  var before = len(TreeRequests())
  h.Write(root .. '/My Poems/Draft/Dusk.md', 'x')
  h.WaitLine('. Dusk.md')
  h.Settle(300)
  assert_equal([], TreeRequests()[before :])
  assert_true(h.LineOf('. Dusk.md') < h.LineOf('. Morning.md'), string(h.BinderLines()))
})

h.Run('a file''s new content is placed again (a date sort may move it), with no fetch', () => {
  var root = Poems()
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  h.Idle()
  var before = len(TreeRequests())
  var changes = DidChanges()
  writefile(['a new line'], root .. '/My Poems/Draft/Morning.md', 'a')
  h.Wait(() => DidChanges() > changes, 'the didChange')
  h.Settle(300)
  assert_equal([], TreeRequests()[before :])
  h.WaitLine('. Morning.md')
})

h.Run('with All expanded, a change in the project refetches All, once', () => {
  var root = Poems()
  h.Press('= Draft  1 file', 'zo')
  h.Press('* All  1 file', 'zo')
  h.Idle()
  var before = len(TreeRequests())
  h.Write(root .. '/My Poems/Draft/Dusk.md', 'x')
  h.WaitLine('* All  2 files')
  h.Settle(300)
  var fetched = TreeRequests()[before :]->mapnew((_, p) => p.uri)->sort()
  # Draft takes the placed row; "All" is not placed, and is fetched.
  assert_equal([Uri(root .. '/My Poems/.carrel/all')], fetched)
})

h.Run('a folder collapsed after a change is fetched fresh when expanded again', () => {
  var root = Poems()
  h.Press('= Draft  1 file', 'zo')
  h.Press('= Draft  1 file', 'zc')
  h.Idle()
  h.Write(root .. '/My Poems/Draft/Dusk.md', 'x')
  h.WaitLine('= Draft  2 files')
  h.Press('= Draft  2 files', 'zo')
  h.WaitLine('. Dusk.md')
})
h.Run('expansion is kept by identity across a refetch of a collapsed parent', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Sea/Tide.md': 'tide'}))
  h.Open(root)
  h.Press('= Draft  1 file', 'zo')
  h.Press('/ Sea  1 file', 'zo')
  h.WaitLine('. Tide.md')
  h.Press('= Draft  1 file', 'zc')
  h.Idle()
  h.Write(root .. '/My Poems/Draft/Dusk.md', 'x')
  h.WaitLine('= Draft  2 files')
  h.Press('= Draft  2 files', 'zo')
  h.WaitLine('. Dusk.md')
  h.WaitLine('. Tide.md')
})
h.Run('changes that come while a folder is being fetched ask for it once more, not once each', () => {
  var root = Poems()
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  h.Idle()
  var before = len(TreeRequests())
  # As one read of the pipe delivers them: one after the other, no wait between.
  for i in range(5)
    tree.OnDidChange({changes: [{type: 'created', uri: Uri(root .. '/My Poems/Draft/Note ' .. i .. '.md')}],
      updated: []})
  endfor
  h.Idle()
  h.Settle(300)
  assert_equal(repeat([{uri: Uri(root .. '/My Poems/Draft'), depth: 1}], 2), TreeRequests()[before :])
})
h.Done()

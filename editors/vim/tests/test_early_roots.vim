vim9script
# A cold open asks for the roots right behind initialize, before its answer
# is read, so the first view waits for no round trip of its own; the answer
# is held until the binder asks, and asked again if a change came after it.
import './harness.vim' as h
import autoload 'carrel/rpc.vim'
import autoload 'carrel/tree.vim'

# The client's messages and the replies it read, from this test's
# initialize on (the log outlives each server): '→ method' or '← id'.
def Exchanges(): list<string>
  var lines = h.Traffic()->copy()
  var start = 0
  for i in range(len(lines))
    if lines[i] =~ '^→ .*"initialize"'
      start = i
    endif
  endfor
  return lines[start :]->filter((_, l) => l =~ '^[→←] ')->mapnew((_, l) => Exchange(l))
enddef

def Exchange(line: string): string
  var message = json_decode(strpart(line, strlen('→ ')))
  var arrow = strpart(line, 0, strlen('→'))
  if has_key(message, 'method')
    var params = get(message, 'params', {})
    return arrow .. ' ' .. message.method .. (message.method == 'carrel/tree' ? ' ' .. json_encode(params) : '')
  endif
  return arrow .. ' ' .. string(get(message, 'id', ''))
enddef

# Where `wanted` first appears among the exchanges, or -1.
def Place(exchanges: list<string>, wanted: string): number
  return index(exchanges, wanted)
enddef

def RootRequests(): number
  return Exchanges()->filter((_, e) => e == '→ carrel/tree {"depth":1}')->len()
enddef

def Poems(): string
  return h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
enddef

# The id of this test's initialize.
def InitializeId(): number
  var lines = h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*"initialize"')
  return json_decode(strpart(lines[-1], strlen('→ '))).id
enddef

def AskedBeforeInitializeRead(exchanges: list<string>)
  var roots = Place(exchanges, '→ carrel/tree {"depth":1}')
  var answered = Place(exchanges, '← ' .. InitializeId())
  assert_true(roots >= 0, 'the roots are asked for: ' .. string(exchanges))
  assert_true(answered >= 0, 'initialize is answered: ' .. string(exchanges))
  assert_true(roots < answered, 'the roots are asked for before initialize is answered: ' .. string(exchanges))
  assert_equal(1, RootRequests(), 'the roots are asked for once: ' .. string(exchanges))
enddef

h.Run('a cold :Carrel asks for the roots before reading the answer to initialize, once', () => {
  var root = Poems()
  h.Open(root)
  h.WaitLine('= Draft  1 file · 1 word')
  h.Idle()
  AskedBeforeInitializeRead(Exchanges())
})

h.Run('the preload asks for the roots before reading the answer to initialize, once', () => {
  var root = Poems()
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
  Carrel preload
  h.Wait(() => get(h.BinderLines(), 0, '') == '# Writing  1 file · 1 word', 'the preloaded first view')
  h.Idle()
  AskedBeforeInitializeRead(Exchanges())
  Carrel
  h.WaitLine('= Draft  1 file · 1 word')
  h.Idle()
  assert_equal(1, RootRequests(), string(Exchanges()))
})

# Started with the roots ahead and nobody asking yet: the answer is held.
def StartAhead(root: string)
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
  # A first start makes the project's missing standard folders, a change
  # of its own: made before, so that only the test's change comes.
  assert_true(rpc.Start(() => 0), 'the server starts')
  h.Idle()
  h.Settle(300)
  rpc.Stop()
  assert_true(rpc.Start(() => 0, true), 'the server starts')
  h.Idle()
  assert_equal(1, RootRequests(), string(Exchanges()))
enddef

h.Run('the roots answered ahead are what the binder gets when it asks, with nothing asked again', () => {
  # No file: no words to count, so no change of the server's own follows.
  var root = h.Library(h.Poetry('My Poems'))
  StartAhead(root)
  var roots: any = v:null
  rpc.Request('carrel/tree', {depth: 1}, (result) => {
    roots = result
  })
  h.Wait(() => roots != v:null, 'the held roots')
  assert_equal(['Writing'], roots->mapnew((_, node) => node.name))
  h.Settle(100)
  assert_equal(1, RootRequests(), string(Exchanges()))
})

h.Run('a change after the roots were answered ahead makes the binder ask for them again', () => {
  var root = Poems()
  StartAhead(root)
  h.Write(root .. '/My Poems/Draft/Evening.md', 'dusk')
  h.Wait(() => Exchanges()->index('← carrel/didChange') >= 0, 'the change')
  tree.Load()
  h.Wait(() => RootRequests() == 2, 'the roots asked for again')
  h.Idle()
  assert_equal(2, RootRequests(), string(Exchanges()))
})

h.Done()

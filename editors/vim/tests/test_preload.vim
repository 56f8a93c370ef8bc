vim9script
# Opening at once: :Carrel preload starts the server and fetches the first
# view with no window shown, and only where a library holds a project; a
# later open shows the rows without asking for them again.
import './harness.vim' as h
import autoload 'carrel/rpc.vim'
import autoload 'carrel/binder.vim'

def Uri(path: string): string
  return 'file://' .. substitute(path, ' ', '%20', 'g')
enddef

# The client's messages to this test's server, from its initialize on (the
# log outlives each server).
def Sent(): list<dict<any>>
  var lines = h.Traffic()->copy()->filter((_, l) => l =~ '^→ ')
  var start = 0
  for i in range(len(lines))
    if lines[i] =~ '"initialize"'
      start = i
    endif
  endfor
  return lines[start :]->mapnew((_, l) => json_decode(strpart(l, strlen('→ '))))
enddef

def TreeRequests(): list<dict<any>>
  return Sent()->filter((_, m) => get(m, 'method', '') == 'carrel/tree')->mapnew((_, m) => m.params)
enddef

def Initializes(): number
  return h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*"initialize"')->len()
enddef

def Options(root: string): dict<any>
  return {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
enddef

def Preload(root: string)
  g:carrel = Options(root)
  messages clear
  Carrel preload
enddef

# Waits for the preloaded first view and its words, with nothing left to ask.
def WaitPreloaded(summary: string)
  h.Wait(() => get(h.BinderLines(), 0, '') == summary, 'the preloaded first view with its words')
  h.Idle()
  h.Settle(300)
  h.Idle()
enddef

def Windows(): number
  return len(getwininfo())
enddef

def Poems(): string
  return h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
enddef

h.Run('preload fetches the first view with no window; opening then shows it and asks for nothing', () => {
  var root = Poems()
  var windows = Windows()
  Preload(root)
  assert_true(rpc.IsRunning(), 'the server is started')
  assert_equal(0, binder.Window())
  WaitPreloaded('# Writing  1 file · 1 word')
  assert_equal(0, binder.Window())
  assert_equal(windows, Windows())
  assert_equal([], win_findbuf(binder.Buffer()))
  var requests = TreeRequests()
  assert_equal([{depth: 1}, {uri: Uri(root .. '/My Poems'), depth: 2}], requests[: 1])
  assert_true(h.LineOf('= Draft  1 file · 1 word') > 0, string(h.BinderLines()))
  # Opening sends what it sends at once, before Vim reads another message.
  Carrel
  assert_equal(requests, TreeRequests())
  assert_notequal(0, binder.Window())
  assert_equal(binder.Window(), win_getid())
  assert_equal(1, line('.'))
  assert_equal('%!carrel#binder#Statusline()', &l:statusline)
  assert_equal(' Writing', binder.Statusline())
  h.WaitLine('@ My Poems  1 file · 1 word')
  h.WaitLine('= Draft  1 file · 1 word')
  # Its keys work as after any open.
  h.Press('= Draft  1 file · 1 word', 'zo')
  h.WaitLine('. Morning.md  1 word')
})

def Shell(command: string)
  system(command)
  assert_equal(0, v:shell_error, command)
enddef

h.Run('opening while the preload is still fetching waits for its answers, asking nothing twice', () => {
  var root = Poems()
  Preload(root)
  # Before the server has answered initialize: the roots are not held yet.
  Carrel
  assert_notequal(0, binder.Window())
  h.WaitLine('= Draft  1 file · 1 word')
  h.Idle()
  var requests = TreeRequests()
  assert_equal([{depth: 1}, {uri: Uri(root .. '/My Poems'), depth: 2}], requests[: 1])
  assert_equal(1, requests->copy()->filter((_, p) => p == {depth: 1})->len(), string(requests))
})

h.Run('preload starts nothing, silently, where no library holds a plain project.json', () => {
  var bare = h.Library({'notes.md': 'x', 'Folder/': ''})
  Preload(bare)
  assert_false(rpc.IsRunning(), 'no server for a library without a project')
  var root = h.Library({'Poems/.carrel/': '', 'Folder/.carrel/project.json/': '',
    '.Hidden/.carrel/project.json': '{"type":"poetry","version":1}',
    'Deep/Inner/.carrel/project.json': '{"type":"poetry","version":1}'})
  var outside = fnamemodify(root, ':h') .. '/Outside'
  h.Write(outside .. '/.carrel/project.json', '{"type":"poetry","version":1}')
  mkdir(root .. '/.carrel')
  # A link to a plain project.json, a named pipe, a folder, a child that is
  # a link to a real project, a hidden child, a project two levels down.
  Shell('ln -s ' .. shellescape(outside .. '/.carrel/project.json') .. ' ' .. shellescape(root .. '/.carrel/'))
  Shell('mkfifo ' .. shellescape(root .. '/Poems/.carrel/project.json'))
  Shell('ln -s ' .. shellescape(outside) .. ' ' .. shellescape(root .. '/Linked'))
  mkdir(root .. '/Dotted')
  Shell('ln -s ' .. shellescape(outside .. '/.carrel') .. ' ' .. shellescape(root .. '/Dotted/.carrel'))
  Preload(root)
  var said = h.Messages()
  h.Settle(200)
  assert_false(rpc.IsRunning(), 'no server for links, a pipe, a folder, a hidden or a deeper project')
  assert_notmatch('Carrel\|E\d\+', said)
  # The same library, once a child folder holds a plain project.json.
  h.Write(root .. '/Real/.carrel/project.json', '{"type":"poetry","version":1}')
  Preload(root)
  assert_true(rpc.IsRunning(), 'a child project counts')
  h.WaitLine('@ Real')
  h.Idle()
  assert_equal(0, binder.Window())
})

h.Run('with no folders configured, preload looks at the current directory, as opening does', () => {
  var bare = h.Library({'notes.md': 'x'})
  var root = Poems()
  var before = getcwd()
  try
    g:carrel = {cmd: [$CARREL, 'lsp'], log_size: 2000}
    execute 'cd' fnameescape(bare)
    Carrel preload
    assert_false(rpc.IsRunning(), 'no server in a folder without a project')
    execute 'cd' fnameescape(root)
    Carrel preload
    assert_true(rpc.IsRunning(), 'the server starts in a library with a project')
    WaitPreloaded('# Writing  1 file · 1 word')
    assert_equal([{depth: 1}, {uri: Uri(root .. '/My Poems'), depth: 2}], TreeRequests()[: 1])
  finally
    execute 'cd' fnameescape(before)
  endtry
})

h.Run('an outside change while preloaded and hidden is in the binder when it opens, with no fetch', () => {
  var root = Poems()
  Preload(root)
  WaitPreloaded('# Writing  1 file · 1 word')
  h.Write(root .. '/Dusk.md', 'evening light')
  h.Write(root .. '/My Poems/Draft/Noon.md', 'sun')
  h.Wait(() => h.LineOf('. Dusk.md  2 words') > 0, 'the new file in the hidden binder')
  h.Wait(() => h.LineOf('= Draft  2 files · 2 words') > 0, 'the new count in the hidden binder')
  h.Idle()
  assert_equal(0, binder.Window())
  var requests = TreeRequests()
  # The library root is expanded in the first view: it was fetched again.
  assert_true(index(requests, {uri: Uri(root), depth: 1}) >= 0, string(requests))
  Carrel
  assert_equal(requests, TreeRequests())
  assert_notequal(0, binder.Window())
  h.WaitLine('. Dusk.md  2 words')
  h.WaitLine('= Draft  2 files · 2 words')
})

h.Run('preload twice, or after opening, does nothing more', () => {
  var root = Poems()
  var starts = Initializes()
  Preload(root)
  # Again before the server has answered, then after the first view.
  Carrel preload
  WaitPreloaded('# Writing  1 file · 1 word')
  Carrel preload
  h.Settle(100)
  assert_equal(starts + 1, Initializes())
  assert_equal(1, TreeRequests()->copy()->filter((_, p) => p == {depth: 1})->len(), string(TreeRequests()))
  Carrel
  var requests = TreeRequests()
  var windows = Windows()
  Carrel preload
  h.Settle(100)
  assert_equal(requests, TreeRequests())
  assert_equal(windows, Windows())
  assert_equal(starts + 1, Initializes())
  # Opened first, without a preload: the preload adds nothing either.
  Carrel stop
  h.Open(root)
  requests = TreeRequests()
  Carrel preload
  h.Settle(100)
  assert_equal(requests, TreeRequests())
  assert_equal(starts + 2, Initializes())
})

h.Run('a server that cannot start is reported once, as opening reports it', () => {
  var root = Poems()
  g:carrel = {folders: [root], cmd: ['no-such-carrel', 'lsp']}
  messages clear
  Carrel preload
  var said = split(h.Messages(), "\n")
  assert_false(rpc.IsRunning())
  var expected = 'Carrel cannot start "no-such-carrel": it is not an executable on your PATH. '
    .. 'Install the server (see :help carrel-install) or set g:carrel.cmd.'
  assert_equal([expected], said->copy()->filter((_, l) => l =~ 'Carrel'))
  messages clear
  Carrel
  assert_equal([expected], split(h.Messages(), "\n")->filter((_, l) => l =~ 'Carrel'))
})

# A Vim started in `folder` with the default settings (g:carrel unset, the
# server found on PATH as `carrel`) or the vimrc line `settings`, probed by
# startup_probe.vim.
def StartedIn(folder: string, settings: string = 'let g:loaded_nothing = 1'): dict<any>
  var out = tempname()
  var plugin = $CARREL_VIM_PLUGIN
  # The server as a writer installs it: `carrel` on the PATH.
  var bin = tempname()
  mkdir(bin)
  system('ln -s ' .. shellescape($CARREL) .. ' ' .. shellescape(bin .. '/carrel'))
  var command = printf('cd %s && PATH=%s:"$PATH" CARREL_PROBE_OUT=%s timeout 60 vim -Nu NONE -i NONE -n -es'
    .. ' --cmd %s --cmd %s --cmd "runtime plugin/carrel.vim" -S %s </dev/null',
    shellescape(folder), shellescape(bin), shellescape(out), shellescape(settings),
    shellescape('set runtimepath^=' .. plugin), shellescape(plugin .. '/tests/startup_probe.vim'))
  system(command)
  assert_true(filereadable(out), 'the started Vim reported: ' .. command)
  return filereadable(out) ? json_decode(join(readfile(out), '')) : {}
enddef

h.Run('Vim started in a library preloads by default: the server runs and the first view is held', () => {
  var root = Poems()
  var report = StartedIn(root)
  assert_equal(true, get(report, 'running_at_start', false), 'the server started as Vim started')
  assert_equal(1, get(report, 'jobs_at_start', 0))
  assert_equal(true, get(report, 'running', false))
  # Held in the hidden binder before :Carrel, with no window of its own.
  assert_equal(1, get(report, 'windows', 0))
  var held = get(report, 'held', [])
  assert_equal('# Writing  1 file · 1 word', get(held, 0, ''))
  assert_true(index(held, '      = Draft  1 file · 1 word') >= 0, string(held))
  # :Carrel shows what is held at once, before Vim reads another message.
  assert_equal(held, get(report, 'shown', []))
})

h.Run('Vim started outside any library starts nothing; preload off starts nothing in one', () => {
  var bare = h.Library({'notes.md': 'x', 'Folder/': ''})
  var report = StartedIn(bare)
  assert_equal(false, get(report, 'running_at_start', true))
  assert_equal(0, get(report, 'jobs_at_start', -1), 'no process started')
  assert_equal(0, get(report, 'jobs', -1))
  assert_equal([], get(report, 'held', ['?']))
  var root = Poems()
  report = StartedIn(root, 'let g:carrel = {"preload": v:false}')
  assert_equal(false, get(report, 'running_at_start', true))
  assert_equal(0, get(report, 'jobs', -1))
})

h.Done()

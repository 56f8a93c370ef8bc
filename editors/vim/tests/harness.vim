vim9script
# A tiny test harness for the plugin in headless Vim: each test file calls
# Run for each test and Done at the end; results go to $CARREL_TEST_RESULTS.

import autoload 'carrel/binder.vim'
import autoload 'carrel/rpc.vim'
import autoload 'carrel/ui.vim'

var results = $CARREL_TEST_RESULTS
var counter = 0
export var library = ''

def Out(line: string)
  writefile([line], results, 'a')
enddef

export def Run(name: string, Test: func())
  v:errors = []
  var failure = ''
  var skipped = ''
  try
    Test()
  catch /^carrel-skip: /
    skipped = substitute(v:exception, '^carrel-skip: ', '', '')
  catch
    failure = v:exception .. ' (' .. v:throwpoint .. ')'
  endtry
  if skipped != ''
    Out('ok - ' .. name .. ' # skip: ' .. skipped)
  elseif failure == '' && empty(v:errors)
    Out('ok - ' .. name)
  else
    Out('not ok - ' .. name)
    for error in v:errors + (failure == '' ? [] : [failure])
      Out('  ' .. error)
    endfor
    Out('  binder: ' .. string(BinderLines()))
    Out('  messages: ' .. string(split(execute('messages'), "\n")[-5 :]))
    Out(printf('  running: %s, pending: %d', rpc.IsRunning(), rpc.Pending()))
    for line in rpc.Traffic()[-6 :]
      Out('  | ' .. strpart(line, 0, 300))
    endfor
  endif
  Reset()
enddef

export def Done()
  Out('# done')
  qa!
enddef

export def Fail(text: string)
  throw text
enddef

# Waits up to `seconds` for `Condition`, letting channel messages and timers run.
export def Wait(Condition: func(): bool, what: string, seconds: float = 10.0)
  var start = reltime()
  while reltimefloat(reltime(start)) < seconds
    var ok = false
    try
      ok = Condition()
    catch
    endtry
    if ok
      return
    endif
    sleep 10m
  endwhile
  Fail('timed out waiting for ' .. what)
enddef

# Lets pending messages and timers run for a while.
export def Settle(milliseconds: number = 300)
  execute 'sleep' milliseconds .. 'm'
enddef

# A new library folder holding `files` (relative path → text; a path
# ending in / is a folder).
export def Library(files: dict<string>): string
  counter += 1
  var root = resolve($CARREL_TEST_SCRATCH) .. '/' .. fnamemodify(results, ':t:r') .. counter .. '/Writing'
  mkdir(root, 'p')
  for [path, text] in items(files)
    Write(root .. '/' .. path, text)
  endfor
  library = root
  return root
enddef

export def Write(path: string, text: string)
  if path =~ '/$'
    mkdir(path, 'p')
    return
  endif
  mkdir(fnamemodify(path, ':h'), 'p')
  writefile(split(text, "\n", true), path)
enddef

export def Poetry(name: string): dict<string>
  return {[name .. '/.carrel/project.json']: '{"type":"poetry","version":1}'}
enddef

# Opens the binder on `root` and waits for its first view.
export def Open(root: string, options: dict<any> = {})
  # The tests read the client's own traffic log, which is off by default.
  g:carrel = extend({folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}, options)
  Carrel
  Wait(() => len(BinderLines()) > 1, 'the first view')
  Idle()
enddef

# Waits until every request has its response and the binder is drawn.
export def Idle()
  Wait(() => rpc.IsRunning() && rpc.Pending() == 0, 'every response')
  Settle(50)
  Wait(() => rpc.Pending() == 0, 'every response')
enddef

export def BinderLines(): list<string>
  return binder.Buffer() > 0 && bufexists(binder.Buffer()) ? getbufline(binder.Buffer(), 1, '$') : []
enddef

# The binder's line number of the row whose text (trimmed) starts with `text`.
export def LineOf(text: string): number
  var lines = BinderLines()
  for i in range(len(lines))
    # A row's summary may go on after what the test names: its words follow its files.
    var row = trim(lines[i])
    if row == text || stridx(row, text .. '  ') == 0 || stridx(row, text .. ' · ') == 0
      return i + 1
    endif
  endfor
  return 0
enddef

export def WaitLine(text: string)
  Wait(() => LineOf(text) > 0, 'a row "' .. text .. '"')
enddef

export def WaitNoLine(text: string)
  Wait(() => LineOf(text) == 0, 'no row "' .. text .. '"')
enddef

# Puts the cursor on the row `text` in the binder, then types `keys` there.
export def Press(text: string, keys: string)
  WaitLine(text)
  win_gotoid(binder.Window())
  cursor(LineOf(text), 1)
  feedkeys(keys, 'xt')
enddef

# The open popup menus, each as {id, items}.
export def Popups(): list<dict<any>>
  return popup_list()->mapnew((_, id) => ({id: id, items: getbufline(winbufnr(id), 1, '$'),
    title: get(popup_getoptions(id), 'title', '')}))
enddef

# Chooses `item` in the open popup that offers it, with the keys a writer
# would type (j to it, then Enter); `typed` then answers the name the choice
# asks for, if any. With several popups open, the popup is closed on `item`.
export def Choose(item: string, typed: string = '')
  Wait(() => Popups()->copy()->filter((_, p) => index(p.items, item) >= 0)->len() > 0, 'a popup offering ' .. item)
  var popups = Popups()
  for popup in popups
    var at = index(popup.items, item)
    if at >= 0 && len(popups) == 1
      # From where the menu's cursor starts: below the question, if it has one.
      feedkeys(repeat('j', at + 1 - line('.', popup.id)) .. "\<CR>" .. typed, 'xt')
      return
    elseif at >= 0
      popup_close(popup.id, at + 1)
      return
    endif
  endfor
enddef

export def Traffic(): list<string>
  return rpc.Traffic()
enddef

# Ends the test as skipped, saying why: only for a server that lacks what the test needs.
export def Skip(why: string)
  throw 'carrel-skip: ' .. why
enddef

# Skips the test unless the running server lists `command` in executeCommandProvider.
export def NeedsCommand(command: string)
  var answer = rpc.Traffic()->copy()->filter((_, l) => l =~ '^← .*"executeCommandProvider"')
  if empty(answer) || stridx(answer[0], '"' .. command .. '"') < 0
    Skip('the server at $CARREL does not offer ' .. command .. ' yet')
  endif
enddef

# The arguments of each workspace/executeCommand sent for `command`, in order.
export def CommandsSent(command: string): list<dict<any>>
  var found: list<dict<any>> = []
  # The log outlives the server: only this test's server counts, from its initialize on.
  var lines = rpc.Traffic()
  var start = 0
  for i in range(len(lines))
    if lines[i] =~ '^→ .*"initialize"'
      start = i
    endif
  endfor
  for line in lines[start :]
    if line =~ '^→ .*"workspace/executeCommand"'
      var message = json_decode(strpart(line, stridx(line, ' ') + 1))
      if message.params.command == command
        found->add(message.params.arguments[0])
      endif
    endif
  endfor
  return found
enddef

export def Messages(): string
  return execute('messages')
enddef

export def Exists(path: string): bool
  return filereadable(path) || isdirectory(path)
enddef

def Reset()
  for popup in popup_list()
    popup_close(popup)
  endfor
  try
    Carrel stop
  catch
    Out('  # stopping the server failed: ' .. v:exception)
  endtry
  silent! only!
  silent! enew!
  messages clear
enddef

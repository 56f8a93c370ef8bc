vim9script
# The server: `carrel lsp` on a raw channel, framed and matched here.
# Requests wait for the end of `initialize`; every message in and out is
# kept in a bounded log.

import autoload 'carrel/config.vim'
import autoload 'carrel/util.vim'
import autoload 'carrel/tree.vim'
import autoload 'carrel/follow.vim'
import autoload 'carrel/ui.vim'
import autoload 'carrel/documents.vim'
import autoload 'carrel/links.vim'
import autoload 'carrel/framing.vim'

var server: job
var running = false
var ready = false
var waiting: list<func> = []
var vocabulary: dict<any> = {}
var traffic: list<string> = []
var pending = 0
var generation = 0
var folders: list<string> = []
var next_id = 0
var replies: dict<func(dict<any>)> = {}  # request id → what handles its response
var inbox: list<dict<any>> = []          # messages read and not handled yet, oldest first
# The roots asked for right behind initialize, until the binder asks for
# them: {answered, result, stale}, and who takes the answer once it asks.
var early: dict<any> = {}
const ROOTS = {depth: 1}

export def Traffic(): list<string>
  return traffic
enddef

# What the server offers to choose from: projectTypes, sorts, names.
export def Vocabulary(): dict<any>
  return vocabulary
enddef

# How many requests await their response.
export def Pending(): number
  return pending
enddef

export def IsRunning(): bool
  return running
enddef

# Whether the server has answered `initialize`.
export def IsReady(): bool
  return running && ready
enddef

# Off by default: encoding every message costs about 2 ms each, which a
# burst of outside changes on a large library turns into a stall.
def Record(direction: string, message: dict<any>)
  if config.Get().log_size > 0
    Keep(direction .. ' ' .. json_encode(message))
  endif
enddef

def Keep(line: string)
  traffic->add(line)
  var limit: number = config.Get().log_size
  if len(traffic) > limit
    traffic = limit == 0 ? [] : traffic[len(traffic) - limit :]
  endif
enddef

# Whether the options are right and the server is there; says what is wrong.
export def CanStart(): bool
  var problems = config.Problems()
  if !empty(problems)
    for problem in problems
      util.Show(1, problem)
    endfor
    return false
  endif
  var command = config.Get().cmd[0]
  if !executable(command)
    util.Show(1, printf('Carrel cannot start "%s": it is not an executable on your PATH. '
      .. 'Install the server (see :help carrel-install) or set g:carrel.cmd.', command))
    return false
  endif
  return true
enddef

# Starts the server once; `OnReady` runs when it has answered `initialize`.
# With `roots_ahead`, the binder's roots are asked for right behind
# `initialize`: their answer is on its way while Vim reads initialize's, so
# the first view waits for no round trip of its own.
export def Start(OnReady: func, roots_ahead: bool = false): bool
  if running
    if ready
      OnReady()
    else
      waiting->add(OnReady)
    endif
    return true
  endif
  if !CanStart()
    return false
  endif
  var options = config.Get()
  # Raw, not Vim's 'lsp' mode: that drops a message whose second part comes
  # more than 100 ms after its first, as a long reply's does on a loaded
  # machine, or any message's when the pipe filled while Vim was busy.
  framing.Reset()
  replies = {}
  inbox = []
  server = job_start(options.cmd, {in_mode: 'raw', out_mode: 'raw', err_mode: 'nl',
    out_cb: OnOutput, err_cb: OnStderr, exit_cb: OnExit, noblock: true})
  if job_status(server) != 'run'
    util.Show(1, printf('Carrel could not start %s.', string(options.cmd)))
    return false
  endif
  running = true
  ready = false
  pending = 0
  generation += 1
  waiting = [OnReady]
  folders = config.Folders()
  var workspace = folders->mapnew((_, f) => ({uri: util.Uri(f), name: fnamemodify(f, ':t')}))
  var locale = options.locale != '' ? options.locale : (v:lang =~ '^fr' ? 'fr' : 'en')
  var params = {processId: getpid(), locale: locale, rootUri: workspace[0].uri,
    workspaceFolders: workspace, capabilities: {window: {showMessage: {}}, workspace: {applyEdit: true},
    experimental: {carrel: {didChange: true, folderSymbols: true}}}}
  if options.question_timeout > 0
    params.initializationOptions = {confirmationTimeout: options.question_timeout}
  endif
  early = {}
  Send('initialize', params, Initialized, Ignore)
  if roots_ahead
    AskEarly()
  endif
  return true
enddef

# The server handles messages in the order they come, so the roots may be
# asked for before `initialized`; only a request that changes nothing may.
def AskEarly()
  early = {answered: false, stale: false}
  var held = early
  Send('carrel/tree', ROOTS, (result) => EarlyAnswered(held, result), (error) => EarlyRefused(held, error))
enddef

def EarlyAnswered(held: dict<any>, result: any)
  if has_key(held, 'Taker')
    held.Taker(result)
    return
  endif
  held.answered = true
  held.result = result
enddef

def EarlyRefused(held: dict<any>, error: any)
  # Already shown: a binder that asks later asks for itself.
  held.stale = true
  if has_key(held, 'Failed')
    held.Failed(error)
  endif
enddef

# Whether the roots asked for ahead go to this request instead of a new one.
def TakeEarly(method: string, params: dict<any>, Callback: func, Failed: func(any)): bool
  if empty(early) || early.stale || method != 'carrel/tree' || params != ROOTS
    return false
  endif
  var held = early
  early = {}
  if held.answered
    # Later, as an answer read from the server would be handled.
    timer_start(0, (_) => Callback(held.result))
  else
    held.Taker = Callback
    held.Failed = Failed
  endif
  return true
enddef

def Initialized(result: any)
  vocabulary = get(get(get(result, 'capabilities', {}), 'experimental', {}), 'carrel', {})
  Notify('initialized', {})
  ready = true
  documents.Start(folders)
  var callbacks = waiting
  waiting = []
  for Callback in callbacks
    Callback()
  endfor
enddef

export def Stop()
  if !running
    return
  endif
  documents.Stop()
  if ready
    var answered = false
    Request('shutdown', {}, (_) => {
      answered = true
    }, (_) => {
      answered = true
    })
    WaitFor(() => answered, 2.0)
    Notify('exit', {})
  endif
  job_stop(server)
  running = false
  ready = false
enddef

def Ignore(_: any)
enddef

def Send(method: string, params: dict<any>, Callback: func, Failed: func(any))
  # What the server answers, and what a rename's link updates are made on,
  # is the text the writer sees.
  documents.Sync()
  var mine = generation
  next_id += 1
  var message = {id: next_id, method: method, params: params}
  replies[string(next_id)] = (reply) => Replied(reply, Callback, Failed, mine)
  Write(message)
  pending += 1
  Record('→', message)
enddef

def Replied(reply: dict<any>, Callback: func, Failed: func(any), sent_by: number)
  if sent_by != generation
    return
  endif
  pending -= 1
  Record('←', reply)
  if has_key(reply, 'error')
    # A refusal says what to do, in the writer's language: shown as is. A
    # question the writer said no to is news, not an error.
    var data: any = get(reply.error, 'data', {})
    var cancelled = type(data) == v:t_dict && get(data, 'reason', '') == 'cancelled'
    util.Show(cancelled ? 0 : 1, get(reply.error, 'message', string(reply.error)))
    Failed(reply.error)
    return
  endif
  Callback(get(reply, 'result', v:null))
enddef

# Sends a request once the server is ready; `Callback` gets a success's
# result, `Failed` the error of a refusal (after it is shown).
export def Request(method: string, params: dict<any>, Callback: func, Failed: func(any) = Ignore)
  if !running
    # Stopped: only :Carrel starts the server again, never a late callback.
    return
  elseif TakeEarly(method, params, Callback, Failed)
    return
  elseif !ready
    waiting->add(() => Send(method, params, Callback, Failed))
  else
    Send(method, params, Callback, Failed)
  endif
enddef

# Sends a request and waits for its answer, at most `seconds`, letting the
# server's other messages and Vim's timers run meanwhile; keys typed
# meanwhile wait in Vim's typeahead for what the answer brings. Returns
# {answered: true, result: ...}; else {answered: false}, and an answer that
# comes later goes to `Late` (a refusal is shown, and goes nowhere).
export def Await(method: string, params: dict<any>, Late: func(any), seconds: float = 5.0): dict<any>
  var state: dict<any> = {answered: false, refused: false, waiting: true}
  Request(method, params, (result) => {
    if state.waiting
      state.answered = true
      state.result = result
    else
      Late(result)
    endif
  }, (_) => {
    state.refused = true
  })
  WaitFor(() => state.answered || state.refused, seconds)
  state.waiting = false
  return state
enddef

# Lets messages and timers run until `Done` says so, the server stops, or
# `seconds` pass; CTRL-C ends the wait too.
export def WaitFor(Done: func(): bool, seconds: float)
  var start = reltime()
  try
    while running && !Done() && reltimefloat(reltime(start)) < seconds
      sleep 10m
    endwhile
  catch /^Vim:Interrupt$/
  endtry
enddef

export def Execute(command: string, argument: dict<any>, Callback: func)
  Request('workspace/executeCommand', {command: command, arguments: [argument]}, Callback)
enddef

export def Notify(method: string, params: dict<any>)
  if !running
    return
  endif
  var message = {method: method, params: params}
  Write(message)
  Record('→', message)
enddef

# Answers a request of the server's; its ids never meet ours (PROTOCOL.md).
export def Respond(id: any, result: any)
  if !running
    return
  endif
  var message = {id: id, result: result}
  Write(message)
  Record('→', message)
enddef

def Write(message: dict<any>)
  ch_sendraw(server, framing.Frame(extend({jsonrpc: '2.0'}, message)))
enddef

def OnOutput(channel: channel, text: string)
  if !running || channel != job_getchannel(server)
    return
  endif
  # Shared, so that a handler that waits (and so reads on) still leaves
  # the messages handled in the order they came.
  inbox->extend(framing.Read(text))
  while !empty(inbox)
    OnMessage(remove(inbox, 0))
  endwhile
enddef

def OnMessage(message: dict<any>)
  var method = get(message, 'method', '')
  if method == '' && has_key(message, 'id')
    # A response: its request's handler records it.
    var key = string(message.id)
    if has_key(replies, key)
      var Reply = remove(replies, key)
      Reply(message)
    endif
    return
  endif
  Record('←', message)
  var params = get(message, 'params', {})
  if has_key(message, 'id')
    if method == 'window/showMessageRequest'
      ui.Question(message.id, params)
    elseif method == 'workspace/applyEdit'
      Respond(message.id, links.ApplyEdit(params))
    else
      var refusal = {id: message.id, error: {code: -32601, message: 'Carrel for Vim does not handle ' .. method}}
      Write(refusal)
      Record('→', refusal)
    endif
  elseif method == 'carrel/didChange'
    # A change after the roots answered ahead may alter their rows: the
    # binder asks for them itself.
    if !empty(early) && early.answered
      early.stale = true
    endif
    follow.Apply(get(params, 'changes', []))
    tree.OnDidChange(params)
  elseif method == 'textDocument/publishDiagnostics'
    links.Diagnostics(params)
  elseif method == 'window/showMessage'
    util.Show(get(params, 'type', 3), get(params, 'message', ''))
  elseif method == '$/progress'
    ShowProgress(get(params, 'token', ''), get(params, 'value', {}))
  elseif method == '$/cancelRequest'
    ui.Withdraw(get(params, 'id', -1))
  endif
enddef

# A compile's progress, in the server's words, on the command line only:
# the report that follows goes to the message history.
var progress_titles: dict<string> = {}
def ShowProgress(token: any, value: dict<any>)
  var key = string(token)
  var kind = get(value, 'kind', '')
  if kind == 'begin'
    progress_titles[key] = get(value, 'title', '')
  elseif kind == 'end'
    if has_key(progress_titles, key)
      remove(progress_titles, key)
    endif
    return
  endif
  var words = [get(progress_titles, key, ''), get(value, 'message', '')]->filter((_, w) => w != '')
  redraw
  echo join(words, ': ') .. (has_key(value, 'percentage') ? printf(' (%d%%)', value.percentage) : '')
enddef

def OnStderr(channel: channel, line: string)
  Keep('stderr ' .. line)
enddef

def OnExit(job: job, status: number)
  if job != server
    return
  endif
  var expected = !running
  documents.Stop()
  running = false
  ready = false
  if !expected
    util.Show(1, printf('The Carrel server stopped (exit status %d). :Carrel starts it again; :Carrel log shows why.',
      status))
  endif
enddef

vim9script
# The writer's own Markdown and Fountain buffers of the libraries, told to the
# server while it runs (didOpen, didChange with the whole text, didClose): it
# then counts their unsaved words, finds their links, reports the broken ones,
# and a rename's link updates reach them through workspace/applyEdit.

import autoload 'carrel/rpc.vim'
import autoload 'carrel/util.vim'
import autoload 'carrel/links.vim'

# The extensions the server reads as Markdown or Fountain.
const EXTENSIONS = ['md', 'markdown', 'mdown', 'mkd', 'fountain', 'spmd']

# Buffer number → {uri, tick, version, text} of each buffer the server holds:
# the text last sent, and the buffer's changedtick then.
var open: dict<dict<any>> = {}
var folders: list<string> = []
var typing_timer = 0

# Whether the server should hold `buffer`: a Markdown or Fountain file below
# one of the libraries.
def Wants(buffer: number): bool
  if !bufloaded(buffer) || getbufvar(buffer, '&buftype') != '' || bufname(buffer) == ''
    return false
  endif
  var path = fnamemodify(bufname(buffer), ':p')
  if index(EXTENSIONS, tolower(fnamemodify(path, ':e'))) < 0
    return false
  endif
  return !folders->copy()->filter((_, f) => path != f && util.IsAtOrUnder(path, f))->empty()
enddef

# The buffer's text as it would be written.
export def Text(buffer: number): string
  var text = join(getbufline(buffer, 1, '$'), "\n")
  var eol = getbufvar(buffer, '&endofline') || getbufvar(buffer, '&fixendofline')
  return eol && !getbufvar(buffer, '&binary') ? text .. "\n" : text
enddef

# The buffer the server holds under `uri`, or 0.
export def BufferOf(uri: string): number
  for [key, document] in items(open)
    if document.uri == uri
      return str2nr(key)
    endif
  endfor
  return 0
enddef

# The URI the server holds `buffer` under, or ''.
export def UriOf(buffer: number): string
  return get(get(open, string(buffer), {}), 'uri', '')
enddef

# Whether `buffer` holds other text than the server was last sent.
export def Unsent(buffer: number): bool
  var document = get(open, string(buffer), {})
  return !empty(document) && getbufvar(buffer, 'changedtick', document.tick) != document.tick
    && Text(buffer) !=# document.text
enddef

def Open(buffer: number)
  if has_key(open, string(buffer)) || !Wants(buffer)
    return
  endif
  var uri = util.Uri(fnamemodify(bufname(buffer), ':p'))
  var text = Text(buffer)
  open[string(buffer)] = {uri: uri, tick: getbufvar(buffer, 'changedtick'), version: 1, text: text}
  var language = fnamemodify(bufname(buffer), ':e') =~? '^\(fountain\|spmd\)$' ? 'fountain' : 'markdown'
  rpc.Notify('textDocument/didOpen', {textDocument: {uri: uri, languageId: language, version: 1, text: text}})
enddef

def Close(buffer: number)
  var key = string(buffer)
  if !has_key(open, key)
    return
  endif
  var document = remove(open, key)
  links.Clear(buffer)
  rpc.Notify('textDocument/didClose', {textDocument: {uri: document.uri}})
enddef

# Sends the text of every held buffer that changed since it was last sent.
# Runs before every request, so the server answers on what the writer sees.
export def Sync()
  for [key, document] in items(open)
    var buffer = str2nr(key)
    var tick = getbufvar(buffer, 'changedtick', document.tick)
    if !bufloaded(buffer) || tick == document.tick
      continue
    endif
    document.tick = tick
    var text = Text(buffer)
    if text !=# document.text
      document.text = text
      document.version += 1
      rpc.Notify('textDocument/didChange', {textDocument: {uri: document.uri, version: document.version},
        contentChanges: [{text: text}]})
    endif
  endfor
enddef

# While typing, the text goes once the writer pauses.
def Typed()
  timer_stop(typing_timer)
  typing_timer = timer_start(300, (_) => Sync())
enddef

# Called when the server is ready: every buffer it should hold is sent, and
# each one read, made or renamed later. A renamed buffer (one that follows
# its file, or :saveas) is closed under its old URI and opened under its new.
export def Start(library_folders: list<string>)
  folders = library_folders->copy()
  open = {}
  augroup CarrelDocuments
    autocmd!
    autocmd BufReadPost,BufNewFile,BufFilePost * Open(str2nr(expand('<abuf>')))
    autocmd BufFilePre,BufUnload * Close(str2nr(expand('<abuf>')))
    autocmd TextChanged,InsertLeave,BufWritePost * Sync()
    autocmd TextChangedI,TextChangedP * Typed()
  augroup END
  for info in getbufinfo({bufloaded: true})
    Open(info.bufnr)
  endfor
enddef

# The server stopped: nothing is held any more.
export def Stop()
  augroup CarrelDocuments
    autocmd!
  augroup END
  for key in keys(open)
    links.Clear(str2nr(key))
  endfor
  open = {}
  timer_stop(typing_timer)
enddef

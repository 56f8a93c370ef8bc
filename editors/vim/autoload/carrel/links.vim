vim9script
# Links in the writer's buffers: the server's edits after a rename
# (workspace/applyEdit, applied to buffers, never to files), its broken-link
# diagnostics as signs, and :Carrel definition, backlinks and brokenlinks.

import autoload 'carrel/rpc.vim'
import autoload 'carrel/util.vim'
import autoload 'carrel/documents.vim'

# Buffer number → the server's diagnostics for it (its broken links).
var broken: dict<list<dict<any>>> = {}

# The byte index in `line` of `units` UTF-16 code units (LSP's positions),
# or -1 when the line is shorter or the index splits a character.
def ByteIndex(line: string, units: number): number
  var counted = 0
  var bytes = 0
  for char in split(line, '\zs')
    if counted >= units
      break
    endif
    for point in str2list(char)
      counted += point > 0xFFFF ? 2 : 1
    endfor
    bytes += strlen(char)
  endfor
  return counted == units ? bytes : -1
enddef

# The UTF-16 code units of `line` before byte index `bytes`.
def Units(line: string, bytes: number): number
  return str2list(strpart(line, 0, bytes))->mapnew((_, p) => p > 0xFFFF ? 2 : 1)->reduce((a, b) => a + b, 0)
enddef

def IsNumber(value: any): bool
  return type(value) == v:t_number && value >= 0
enddef

# The byte offset in the text of `lines` (joined by newlines, one more after
# the last) of an LSP position, or -1 when it lies outside.
def Offset(lines: list<string>, position: any): number
  if type(position) != v:t_dict || !IsNumber(get(position, 'line', -1))
      || !IsNumber(get(position, 'character', -1))
    return -1
  endif
  if position.line >= len(lines)
    return position.line == len(lines) && position.character == 0
      ? lines->mapnew((_, l) => strlen(l) + 1)->reduce((a, b) => a + b, 0) : -1
  endif
  var column = ByteIndex(lines[position.line], position.character)
  if column < 0
    return -1
  endif
  return lines->slice(0, position.line)->mapnew((_, l) => strlen(l) + 1)->reduce((a, b) => a + b, 0) + column
enddef

# The new lines of `buffer` once `edits` are made, or a string saying why
# they cannot be.
def Edited(buffer: number, edits: any): any
  var name = fnamemodify(bufname(buffer), ':t')
  if type(edits) != v:t_list
    return printf('The edits for “%s” are not a list.', name)
  endif
  var lines = getbufline(buffer, 1, '$')
  var text = join(lines, "\n") .. "\n"
  var spans: list<list<any>> = []
  for edit in edits
    var range = type(edit) == v:t_dict ? get(edit, 'range', {}) : {}
    var start = type(range) == v:t_dict ? Offset(lines, get(range, 'start', {})) : -1
    var end = type(range) == v:t_dict ? Offset(lines, get(range, 'end', {})) : -1
    var new = type(edit) == v:t_dict ? get(edit, 'newText', v:null) : v:null
    if start < 0 || end < start || type(new) != v:t_string
      return printf('An edit for “%s” is outside its text.', name)
    endif
    spans->add([start, end, new])
  endfor
  sort(spans, (a, b) => a[0] == b[0] ? a[1] - b[1] : a[0] - b[0])
  for i in range(1, len(spans) - 1)
    if spans[i][0] < spans[i - 1][1]
      return printf('Two edits for “%s” overlap.', name)
    endif
  endfor
  for [start, end, new] in reverse(spans)
    text = strpart(text, 0, start) .. new .. strpart(text, end)
  endfor
  var result = split(text, "\n", true)
  if len(result) > 1 && result[-1] == ''
    remove(result, -1)
  endif
  return result
enddef

# Lines waiting to replace the current buffer's (see Replace).
var replacement: list<string> = []

# Replaces the current buffer's lines with `replacement`, touching only the
# lines that differ, as one undo step of its own.
export def ReplaceHere()
  var old = getline(1, '$')
  var new = replacement
  var first = 0
  while first < len(old) && first < len(new) && old[first] ==# new[first]
    first += 1
  endwhile
  var last = 0
  while last < len(old) - first && last < len(new) - first && old[-1 - last] ==# new[-1 - last]
    last += 1
  endwhile
  var changed_old = len(old) - first - last
  var changed_new = new[first : len(new) - last - 1]
  # A change of its own, never joined to the writer's last one.
  &undolevels = &undolevels
  var shared = min([changed_old, len(changed_new)])
  if shared > 0
    setline(first + 1, changed_new[: shared - 1])
  endif
  if changed_old > shared
    silent deletebufline('%', first + shared + 1, first + changed_old)
  elseif len(changed_new) > shared
    append(first + shared, changed_new[shared :])
  endif
enddef

# Runs ReplaceHere in `buffer`: in a window showing it, else briefly in the
# current window, without autocommands, as follow.vim renames a buffer.
def Replace(buffer: number, lines: list<string>)
  replacement = lines
  var shown = win_findbuf(buffer)
  if !empty(shown)
    win_execute(shown[0], 'call carrel#links#ReplaceHere()')
    return
  endif
  var hidden = &hidden
  set hidden
  var previous = bufnr()
  try
    execute 'noautocmd keepalt keepjumps buffer' buffer
    carrel#links#ReplaceHere()
  finally
    execute 'noautocmd keepalt keepjumps buffer' previous
    &hidden = hidden
  endtry
enddef

# The server's workspace/applyEdit: every edit is checked before any is
# made, so the answer is applied: true only when all were; a file that is not
# loaded in a buffer is never read or written here.
export def ApplyEdit(params: any): dict<any>
  var edit = type(params) == v:t_dict ? get(params, 'edit', {}) : {}
  if type(edit) != v:t_dict || has_key(edit, 'documentChanges') || type(get(edit, 'changes', {})) != v:t_dict
    return {applied: false, failureReason: 'Carrel for Vim applies only the `changes` of a workspace edit.'}
  endif
  var planned: list<list<any>> = []
  for [uri, edits] in items(edit.changes)
    var path = util.Path(uri)
    var buffer = bufnr('^' .. escape(path, '\^$.*[]~') .. '$')
    var name = fnamemodify(path, ':t')
    if buffer <= 0 || !bufloaded(buffer)
      return {applied: false, failureReason: printf('“%s” is not open in Vim.', name)}
    elseif !getbufvar(buffer, '&modifiable')
      return {applied: false, failureReason: printf('“%s” cannot be changed (''nomodifiable'').', name)}
    elseif documents.Unsent(buffer)
      return {applied: false, failureReason: printf('“%s” changed since the server last saw it.', name)}
    endif
    var lines = Edited(buffer, edits)
    if type(lines) == v:t_string
      return {applied: false, failureReason: lines}
    endif
    planned->add([buffer, lines])
  endfor
  for [buffer, lines] in planned
    Replace(buffer, lines)
  endfor
  # The server learns the new text at once, as after any change.
  documents.Sync()
  return {applied: true}
enddef

# The sign on each line with a broken link.
def DefineSign()
  if empty(sign_getdefined('CarrelBrokenLink'))
    sign_define('CarrelBrokenLink', {text: '!>', texthl: 'WarningMsg'})
  endif
enddef

# The server's broken links for a buffer: a sign on each line, and the first
# one not shown before on the message line, in the server's words.
export def Diagnostics(params: any)
  var buffer = type(params) == v:t_dict ? documents.BufferOf(get(params, 'uri', '')) : 0
  if buffer == 0
    return
  endif
  var found: list<dict<any>> = get(params, 'diagnostics', [])->copy()
    ->filter((_, d) => type(d) == v:t_dict && type(get(d, 'message', 0)) == v:t_string
      && type(get(d, 'range', 0)) == v:t_dict && IsNumber(get(get(d.range, 'start', {}), 'line', -1)))
  var before = get(broken, string(buffer), [])->mapnew((_, d) => d.message)
  broken[string(buffer)] = found
  DefineSign()
  sign_unplace('carrel', {buffer: buffer})
  for diagnostic in found
    sign_place(0, 'carrel', 'CarrelBrokenLink', buffer, {lnum: diagnostic.range.start.line + 1})
  endfor
  var fresh = found->copy()->filter((_, d) => index(before, d.message) < 0)
  if !empty(fresh)
    util.Show(2, printf('%s:%d: %s', fnamemodify(bufname(buffer), ':t'), fresh[0].range.start.line + 1,
      fresh[0].message))
  endif
enddef

# The broken links the server last reported for `buffer`.
export def Broken(buffer: number): list<dict<any>>
  return get(broken, string(buffer), [])
enddef

export def Clear(buffer: number)
  if has_key(broken, string(buffer))
    remove(broken, string(buffer))
  endif
  if bufexists(buffer)
    sign_unplace('carrel', {buffer: buffer})
  endif
enddef

# :Carrel brokenlinks: the current buffer's broken links in its location list.
export def ListBroken()
  var buffer = bufnr()
  var lines = getline(1, '$')
  var entries = Broken(buffer)->mapnew((_, d) => ({bufnr: buffer, lnum: d.range.start.line + 1,
    col: max([ByteIndex(get(lines, d.range.start.line, ''), get(d.range.start, 'character', 0)), 0]) + 1,
    text: d.message}))
  setloclist(0, [], ' ', {title: 'Broken links', items: entries})
  if empty(entries)
    util.Show(0, 'No broken links in “' .. expand('%:t') .. '”.')
    lclose
  else
    lopen
  endif
enddef

def Ignore(_: any)
enddef

# The URI and LSP position of the cursor, in a buffer the server holds.
def Here(): dict<any>
  var uri = documents.UriOf(bufnr())
  if uri == ''
    util.Show(2, 'Carrel follows links in the Markdown and Fountain files of a library; this buffer is not one.')
    return {}
  endif
  return {textDocument: {uri: uri}, position: {line: line('.') - 1, character: Units(getline('.'), col('.') - 1)}}
enddef

# The line `number` (1-based) of `path`: its buffer's, else the file's.
def LineOf(path: string, number: number): string
  var buffer = bufnr('^' .. escape(path, '\^$.*[]~') .. '$')
  if buffer > 0 && bufloaded(buffer)
    return get(getbufline(buffer, number), 0, '')
  endif
  # Only a plain file is read: a named pipe would block.
  return getftype(path) == 'file' ? get(readfile(path, '', number), number - 1, '') : ''
enddef

# :Carrel definition: the link under the cursor's file, in this window.
export def Definition()
  var params = Here()
  if empty(params)
    return
  endif
  var answer = rpc.Await('textDocument/definition', params, Ignore)
  if !answer.answered
    return
  endif
  var location: any = type(answer.result) == v:t_list ? get(answer.result, 0, v:null) : answer.result
  if type(location) != v:t_dict || type(get(location, 'uri', 0)) != v:t_string
    util.Show(0, 'No link into the library under the cursor.')
    return
  endif
  normal! m'
  execute 'edit' fnameescape(util.Path(location.uri))
  var start = get(get(location, 'range', {}), 'start', {})
  var line = get(start, 'line', 0) + 1
  cursor(line, max([ByteIndex(getline(line), get(start, 'character', 0)), 0]) + 1)
enddef

# :Carrel backlinks: every link to the current file (or, on a link, to what it
# leads to) in the quickfix list.
export def Backlinks()
  var params = Here()
  if empty(params)
    return
  endif
  var answer = rpc.Await('textDocument/references', params->extend({context: {includeDeclaration: false}}),
    Ignore)
  if !answer.answered
    return
  endif
  var found: list<any> = type(answer.result) == v:t_list ? answer.result : []
  var entries: list<dict<any>> = []
  for location in found
    if type(location) != v:t_dict || type(get(location, 'uri', 0)) != v:t_string
      continue
    endif
    var path = util.Path(location.uri)
    var start = get(get(location, 'range', {}), 'start', {})
    var number = get(start, 'line', 0) + 1
    var text = LineOf(path, number)
    entries->add({filename: path, lnum: number, col: max([ByteIndex(text, get(start, 'character', 0)), 0]) + 1,
      text: trim(text)})
  endfor
  setqflist([], ' ', {title: 'Backlinks', items: entries})
  if empty(entries)
    util.Show(0, 'No link in the library leads here.')
    cclose
  else
    botright copen
  endif
enddef

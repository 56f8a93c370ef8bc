vim9script
# The binder's sidebar: its buffer and window, drawing the rows the tree
# holds, the cursor, and the breadcrumb in its status line.

import autoload 'carrel/rpc.vim'
import autoload 'carrel/config.vim'
import autoload 'carrel/icons.vim'
import autoload 'carrel/tree.vim'

export const BUFFER_NAME = 'carrel://binder'
export const ONBOARDING = 'No project yet: press P to make one'

var rows: list<dict<any>> = []        # the drawn lines, in order
var binder = -1
var cursor_wanted = ''
var cursor_wanted_since = reltime()
var draw_pending = false

# After a command: the cursor goes to this row once it is drawn.
export def Want(key: string)
  cursor_wanted = key
  cursor_wanted_since = reltime()
enddef

export def Buffer(): number
  return binder
enddef

# The binder window's status line: the breadcrumb of the row under the cursor.
export def Statusline(): string
  var window = get(g:, 'statusline_winid', win_getid())
  var row = get(rows, line('.', window) - 1, {})
  var key = get(row, 'key', get(row, 'library', ''))
  var text = key == '' ? 'Carrel' : tree.Breadcrumb(key)
  return ' ' .. substitute(text, '%', '%%', 'g')
enddef

# The row under the cursor in the binder, or {} elsewhere.
export def Current(): dict<any>
  if bufnr() != binder
    return {}
  endif
  return get(rows, line('.') - 1, {})
enddef

export def Rows(): list<dict<any>>
  return rows
enddef

def Walk(key: string, depth: number, out: list<dict<any>>)
  out->add({key: key, depth: depth})
  var children = tree.Children(key)
  if !tree.IsExpanded(key) || !tree.IsFetched(key)
    return
  endif
  for child in children
    Walk(child, depth + 1, out)
  endfor
  if tree.Node(key).kind == 'library' && children->copy()->filter((_, k) => tree.Node(k).kind == 'project')->empty()
    out->add({key: '', library: key, depth: depth + 1})
  endif
enddef

def Line(row: dict<any>): list<any>
  var indent = repeat('  ', row.depth)
  if row.key == ''
    return [indent .. ONBOARDING, 0]
  endif
  var node = tree.Node(row.key)
  var icon = icons.For(node)
  var text = indent .. (icon == '' ? '' : icon .. ' ') .. get(node, 'title', get(node, 'name', ''))
  var summary = get(node, 'summary', '')
  if summary == ''
    return [text, 0]
  endif
  return [text .. '  ' .. summary, strlen(summary)]
enddef

# Draws soon: messages that arrive together are all applied first.
export def Draw(cursor_key: string = '')
  if cursor_key != ''
    cursor_wanted = cursor_key
    cursor_wanted_since = reltime()
  endif
  if !draw_pending
    draw_pending = true
    timer_start(0, (_) => DrawNow())
  endif
enddef

export def DrawNow()
  draw_pending = false
  if binder < 0 || !bufexists(binder)
    return
  endif
  # A row that has not appeared soon after its command is not waited for,
  # so the cursor never jumps long after.
  if cursor_wanted != '' && reltimefloat(reltime(cursor_wanted_since)) > 3.0
    cursor_wanted = ''
  endif
  var windows = win_findbuf(binder)
  var was = windows->mapnew((_, w) => get(get(rows, line('.', w) - 1, {}), 'key', ''))
  var lines_before = windows->mapnew((_, w) => line('.', w))
  rows = []
  for root in tree.Roots()
    Walk(root, 0, rows)
  endfor
  var drawn = rows->mapnew((_, row) => Line(row))
  var lines = drawn->mapnew((_, d) => d[0])
  if empty(lines)
    lines = [empty(tree.Roots()) ? 'Loading…' : '']
  endif
  setbufvar(binder, '&modifiable', true)
  setbufline(binder, 1, lines)
  silent deletebufline(binder, len(lines) + 1, '$')
  setbufvar(binder, '&modifiable', false)
  setbufvar(binder, '&modified', false)
  prop_clear(1, len(lines), {bufnr: binder})
  for index in range(len(drawn))
    if drawn[index][1] > 0
      prop_add(index + 1, strlen(lines[index]) - drawn[index][1] + 1,
        {length: drawn[index][1], type: 'CarrelSummary', bufnr: binder})
    endif
  endfor
  for i in range(len(windows))
    var target = cursor_wanted != '' ? cursor_wanted : was[i]
    var line = rows->copy()->map((_, row) => row.key)->index(target) + 1
    if line > 0 && target == cursor_wanted
      cursor_wanted = ''
    endif
    if line == 0
      line = min([lines_before[i], len(lines)])
    endif
    win_execute(windows[i], printf('call cursor(%d, 1)', line))
  endfor
enddef

def CreateBuffer()
  if empty(prop_type_get('CarrelSummary'))
    highlight default link CarrelSummary Comment
    prop_type_add('CarrelSummary', {highlight: 'CarrelSummary'})
  endif
  binder = bufadd(BUFFER_NAME)
  # Set before loading, so Vim never looks for a file of that name.
  for [name, value] in items({buftype: 'nofile', bufhidden: 'hide', swapfile: false, buflisted: false})
    setbufvar(binder, '&' .. name, value)
  endfor
  bufload(binder)
  setbufvar(binder, '&modifiable', false)
  setbufvar(binder, '&filetype', 'carrel')
enddef

export def Window(): number
  if binder < 0
    return 0
  endif
  var windows = win_findbuf(binder)->filter((_, w) => win_id2tabwin(w)[0] == tabpagenr())
  return empty(windows) ? 0 : windows[0]
enddef

# Opens the binder at the side (or goes to it), starting the server if needed.
export def Open(): bool
  if !rpc.IsRunning() && !rpc.CanStart()
    return false
  endif
  var window = Window()
  if window != 0
    win_gotoid(window)
    if !rpc.IsRunning()
      return rpc.Start(() => tree.Load())
    endif
    return true
  endif
  if binder < 0 || !bufexists(binder)
    CreateBuffer()
  endif
  var options = config.Get()
  execute (options.side == 'right' ? 'botright' : 'topleft') 'vertical :' .. options.width .. 'split'
  silent execute 'buffer' binder
  for [name, value] in items({number: false, relativenumber: false, wrap: false, spell: false, list: false,
      foldcolumn: 0, cursorline: true, winfixwidth: true})
    setwinvar(0, '&' .. name, value)
  endfor
  setlocal statusline=%!carrel#binder#Statusline()
  if !rpc.IsRunning()
    return rpc.Start(() => tree.Load())
  endif
  if empty(tree.Roots())
    tree.Load()
  else
    DrawNow()
  endif
  return true
enddef

export def Close()
  var window = Window()
  if window == 0
    return
  endif
  if winnr('$') == 1
    vertical new
  endif
  win_execute(window, 'close')
enddef

# Forgets the drawn rows (after the server stops).
export def Reset()
  Close()
  rows = []
enddef

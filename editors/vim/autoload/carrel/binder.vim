vim9script
# The binder's sidebar: its buffer and window, drawing the rows the tree
# holds, the cursor, and the breadcrumb in its status line.

import autoload 'carrel/rpc.vim'
import autoload 'carrel/config.vim'
import autoload 'carrel/icons.vim'
import autoload 'carrel/tree.vim'

export const BUFFER_NAME = 'carrel://binder'
export const ONBOARDING = 'No project yet: press P to make one'
# Where the long one does not fit.
export const ONBOARDING_SHORT = 'Press P for a new project'

var rows: list<dict<any>> = []        # the drawn lines, in order
var drawn: list<string> = []          # their text, as in the buffer
var dimmed: list<number> = []         # the length of each one's dimmed summary
var drawn_keys: list<string> = []     # the identity of each drawn line
var binder = -1
var cursor_wanted = ''
var cursor_wanted_since = reltime()
var draw_pending = false
var drawn_at = reltime()
var lines_composed = 0                # rows composed since the binder started
# Each drawn row's line, with what it was composed from: [node, depth,
# icon column, width, text, summary length]. A row whose node, depth and
# columns are the same is not composed again: a change in a folder of
# thousands composes the few rows it alters.
var composed: dict<list<any>> = {}

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
  # The onboarding line has no key of its own: it reads as its library.
  var key = get(row, 'key', '') != '' ? row.key : get(row, 'library', '')
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

# How many rows have been composed into text so far: a drawing composes
# only the rows that changed since the last.
export def LinesComposed(): number
  return lines_composed
enddef

# A row's text in `width` columns: a summary that does not fit goes whole
# rather than cut, and the onboarding line takes its short form.
def Line(row: dict<any>, column: number, width: number): list<any>
  lines_composed += 1
  var indent = repeat('  ', row.depth)
  if row.key == ''
    var long = indent .. ONBOARDING
    return [strdisplaywidth(long) <= width ? long : indent .. ONBOARDING_SHORT, 0]
  endif
  var node = tree.Node(row.key)
  var icon = icons.Of(node, column)
  var text = indent .. (icon == '' ? '' : icon .. ' ') .. get(node, 'title', get(node, 'name', ''))
  var summary = get(node, 'summary', '')
  if summary == '' || strdisplaywidth(text .. '  ' .. summary) > width
    return [text, 0]
  endif
  return [text .. '  ' .. summary, strlen(summary)]
enddef

# The columns a row may take: the binder window's, or where it is hidden,
# the width it will open at.
def Width(): number
  var window = Window()
  return window != 0 ? winwidth(window) : config.Get().width
enddef

# Draws soon: messages that arrive together are all applied first.
export def Draw(cursor_key: string = '')
  if cursor_key != ''
    cursor_wanted = cursor_key
    cursor_wanted_since = reltime()
  endif
  if !draw_pending
    draw_pending = true
    # While the server's work is queued, the queue draws, as a piece of
    # its own (tree.vim).
    if !tree.Busy()
      timer_start(0, (_) => DrawNow())
    endif
  endif
enddef

# A draw is asked for and not made yet.
export def DrawPending(): bool
  return draw_pending
enddef

# Milliseconds since the last draw.
export def SinceDrawn(): float
  return reltimefloat(reltime(drawn_at)) * 1000.0
enddef

export def DrawNow()
  draw_pending = false
  drawn_at = reltime()
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
  var rows_before = rows
  rows = tree.Shown()
  var column = icons.Column()
  var width = Width()
  var lines: list<string> = []
  var marks: list<number> = []
  var keys: list<string> = []
  var now_composed: dict<list<any>> = {}
  for row in rows
    # The row's line as composed for the last drawing, unless what it
    # shows changed since: the server's updates replace a row's node, never
    # change it in place, so the same node is the same text.
    var node = tree.Node(row.key)
    var line = row.key == '' ? [] : get(composed, row.key, [])
    if empty(line) || line[0] isnot node || line[1] != row.depth || line[2] != column || line[3] != width
      var [text, mark] = Line(row, column, width)
      line = [node, row.depth, column, width, text, mark]
    endif
    if row.key != ''
      now_composed[row.key] = line
    endif
    lines->add(line[4])
    marks->add(line[5])
    keys->add(row.key != '' ? row.key : 'note ' .. row.library)
  endfor
  composed = now_composed
  if empty(lines)
    lines = [empty(tree.Roots()) ? 'Loading…' : '']
    marks = [0]
    keys = ['']
  endif
  Patch(keys, lines, marks)
  for i in range(len(windows))
    var line = cursor_wanted == '' ? 0 : index(keys, cursor_wanted) + 1
    if line > 0
      cursor_wanted = ''
    else
      # Until the row a command answered shows, the cursor keeps its own.
      line = was[i] == '' ? 0 : index(keys, was[i]) + 1
    endif
    if line == 0 && was[i] != ''
      line = Follower(rows_before, lines_before[i], keys)
    endif
    if line == 0
      line = min([lines_before[i], len(lines)])
    endif
    win_execute(windows[i], printf('call cursor(%d, 1)', line))
  endfor
enddef

# The cursor's row went away (deleted, moved, or no longer listed): the line
# of the row that followed it before and is still drawn, else of the one
# before it, so that d pressed again deletes the next one even when a row
# above went too (the same file listed under an open "All"). 0 for none.
def Follower(rows_before: list<dict<any>>, line_before: number, keys: list<string>): number
  for at in range(line_before, len(rows_before) - 1) + range(line_before - 2, 0, -1)
    var key = get(rows_before[at], 'key', '')
    var line = key == '' ? 0 : index(keys, key) + 1
    if line > 0
      return line
    endif
  endfor
  return 0
enddef

# Changes only the lines that differ from the last drawing, row by row: a
# new file in a folder of thousands inserts one line, and a burst of them
# does not set the rows around again. Only the stretch between the rows
# alike at the top and at the bottom (the same keys, whatever their text)
# is weighed for rows added and removed, so that one new row costs no table
# of a thousand keys. Rows that changed their order are all drawn again.
def Patch(keys: list<string>, lines: list<string>, marks: list<number>)
  var top = 0
  var old_end = len(drawn_keys)
  var new_end = len(keys)
  var whole = getbufinfo(binder)[0].linecount != len(drawn) || len(drawn_keys) != len(drawn)
  if !whole
    while top < old_end && top < new_end && drawn_keys[top] == keys[top]
      top += 1
    endwhile
    while old_end > top && new_end > top && drawn_keys[old_end - 1] == keys[new_end - 1]
      old_end -= 1
      new_end -= 1
    endwhile
  endif
  var old_keys = drawn_keys->slice(top, old_end)
  var new_keys = keys->slice(top, new_end)
  var old_set: dict<bool> = {}
  var new_set: dict<bool> = {}
  for key in old_keys
    old_set[key] = true
  endfor
  for key in new_keys
    new_set[key] = true
  endfor
  var kept = old_keys->copy()->filter((_, k) => has_key(new_set, k))
  setbufvar(binder, '&modifiable', true)
  # Keys are unique, so none kept in the stretch is among the lines alike;
  # with no old line kept at all, the buffer is drawn whole.
  if whole || (empty(kept) && top == 0 && old_end == len(drawn_keys))
      || kept != new_keys->copy()->filter((_, k) => has_key(old_set, k))
    setbufline(binder, 1, lines)
    silent deletebufline(binder, len(lines) + 1, '$')
    prop_clear(1, len(lines), {bufnr: binder})
    for index in range(len(lines))
      Dim(index + 1, lines[index], marks[index])
    endfor
  else
    # The rows alike above and below are walked too, for their text: a new
    # file changes its folders' counts.
    var o = 0
    var n = 0
    var lnum = 1
    while o < len(drawn_keys) || n < len(keys)
      if o < len(drawn_keys) && n < len(keys) && drawn_keys[o] == keys[n]
        if drawn[o] != lines[n] || dimmed[o] != marks[n]
          setbufline(binder, lnum, lines[n])
          prop_clear(lnum, lnum, {bufnr: binder})
          Dim(lnum, lines[n], marks[n])
        endif
        o += 1
        n += 1
        lnum += 1
      elseif o < old_end && !has_key(new_set, drawn_keys[o])
        var gone = 0
        while o < old_end && !has_key(new_set, drawn_keys[o])
          gone += 1
          o += 1
        endwhile
        silent deletebufline(binder, lnum, lnum + gone - 1)
      else
        var first = n
        while n < new_end && !has_key(old_set, keys[n])
          n += 1
        endwhile
        appendbufline(binder, lnum - 1, lines[first : n - 1])
        for index in range(first, n - 1)
          Dim(lnum, lines[index], marks[index])
          lnum += 1
        endfor
      endif
    endwhile
  endif
  setbufvar(binder, '&modifiable', false)
  setbufvar(binder, '&modified', false)
  drawn_keys = keys
  drawn = lines
  dimmed = marks
enddef

# Whether the drawn lines can be patched row by row: they are drawn, no
# whole drawing is on its way, and no cursor waits for a row to show.
export def CanPatch(): bool
  return !draw_pending && binder >= 0 && bufexists(binder) && cursor_wanted == '' && !empty(rows)
    && len(drawn_keys) == len(rows) && len(drawn) == len(rows)
enddef

# Patches the drawn lines for a change the tree applied, with no walk of the
# rows shown: `gone` rows leave with the rows shown inside them, `placed`
# rows (in their listings' order, each in its listing already, with the row
# before it there) are inserted where their listing is shown, and `changed`
# rows are composed again. Every step keeps the drawn lines and the buffer
# alike, so whatever it cannot patch is left to a whole drawing.
export def PatchRows(gone: list<string>, placed: list<list<string>>, changed: list<string>)
  setbufvar(binder, '&modifiable', true)
  var whole = false
  var column = icons.Column()
  var width = Width()
  try
    for key in gone
      RemoveRow(key)
    endfor
    for [key, before] in placed
      if !PlaceRow(key, before, column, width)
        whole = true
        break
      endif
    endfor
    if !whole
      for key in changed
        ComposeAgain(key, column, width)
      endfor
    endif
  finally
    setbufvar(binder, '&modifiable', false)
    setbufvar(binder, '&modified', false)
  endtry
  if whole
    Draw()
  endif
enddef

# The index of the drawn row just past `at` and every row shown inside it.
def PastShownInside(at: number): number
  var depth = rows[at].depth
  var past = at + 1
  while past < len(rows) && rows[past].depth > depth
    past += 1
  endwhile
  return past
enddef

# Deletes the drawn row `key` with the rows shown inside it. A cursor on one
# of them goes to the row that followed, else to the one before.
def RemoveRow(key: string)
  var at = index(drawn_keys, key)
  if at < 0
    return
  endif
  var past = PastShownInside(at)
  var windows = win_findbuf(binder)->filter((_, w) => line('.', w) > at && line('.', w) <= past)
  for removed in drawn_keys[at : past - 1]
    if has_key(composed, removed)
      remove(composed, removed)
    endif
  endfor
  silent deletebufline(binder, at + 1, past)
  for list in [rows, drawn, dimmed, drawn_keys]
    remove(list, at, past - 1)
  endfor
  var line = min([at + 1, len(rows)])
  for window in windows
    win_execute(window, printf('call cursor(%d, 1)', line))
  endfor
enddef

# Inserts the row `key` just after `before`, the row before it in its
# listing ('' for none), when its listing is shown (moving it there if it was
# drawn elsewhere). False when that cannot be said from the drawn rows alone.
def PlaceRow(key: string, before: string, column: number, width: number): bool
  var at = index(drawn_keys, key)
  # A cursor on a row that moves in its listing goes with it.
  var following: list<number> = []
  if at >= 0
    if PastShownInside(at) != at + 1
      return false
    endif
    following = win_findbuf(binder)->filter((_, w) => line('.', w) == at + 1)
    RemoveRow(key)
  endif
  var parent = tree.Parent(key)
  var parent_at = index(drawn_keys, parent)
  if parent_at < 0 || !tree.IsExpanded(parent)
    return true
  endif
  # A folder that opens where it lands shows rows of its own.
  if tree.IsExpanded(key) && !empty(tree.Children(key))
    return false
  endif
  var before_at = parent_at
  if before != ''
    before_at = index(drawn_keys, before)
    if before_at < 0
      return false
    endif
    before_at = PastShownInside(before_at) - 1
  endif
  var row = {key: key, depth: rows[parent_at].depth + 1}
  var [text, mark] = Composed(row, column, width)
  appendbufline(binder, before_at + 1, text)
  Dim(before_at + 2, text, mark)
  rows->insert(row, before_at + 1)
  drawn->insert(text, before_at + 1)
  dimmed->insert(mark, before_at + 1)
  drawn_keys->insert(key, before_at + 1)
  for window in following
    win_execute(window, printf('call cursor(%d, 1)', before_at + 2))
  endfor
  return true
enddef

# The row's line, composed again only if what it shows changed since.
def Composed(row: dict<any>, column: number, width: number): list<any>
  var node = tree.Node(row.key)
  var line = get(composed, row.key, [])
  if empty(line) || line[0] isnot node || line[1] != row.depth || line[2] != column || line[3] != width
    var [text, mark] = Line(row, column, width)
    line = [node, row.depth, column, width, text, mark]
    composed[row.key] = line
  endif
  return [line[4], line[5]]
enddef

# Writes the drawn row `key` again if its text changed.
def ComposeAgain(key: string, column: number, width: number)
  var at = index(drawn_keys, key)
  if at < 0
    return
  endif
  var [text, mark] = Composed(rows[at], column, width)
  if drawn[at] != text || dimmed[at] != mark
    setbufline(binder, at + 1, text)
    prop_clear(at + 1, at + 1, {bufnr: binder})
    Dim(at + 1, text, mark)
    drawn[at] = text
    dimmed[at] = mark
  endif
enddef

# Dims the summary that ends the line `lnum`, `length` bytes long.
def Dim(lnum: number, text: string, length: number)
  if length > 0
    prop_add(lnum, strlen(text) - length + 1, {length: length, type: 'CarrelSummary', bufnr: binder})
  endif
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
  drawn = getbufline(binder, 1, '$')
  dimmed = repeat([-1], len(drawn))
  drawn_keys = []
  setbufvar(binder, '&modifiable', false)
  setbufvar(binder, '&filetype', 'carrel')
enddef

# What fits a row depends on the binder's width: drawn again when it changes.
def Resized()
  var window = Window()
  if window != 0 && index(get(v:event, 'windows', [window]), window) >= 0
    Draw()
  endif
enddef

augroup CarrelBinderWidth
  autocmd!
  autocmd WinResized * Resized()
  autocmd VimResized * Resized()
augroup END

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
      return rpc.Start(() => tree.Load(), true)
    endif
    return true
  endif
  Prepare()
  var options = config.Get()
  execute (options.side == 'right' ? 'botright' : 'topleft') 'vertical :' .. options.width .. 'split'
  silent execute 'buffer' binder
  for [name, value] in items({number: false, relativenumber: false, wrap: false, spell: false, list: false,
      foldcolumn: 0, cursorline: true, winfixwidth: true})
    setwinvar(0, '&' .. name, value)
  endfor
  setlocal statusline=%!carrel#binder#Statusline()
  if !rpc.IsRunning()
    return rpc.Start(() => tree.Load(), true)
  endif
  # Preloaded: the rows are drawn already, or on their way.
  if !empty(tree.Roots())
    DrawNow()
  elseif !tree.IsLoading()
    tree.Load()
  endif
  return true
enddef

# The binder's buffer, made if need be, in no window: the rows are drawn
# into it while it is hidden, as they are while it is shown.
export def Prepare()
  if binder < 0 || !bufexists(binder)
    CreateBuffer()
  endif
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
  cursor_wanted = ''
  # A draw the server's queue was to make went with the queue.
  draw_pending = false
enddef

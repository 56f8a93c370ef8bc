vim9script
# Open buffers follow their files: a move renames them (into the Trash too,
# so a save never brings the old path back); a file gone from disk closes its
# buffer unless it holds unsaved text.

import autoload 'carrel/util.vim'

# Listed buffers that were never loaded count too (`vim One.md Two.md`
# lists Two.md unread): left at the old path, visiting one later and writing
# would bring the file back beside the moved one.
def FileBuffers(): list<number>
  return getbufinfo()
    ->filter((_, b) => (b.loaded || b.listed) && b.name != '' && getbufvar(b.bufnr, '&buftype') == '')
    ->mapnew((_, b) => b.bufnr)
enddef

def FullName(buffer: number): string
  return fnamemodify(bufname(buffer), ':p')
enddef

# Gives `buffer` a new name, keeping its text, undo and modified state.
export def Rename(buffer: number, path: string)
  var old = FullName(buffer)
  if old == path
    return
  endif
  # A buffer never loaded holds no text: one listed at the new path replaces
  # it, as a renamed one would stay "not edited" and refuse its first :write.
  if !bufloaded(buffer)
    execute 'silent! bwipeout' buffer
    setbufvar(bufadd(path), '&buflisted', true)
    return
  endif
  var window = win_getid()
  var shown = win_findbuf(buffer)
  var hidden = &hidden
  set hidden
  var previous = bufnr()
  if !empty(shown)
    win_gotoid(shown[0])
  else
    execute 'noautocmd keepalt keepjumps buffer' buffer
  endif
  try
    execute 'silent keepalt file' fnameescape(path)
    # A renamed buffer is "not edited", and its next :write would refuse
    # because the file exists (the server moved it there). A write that a
    # do-nothing BufWriteCmd takes clears that without touching the disk.
    augroup CarrelFollow
      autocmd! BufWriteCmd <buffer> :
    augroup END
    silent! keepalt write!
    autocmd! CarrelFollow
  finally
    if empty(shown)
      execute 'noautocmd keepalt keepjumps buffer' previous
    endif
    win_gotoid(window)
    &hidden = hidden
  endtry
  # :file leaves an unloaded buffer behind under the old name.
  var leftover = bufnr('^' .. escape(old, '\^$.*[]~') .. '$')
  if leftover > 0 && leftover != buffer && !bufloaded(leftover)
    execute 'silent! bwipeout' leftover
  endif
enddef

# Buffer → the popup telling that its file is gone, while it shows.
var notices: dict<number> = {}

# Says that `buffer`'s file is gone in a popup that stays until the buffer
# is written or wiped, or the writer clicks it: a message alone is replaced
# by the next one, and the writer may never see it.
def Notice(buffer: number, text: string)
  if has_key(notices, buffer)
    popup_close(notices[buffer])
  endif
  notices[buffer] = popup_create(text, {line: 1, col: 10, minwidth: 20, maxwidth: max([&columns - 20, 20]),
    highlight: 'WarningMsg', border: [], padding: [0, 1, 0, 1], close: 'click', zindex: 300, tabpage: -1,
    callback: (popup, _) => {
      if get(notices, buffer, 0) == popup
        remove(notices, buffer)
      endif
    }})
  execute printf('autocmd BufWritePost,BufWipeout <buffer=%d> ++once carrel#follow#DropNotice(%d)', buffer, buffer)
enddef

export def DropNotice(buffer: number)
  if has_key(notices, buffer)
    popup_close(notices[buffer])
  endif
enddef

# The popup telling that `buffer`'s file is gone, or 0.
export def NoticeOf(buffer: number): number
  return get(notices, buffer, 0)
enddef

def Gone(buffer: number)
  var name = fnamemodify(bufname(buffer), ':t')
  if getbufvar(buffer, '&modified')
    var text = printf('“%s” no longer exists on disk; its unsaved changes stay in its buffer. '
      .. 'Write it with :w or :saveas, or drop it with :bwipeout!.', name)
    util.Show(2, text)
    Notice(buffer, text)
    return
  endif
  for window in win_findbuf(buffer)
    win_execute(window, 'enew')
  endfor
  execute 'silent! bwipeout' buffer
enddef

export def Apply(changes: list<any>)
  for change in changes
    if change.type == 'moved' && has_key(change, 'oldUri')
      var old = util.Path(change.oldUri)
      var new = util.Path(change.uri)
      for buffer in FileBuffers()
        var name = FullName(buffer)
        if util.IsAtOrUnder(name, old)
          Rename(buffer, new .. strpart(name, strlen(old)))
        endif
      endfor
    elseif change.type == 'deleted'
      var gone = util.Path(change.uri)
      for buffer in FileBuffers()
        if util.IsAtOrUnder(FullName(buffer), gone)
          Gone(buffer)
        endif
      endfor
    endif
  endfor
enddef

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

def Gone(buffer: number)
  var name = fnamemodify(bufname(buffer), ':t')
  if getbufvar(buffer, '&modified')
    util.Show(2, printf('“%s” no longer exists on disk; its unsaved changes stay in its buffer. '
      .. 'Write it with :w or :saveas, or drop it with :bwipeout!.', name))
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

vim9script
# The editor's side of snapshots: a snapshot beside its file in Vim's own
# diff, and a file's buffer reloaded after the server rewrote it.

import autoload 'carrel/documents.vim'

# A new tab: the snapshot on the left, read-only, the file on the right,
# both in diff mode.
export def Open(snapshot: string, file: string)
  execute 'tabnew' fnameescape(snapshot)
  # A snapshot is written once and never changed: editing it could only lose work.
  setlocal nomodifiable readonly bufhidden=wipe noswapfile
  diffthis
  execute 'rightbelow vertical split' fnameescape(file)
  diffthis
enddef

# Reads `path` again where it is open without unsaved changes, without the
# question Vim asks about a file changed outside it; a buffer with changes
# is left alone (the server refused to roll it back anyway). The server
# holds the buffer's text, and is sent the text read back at once: until
# then it would count the old text as unsaved, and refuse the next roll back.
export def Reload(path: string)
  var buffer = bufnr(path)
  if buffer < 0 || !bufloaded(buffer) || getbufvar(buffer, '&modified')
    return
  endif
  var autoread = getbufvar(buffer, '&autoread')
  setbufvar(buffer, '&autoread', 1)
  try
    execute 'checktime' buffer
  finally
    setbufvar(buffer, '&autoread', autoread)
  endtry
  documents.Sync()
enddef

vim9script
# URIs and paths, and how messages reach the writer.

# The path a file: URI names; percent escapes decode to raw bytes, so names
# that are not UTF-8 survive.
export def Path(uri: string): string
  var rest = substitute(uri, '^file://', '', '')
  return substitute(rest, '%\(\x\x\)', (m) => eval('"\x' .. m[1] .. '"'), 'g')
enddef

# The file: URI of an absolute path, escaped as the server escapes it.
export def Uri(path: string): string
  return 'file://' .. substitute(path, '[^A-Za-z0-9/._~-]', (m) => EscapeBytes(m[0]), 'g')
enddef

def EscapeBytes(text: string): string
  return range(strlen(text))->mapnew((_, i) => printf('%%%02X', char2nr(strpart(text, i, 1))))->join('')
enddef

# The URI of the folder holding `uri`.
export def Dirname(uri: string): string
  return substitute(uri, '/[^/]*$', '', '')
enddef

# Whether `path` is `root` or lies below it.
export def IsAtOrUnder(path: string, root: string): bool
  return path == root || strpart(path, 0, strlen(root) + 1) == root .. '/'
enddef

# Shows a message as Vim shows messages: 1 error, 2 warning, else plain.
export def Show(type: number, text: string)
  if type == 1
    echohl ErrorMsg
  elseif type == 2
    echohl WarningMsg
  endif
  for line in split(text, "\n")
    echomsg line
  endfor
  echohl None
enddef

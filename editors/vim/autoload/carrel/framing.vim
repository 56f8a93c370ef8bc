vim9script
# The LSP base protocol's framing, read and written here rather than by
# Vim's 'lsp' channel mode: Vim gives a message whose end has not come 100 ms
# after its start up for lost, and drops it with what follows, which loses
# a reply or a row whenever the machine is loaded. Here a message waits for
# its last byte, however long it takes.

var head = ''                   # bytes read and not yet handled, from `at` on
var at = 0
var tail: list<string> = []     # what came after `head`, while a long body comes in
var tail_bytes = 0
var body_bytes = -1             # the body's length, once its header is read

# Forgets what was read (a new server).
export def Reset()
  head = ''
  at = 0
  tail = []
  tail_bytes = 0
  body_bytes = -1
enddef

# One message, framed.
export def Frame(message: dict<any>): string
  var body = json_encode(message)
  return 'Content-Length: ' .. strlen(body) .. "\r\n\r\n" .. body
enddef

# Takes what the server wrote next; returns the messages it completes, in
# order. A body that is not JSON is skipped, and the next message read.
export def Read(text: string): list<dict<any>>
  if at >= strlen(head) && empty(tail)
    head = text
    at = 0
  else
    # A reply of megabytes comes in thousands of pieces: they are joined
    # once, when the last is in, not each time one comes.
    tail->add(text)
    tail_bytes += strlen(text)
  endif
  var messages: list<dict<any>> = []
  while true
    var body = NextBody()
    if type(body) != v:t_string
      break
    endif
    var message: any = v:none
    try
      message = json_decode(body)
    catch
    endtry
    if type(message) == v:t_dict
      messages->add(message)
    endif
  endwhile
  return messages
enddef

# The next whole body read, or v:none while it is still coming.
def NextBody(): any
  if body_bytes < 0
    var end = stridx(head, "\r\n\r\n", at)
    while end < 0 && !empty(tail)
      var next = remove(tail, 0)
      tail_bytes -= strlen(next)
      head = strpart(head, at) .. next
      at = 0
      end = stridx(head, "\r\n\r\n")
    endwhile
    if end < 0
      return v:none
    endif
    var length = matchstr(strpart(head, at, end - at), '\c\%(^\|\n\)content-length:\s*\zs\d\+')
    at = end + 4
    # The server always says its length; a header without one frames nothing.
    body_bytes = length == '' ? 0 : str2nr(length)
  endif
  if strlen(head) - at + tail_bytes < body_bytes
    return v:none
  endif
  if strlen(head) - at < body_bytes
    head = strpart(head, at) .. join(tail, '')
    tail = []
    tail_bytes = 0
    at = 0
  endif
  var body = strpart(head, at, body_bytes)
  at += body_bytes
  body_bytes = -1
  if at >= strlen(head)
    head = join(tail, '')
    tail = []
    tail_bytes = 0
    at = 0
  endif
  return body
enddef

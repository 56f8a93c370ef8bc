vim9script
# Links in the writer's buffers: the server holds the library's Markdown and
# Fountain buffers, a rename in the binder updates their links unsaved, and
# :Carrel definition, backlinks and brokenlinks work there.
import './harness.vim' as h
import autoload 'carrel/links.vim'

const SCENE = 'She met [Ada](../Characters/Ada.md) at the ball.'

# A novel with a character and a scene linking to her, its binder open.
def Novel(): string
  var root = h.Library({'Winter/.carrel/project.json': '{"type":"novel","version":1}',
    'Winter/Characters/Ada.md': "# Ada\nA mathematician.", 'Winter/Novel/One.md': SCENE})
  h.Open(root)
  return root
enddef

# The messages with `method` sent to this test's server, from its initialize on.
def Sent(method: string): list<string>
  var lines = h.Traffic()
  var start = 0
  for i in range(len(lines))
    if lines[i] =~ '^→ .*"method":"initialize"'
      start = i
    endif
  endfor
  return lines[start :]->filter((_, l) => l =~ '^→ .*"method":"' .. method .. '"')
enddef

h.Run('a rename in the binder updates the link in an open scene, keeping its unsaved text and writing nothing', () => {
  var root = Novel()
  var scene = root .. '/Winter/Novel/One.md'
  wincmd p
  execute 'edit' fnameescape(scene)
  var buffer = bufnr()
  append(1, 'Words not saved yet.')
  h.Press('= Characters', 'zo')
  h.Press('. Ada.md', "r\<C-U>Ada Lovelace\<CR>")
  h.Choose('Update Links')
  h.Wait(() => getbufline(buffer, 1)[0] =~ 'Ada%20Lovelace', 'the link to follow')
  assert_equal(['She met [Ada](../Characters/Ada%20Lovelace.md) at the ball.', 'Words not saved yet.'],
    getbufline(buffer, 1, '$'))
  assert_true(getbufvar(buffer, '&modified'))
  assert_equal([SCENE], readfile(scene))
  assert_false(filereadable(root .. '/Winter/Characters/Ada.md'))
  h.Wait(() => h.Messages() =~ 'Updated 1 link in 1 file.', 'the report')
  assert_equal(1, Sent('textDocument/didOpen')->len())
  # One undo step takes the link back; the writer's own edit stays.
  win_gotoid(win_findbuf(buffer)[0])
  silent undo
  assert_equal([SCENE, 'Words not saved yet.'], getline(1, '$'))
})

h.Run('definition goes to the character, backlinks fill the quickfix list, broken links get signs', () => {
  var root = Novel()
  var scene = root .. '/Winter/Novel/One.md'
  var ada = root .. '/Winter/Characters/Ada.md'
  wincmd p
  execute 'edit' fnameescape(scene)
  var buffer = bufnr()
  cursor(1, 11)
  Carrel definition
  assert_equal(ada, expand('%:p'))
  Carrel backlinks
  assert_equal([[scene, 1]], getqflist()->mapnew((_, i) => [fnamemodify(bufname(i.bufnr), ':p'), i.lnum]))
  wincmd p
  execute 'buffer' buffer
  append(1, 'And [[Nobody]] came.')
  # As Vim does after a change in Normal mode.
  doautocmd <nomodeline> TextChanged
  h.Wait(() => sign_getplaced(buffer, {group: 'carrel'})[0].signs->len() == 1, 'a sign for the broken link')
  assert_equal(2, sign_getplaced(buffer, {group: 'carrel'})[0].signs[0].lnum)
  h.Wait(() => h.Messages() =~ 'One.md:2: Nothing in the library is called “Nobody”.', 'the message')
  Carrel brokenlinks
  assert_equal([[2, 7]], getloclist(win_findbuf(buffer)[0])->mapnew((_, i) => [i.lnum, i.col]))
  assert_equal([SCENE], readfile(scene))
})

h.Run('a buffer outside the libraries, or not Markdown or Fountain, is not sent; a closed one is closed', () => {
  var root = Novel()
  h.Write(root .. '/Winter/Novel/notes.txt', 'plain')
  var outside = resolve($CARREL_TEST_SCRATCH) .. '/Elsewhere.md'
  h.Write(outside, 'elsewhere')
  wincmd p
  execute 'edit' fnameescape(root .. '/Winter/Novel/notes.txt')
  execute 'edit' fnameescape(outside)
  execute 'edit' fnameescape(root .. '/Winter/Novel/One.md')
  h.Idle()
  assert_equal(1, Sent('textDocument/didOpen')->len())
  assert_match('Novel/One.md', Sent('textDocument/didOpen')[0])
  execute 'bwipeout' bufnr(root .. '/Winter/Novel/One.md')
  h.Wait(() => Sent('textDocument/didClose')->len() == 1, 'the didClose')
})

h.Run('an edit the buffer cannot take changes nothing and says why', () => {
  var root = Novel()
  var scene = root .. '/Winter/Novel/One.md'
  var ada = root .. '/Winter/Characters/Ada.md'
  wincmd p
  execute 'edit' fnameescape(scene)
  var Edit = (line: number, character: number) => ({range: {start: {line: 0, character: 0},
    end: {line: line, character: character}}, newText: 'X'})
  var uri = 'file://' .. scene
  var answer = links.ApplyEdit({edit: {changes: {[uri]: [Edit(0, 3)], ['file://' .. ada]: [Edit(0, 1)]}}})
  assert_equal({applied: false, failureReason: '“Ada.md” is not open in Vim.'}, answer)
  assert_equal([SCENE], getline(1, '$'))
  assert_false(bufloaded(ada))
  answer = links.ApplyEdit({edit: {changes: {[uri]: [Edit(0, 200)]}}})
  assert_false(answer.applied)
  assert_equal([SCENE], getline(1, '$'))
  assert_false(&modified)
  answer = links.ApplyEdit({edit: {changes: {[uri]: [Edit(0, 3)]}}})
  assert_equal({applied: true}, answer)
  assert_equal(['X' .. SCENE[3 :]], getline(1, '$'))
  assert_equal([SCENE], readfile(scene))
})

h.Run('a buffer that follows its renamed file is closed under the old URI and opened under the new one', () => {
  var root = Novel()
  var ada = root .. '/Winter/Characters/Ada.md'
  wincmd p
  execute 'edit' fnameescape(ada)
  var buffer = bufnr()
  append(1, 'Born in London.')
  h.Press('= Characters', 'zo')
  h.Press('. Ada.md', "r\<C-U>Ada Lovelace\<CR>")
  h.Choose("Don't Update")
  var renamed = root .. '/Winter/Characters/Ada Lovelace.md'
  h.Wait(() => bufname(buffer) == renamed, 'the buffer to follow')
  h.Wait(() => Sent('textDocument/didOpen')->len() == 2, 'the buffer opened again')
  var opened = json_decode(substitute(Sent('textDocument/didOpen')[1], '^→ ', '', '')).params.textDocument
  assert_equal(['file://' .. renamed->substitute(' ', '%20', 'g'), "# Ada\nBorn in London.\nA mathematician.\n"],
    [opened.uri, opened.text])
  var closed = Sent('textDocument/didClose')
  assert_equal(1, len(closed))
  assert_match('"file://' .. ada .. '"', closed[0])
  assert_true(getbufvar(buffer, '&modified'))
})

h.Run('a hidden buffer''s link is updated too, from the binder''s window, and the binder stays', () => {
  var root = Novel()
  var scene = root .. '/Winter/Novel/One.md'
  wincmd p
  execute 'edit' fnameescape(scene)
  var buffer = bufnr()
  append(0, 'Words not saved yet.')
  set hidden
  enew
  assert_equal([], win_findbuf(buffer))
  h.Press('= Characters', 'zo')
  var binder_window = win_getid()
  h.Press('. Ada.md', "r\<C-U>Ada Lovelace\<CR>")
  h.Choose('Update Links')
  h.Wait(() => getbufline(buffer, 2)[0] =~ 'Ada%20Lovelace', 'the link to follow')
  assert_equal(['Words not saved yet.', 'She met [Ada](../Characters/Ada%20Lovelace.md) at the ball.'],
    getbufline(buffer, 1, '$'))
  assert_true(getbufvar(buffer, '&modified'))
  assert_equal([SCENE], readfile(scene))
  assert_equal([], win_findbuf(buffer))
  assert_equal(binder_window, win_getid())
  h.WaitLine('. Ada Lovelace.md')
  set nohidden
})

h.Run(':Carrel definition starts the server, without the binder, in a library that holds a project', () => {
  var root = h.Library({'Winter/.carrel/project.json': '{"type":"novel","version":1}',
    'Winter/Characters/Ada.md': "# Ada", 'Winter/Novel/One.md': SCENE})
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
  execute 'edit' fnameescape(root .. '/Winter/Novel/One.md')
  cursor(1, 11)
  Carrel definition
  assert_equal(root .. '/Winter/Characters/Ada.md', expand('%:p'))
  assert_equal(1, winnr('$'))
})

h.Done()

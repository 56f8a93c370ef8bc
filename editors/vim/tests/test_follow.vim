vim9script
# Open buffers follow their files: moves (by the binder or another program),
# into the Trash, and away from disk.
import './harness.vim' as h

def Poems(): string
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
  h.Open(root)
  return root
enddef

# Opens the file with unsaved text in it.
def EditUnsaved(path: string)
  wincmd p
  execute 'edit' fnameescape(path)
  setline(1, 'unsaved words')
enddef

h.Run('an unsaved buffer follows an outside mv, keeps its text and saves at the new place', () => {
  var root = Poems()
  EditUnsaved(root .. '/My Poems/Draft/Morning.md')
  var buffer = bufnr()
  rename(root .. '/My Poems/Draft/Morning.md', root .. '/My Poems/Ready/Morning.md')
  h.Wait(() => bufname(buffer) == root .. '/My Poems/Ready/Morning.md', 'the buffer to follow')
  assert_equal(['unsaved words'], getbufline(buffer, 1, '$'))
  assert_true(getbufvar(buffer, '&modified'))
  assert_equal(buffer, bufnr())
  write
  assert_equal(['unsaved words'], readfile(root .. '/My Poems/Ready/Morning.md'))
  assert_false(filereadable(root .. '/My Poems/Draft/Morning.md'))
})

h.Run('a listed buffer never loaded follows too, and one of a file gone from disk goes', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Unread.md': 'on disk',
    'My Poems/Draft/Gone.md': 'gone'}))
  h.Open(root)
  var poem = root .. '/My Poems/Draft/Unread.md'
  var gone = root .. '/My Poems/Draft/Gone.md'
  # As `vim One.md Two.md` lists the second file without reading it.
  execute 'badd' fnameescape(poem)
  execute 'badd' fnameescape(gone)
  var gone_buffer = bufnr(gone)
  assert_false(bufloaded(bufnr(poem)))
  rename(poem, root .. '/My Poems/Trash/Unread.md')
  var trashed = root .. '/My Poems/Trash/Unread.md'
  h.Wait(() => bufnr(trashed) > 0, 'the unloaded buffer to follow')
  assert_equal(-1, bufnr(poem))
  assert_true(buflisted(bufnr(trashed)))
  wincmd p
  execute 'buffer' bufnr(trashed)
  assert_equal(['on disk'], getline(1, '$'))
  silent write
  assert_false(filereadable(poem))
  delete(gone)
  h.Wait(() => !buflisted(gone_buffer), 'the unloaded buffer of a deleted file to go')
})

h.Run('names with accents, spaces and # follow too', () => {
  var root = h.Library(h.Poetry('Mes poèmes')->extend({'Mes poèmes/Draft/Été #1.md': 'été'}))
  h.Open(root)
  EditUnsaved(root .. '/Mes poèmes/Draft/Été #1.md')
  var buffer = bufnr()
  rename(root .. '/Mes poèmes/Draft/Été #1.md', root .. '/Mes poèmes/Ready/Été #1.md')
  h.Wait(() => fnamemodify(bufname(buffer), ':p') == root .. '/Mes poèmes/Ready/Été #1.md', 'the buffer to follow')
  feedkeys(":Carrel rename\<CR>\<C-U>Automne\<CR>", 'xt')
  h.Wait(() => filereadable(root .. '/Mes poèmes/Ready/Automne.md'), 'the rename of the current file')
  h.Wait(() => fnamemodify(bufname(buffer), ':p') == root .. '/Mes poèmes/Ready/Automne.md', 'the buffer again')
  assert_true(getbufvar(buffer, '&modified'))
})

h.Run('a buffer follows a folder moved by another program', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Sea/Tide.md': 'tide'}))
  h.Open(root)
  EditUnsaved(root .. '/My Poems/Draft/Sea/Tide.md')
  rename(root .. '/My Poems/Draft/Sea', root .. '/My Poems/Ready/Sea')
  h.Wait(() => bufname() == root .. '/My Poems/Ready/Sea/Tide.md', 'the buffer to follow')
  assert_true(&modified)
})

h.Run('a buffer follows a rename in the binder', () => {
  var root = Poems()
  EditUnsaved(root .. '/My Poems/Draft/Morning.md')
  var buffer = bufnr()
  h.Press('= Draft  1 file', 'zo')
  h.Press('. Morning.md', "r\<C-U>Dawn\<CR>")
  h.Wait(() => bufname(buffer) == root .. '/My Poems/Draft/Dawn.md', 'the buffer to follow')
  assert_equal(['unsaved words'], getbufline(buffer, 1, '$'))
})

h.Run('a deleted file''s unsaved buffer follows it into the Trash; saving never recreates the old path', () => {
  var root = Poems()
  EditUnsaved(root .. '/My Poems/Draft/Morning.md')
  var buffer = bufnr()
  h.Press('= Draft  1 file', 'zo')
  h.Press('. Morning.md', 'd')
  h.Choose('Delete')
  h.Wait(() => bufname(buffer) == root .. '/My Poems/Trash/Morning.md', 'the buffer to follow into the Trash')
  win_gotoid(win_findbuf(buffer)[0])
  write
  assert_false(filereadable(root .. '/My Poems/Draft/Morning.md'))
  assert_equal(['unsaved words'], readfile(root .. '/My Poems/Trash/Morning.md'))
})

h.Run('a file removed from disk closes its unmodified buffer', () => {
  var root = Poems()
  wincmd p
  execute 'edit' fnameescape(root .. '/My Poems/Draft/Morning.md')
  var buffer = bufnr()
  delete(root .. '/My Poems/Draft/Morning.md')
  h.Wait(() => !bufexists(buffer), 'the buffer to close')
})

h.Run('a file removed from disk keeps its modified buffer, with a warning', () => {
  var root = Poems()
  EditUnsaved(root .. '/My Poems/Draft/Morning.md')
  var buffer = bufnr()
  delete(root .. '/My Poems/Draft/Morning.md')
  h.Wait(() => h.Messages() =~ '“Morning.md” no longer exists on disk; its unsaved changes stay in its buffer.',
    'the warning')
  assert_true(bufloaded(buffer))
  assert_equal(['unsaved words'], getbufline(buffer, 1, '$'))
  # It stays in view, not only in :messages, until the buffer is written.
  var notice = carrel#follow#NoticeOf(buffer)
  assert_notequal(0, notice)
  assert_match('“Morning.md” no longer exists on disk; its unsaved changes stay in its buffer.',
    join(getbufline(winbufnr(notice), 1, '$')))
  assert_equal(0, get(popup_getoptions(notice), 'time', 0))
  execute 'buffer' buffer
  silent write
  assert_equal(0, carrel#follow#NoticeOf(buffer))
  assert_equal({}, popup_getpos(notice))
})
h.Run(':Carrel rename and :Carrel delete act on the current file outside the binder', () => {
  var root = Poems()
  wincmd p
  execute 'edit' fnameescape(root .. '/My Poems/Draft/Morning.md')
  feedkeys(":Carrel rename\<CR>\<C-U>Dawn\<CR>", 'xt')
  h.Wait(() => filereadable(root .. '/My Poems/Draft/Dawn.md'), 'the rename')
  h.Wait(() => bufname() == root .. '/My Poems/Draft/Dawn.md', 'the buffer to follow')
  Carrel delete
  h.Choose('Delete')
  h.Wait(() => filereadable(root .. '/My Poems/Trash/Dawn.md'), 'the delete')
})

h.Run(':Carrel rename on the current file starts the server when it is not running', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
  execute 'edit' fnameescape(root .. '/My Poems/Draft/Morning.md')
  feedkeys(":Carrel rename\<CR>\<C-U>Dawn\<CR>", 'xt')
  h.Wait(() => filereadable(root .. '/My Poems/Draft/Dawn.md'), 'the rename')
})
h.Done()

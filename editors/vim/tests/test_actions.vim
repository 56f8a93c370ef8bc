vim9script
# Every action of the binder, by its key, against the real server.
import './harness.vim' as h
import autoload 'carrel/tree.vim'
import autoload 'carrel/binder.vim'
import autoload 'carrel/rpc.vim'

def Poems(): string
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Morning.md': 'dawn'}))
  h.Open(root)
  h.Press('= Draft  1 file', 'zo')
  h.WaitLine('. Morning.md')
  return root
enddef

h.Run('a makes a file in the folder under the cursor, opens it and puts the cursor on its row', () => {
  var root = Poems()
  # The first words typed straight after the name, before the server has
  # answered: every letter lands in the new file.
  h.Press('= Draft  1 file', "a\<C-U>Nightfall\<CR>Evening falls\<Esc>")
  h.WaitLine('. Nightfall.md')
  assert_true(filereadable(root .. '/My Poems/Draft/Nightfall.md'))
  h.Wait(() => bufname() == root .. '/My Poems/Draft/Nightfall.md', 'the new file opened')
  h.Wait(() => line('.', binder.Window()) == h.LineOf('. Nightfall.md'), 'the cursor on the new row')
  assert_equal(['Evening falls'], getline(1, '$'))
})

h.Run('A makes a folder', () => {
  var root = Poems()
  h.Press('= Draft  1 file', "A\<C-U>Sea Cycle\<CR>")
  h.WaitLine('/ Sea Cycle')
  assert_true(isdirectory(root .. '/My Poems/Draft/Sea Cycle'))
})

h.Run('P offers the project types the server gives, and makes the project', () => {
  var root = h.Library({})
  h.Open(root)
  # Enter on the onboarding line does what it says.
  h.Press('No project yet: press P to make one', "\<CR>\<C-U>Stories\<CR>")
  h.Wait(() => !empty(h.Popups()), 'the type menu')
  assert_equal(['Blank', 'Poetry', 'Short Story', 'Novel', 'Script'], h.Popups()[0].items)
  assert_match('Project type', h.Popups()[0].title)
  h.Choose('Short Story')
  h.WaitLine('@ Stories')
  # A new project opens as the first view shows one: its first section open.
  h.WaitLine('YOUR STORIES')
  h.WaitLine('= Draft')
  assert_match('"type" *: *"shortStory"', join(readfile(root .. '/Stories/.carrel/project.json')))
  assert_equal(0, h.LineOf('No project yet: press P to make one'))
})

h.Run('r on an open folder keeps it open under its new name', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Sea/One.md': 'one'}))
  h.Open(root)
  h.Press('= Draft', 'zo')
  h.Press('/ Sea', 'zo')
  h.WaitLine('. One.md')
  h.Press('/ Sea', "r\<C-U>Ocean\<CR>")
  h.WaitLine('/ Ocean')
  h.WaitLine('. One.md')
})

h.Run('K on a section header says it keeps its place, as on a permanent folder', () => {
  Poems()
  h.Press('YOUR POETRY', 'K')
  h.Wait(() => h.Messages() =~ '“YOUR POETRY” keeps its place', 'the message')
})

h.Run('r offers the current name; the server keeps the extension', () => {
  var root = Poems()
  h.Press('. Morning.md', "r\<C-U>Dawn\<CR>")
  h.WaitLine('. Dawn.md')
  assert_true(filereadable(root .. '/My Poems/Draft/Dawn.md'))
  assert_false(filereadable(root .. '/My Poems/Draft/Morning.md'))
})

h.Run('r offers the current name to edit', () => {
  var root = Poems()
  h.Press('. Morning.md', "r\<Home>Early \<CR>")
  h.WaitLine('. Early Morning.md')
  assert_true(filereadable(root .. '/My Poems/Draft/Early Morning.md'))
})

h.Run('r shows a refusal as the server words it', () => {
  var root = Poems()
  h.Write(root .. '/My Poems/Draft/Dusk.md', 'x')
  h.WaitLine('. Dusk.md')
  h.Press('. Morning.md', "r\<C-U>Dusk.md\<CR>")
  h.Wait(() => h.Messages() =~ '“Dusk.md” already exists in “Draft”', 'the refusal')
  assert_true(filereadable(root .. '/My Poems/Draft/Morning.md'))
})

# Esc, which says nothing, is typed in the Vim journey: here it would end the script.
h.Run('an empty name is refused in the server''s words', () => {
  var root = Poems()
  h.Press('= Draft', "A\<CR>")
  h.Wait(() => h.Messages() =~ 'A name cannot be empty.', 'the refusal')
  messages clear
  h.Press('= Draft', "a   \<CR>")
  h.Wait(() => h.Messages() =~ 'A name cannot be empty.', 'the refusal of spaces')
  assert_equal([], h.CommandsSent('carrel.newFolder') + h.CommandsSent('carrel.newFile'))
  assert_equal(['Morning.md'], readdir(root .. '/My Poems/Draft')->filter((_, n) => n !~ '^\.'))
})

h.Run('r on a permanent folder is refused in the server''s words before any name is asked', () => {
  Poems()
  h.Press('= Draft', 'r')
  h.Wait(() => h.Messages() =~ '“Draft” is a permanent folder', 'the refusal')
  var sent = h.CommandsSent('carrel.rename')
  assert_equal(1, len(sent))
  assert_equal('Draft', sent[0].newName)
  h.Press('# Writing', 'r')
  h.Wait(() => len(h.CommandsSent('carrel.rename')) == 2, 'the library''s rename')
  assert_equal('Writing', h.CommandsSent('carrel.rename')[1].newName)
})

h.Run('m offers the server''s destinations joined with › and New folder…', () => {
  var root = Poems()
  h.Press('. Morning.md', 'm')
  h.Wait(() => !empty(h.Popups()), 'the move menu')
  var items = h.Popups()[0].items
  assert_equal('New folder…', items[0])
  assert_true(index(items, 'Writing › My Poems › Ready') >= 0, string(items))
  assert_equal(-1, index(items, 'Writing › My Poems › Draft'), 'not the folder it is in')
  h.Choose('Writing › My Poems › Ready')
  h.Wait(() => filereadable(root .. '/My Poems/Ready/Morning.md'), 'the move')
  h.Wait(() => binder.Current() != {} && tree.Node(binder.Current().key).name == 'Morning.md'
    && tree.Parent(binder.Current().key) =~ 'Ready$', 'the cursor on the moved row')
})

h.Run('a count before j in the move menu goes that many items down, as in a buffer', () => {
  var root = Poems()
  h.Press('. Morning.md', 'm')
  h.Wait(() => !empty(h.Popups()), 'the move menu')
  var items = h.Popups()[0].items
  var fifth = items[4]->substitute('^Writing', '', '')->substitute(' › ', '/', 'g')
  feedkeys("4j\<CR>", 'xt')
  h.Wait(() => filereadable(root .. fifth .. '/Morning.md'), 'the move to ' .. items[4])
})

h.Run('m with New folder… makes the folder and moves there', () => {
  var root = Poems()
  h.Press('. Morning.md', 'm')
  h.Wait(() => !empty(h.Popups()), 'the move menu')
  h.Choose('New folder…', "\<C-U>Old Drafts\<CR>")
  h.Wait(() => !empty(h.Popups()), 'the question where')
  var question = h.Popups()[0]
  assert_match('Create “Old Drafts” in', question.title)
  assert_true(index(question.items, 'Writing › My Poems › Draft') >= 0,
    'the folder it is in: ' .. string(question.items))
  assert_equal([], question.items->copy()->filter((_, l) => l =~ 'Trash'),
    'no Trash: nothing moves into a folder there')
  h.Choose('Writing › My Poems › Ready')
  h.Wait(() => filereadable(root .. '/My Poems/Ready/Old Drafts/Morning.md'), 'the move into the new folder')
  # Ready was never opened and Old Drafts is new: both open on the way.
  h.Wait(() => binder.Current() != {} && tree.Node(binder.Current().key).name == 'Morning.md'
    && tree.Parent(binder.Current().key) =~ 'Old%20Drafts$', 'the cursor on the moved row')
})

h.Run('d asks the server''s question, actions in its order; Enter answers Cancel', () => {
  var root = Poems()
  h.Press('. Morning.md', 'd')
  h.Wait(() => !empty(h.Popups()), 'the question')
  var question = h.Popups()[0]
  assert_equal(['Cancel', 'Delete', 'Delete and Don''t Ask Again'], question.items)
  assert_match('Move “Morning.md” to the Trash?', question.title)
  feedkeys("\<CR>", 'xt')
  h.Wait(() => h.Messages() =~ 'Cancelled: nothing was deleted.', 'the refusal shown as is')
  assert_true(filereadable(root .. '/My Poems/Draft/Morning.md'))
})

h.Run('d then Delete moves to the Trash and shows the server''s report', () => {
  var root = Poems()
  h.Press('. Morning.md', 'd')
  h.Choose('Delete')
  h.Wait(() => filereadable(root .. '/My Poems/Trash/Morning.md'), 'the delete')
  h.Wait(() => h.Messages() =~ 'Moved “Morning.md” to the Trash.', 'the report')
  h.WaitNoLine('. Morning.md')
  # The cursor keeps its line, where the next row now is.
  assert_match('= Ready', getline('.'))
})

h.Run('D duplicates beside the original and puts the cursor on the copy', () => {
  var root = Poems()
  h.Press('. Morning.md', 'D')
  h.Wait(() => filereadable(root .. '/My Poems/Draft/Morning copy.md'), 'the copy')
  h.Wait(() => getline('.') =~ 'Morning copy.md', 'the cursor on the copy')
})

h.Run('u restores from the Trash', () => {
  var root = Poems()
  h.Press('. Morning.md', 'd')
  h.Choose('Delete')
  h.Wait(() => filereadable(root .. '/My Poems/Trash/Morning.md'), 'the delete')
  h.Press('TRASH  1 file', 'zo')
  h.Press('~ Trash  1 file', 'zo')
  h.Press('. Morning.md', 'u')
  h.Wait(() => filereadable(root .. '/My Poems/Draft/Morning.md'), 'the restore')
  h.Wait(() => h.Messages() =~ 'Restored “Morning.md” to “Draft”.', 'the report')
})

h.Run('E asks the server''s question and reports in its words', () => {
  var root = Poems()
  h.Press('. Morning.md', 'd')
  h.Choose('Delete')
  h.Wait(() => filereadable(root .. '/My Poems/Trash/Morning.md'), 'the delete')
  h.Press('@ My Poems  1 file', 'E')
  h.Wait(() => !empty(h.Popups()), 'the question')
  # Too wide for the title at 80 columns: written whole above the actions.
  assert_equal(['Delete the 1 item in the Trash of “My Poems” forever? This cannot be undone.'],
    [join(h.Popups()[0].items[: -4], ' ')])
  assert_equal(['', 'Cancel', 'Delete'], h.Popups()[0].items[-3 :])
  h.Choose('Delete')
  h.Wait(() => h.Messages() =~ 'Emptied the Trash: 1 item deleted for good.', 'the report')
  assert_false(filereadable(root .. '/My Poems/Trash/Morning.md'))
})

h.Run('s offers the server''s sorts and sets one', () => {
  var root = Poems()
  h.Write(root .. '/My Poems/Draft/Aube.md', 'x')
  h.WaitLine('. Aube.md')
  assert_true(h.LineOf('. Aube.md') < h.LineOf('. Morning.md'))
  h.Press('. Morning.md', 's')
  h.Wait(() => !empty(h.Popups()), 'the sort menu')
  # The server's vocabulary, in its order; no table of the plugin's own.
  assert_equal(rpc.Vocabulary().sorts->mapnew((_, s) => s.title), h.Popups()[0].items)
  assert_match('Sort by', h.Popups()[0].title)
  assert_true(index(h.Popups()[0].items, 'Name, Z to A') >= 0)
  h.Choose('Name, Z to A')
  h.Wait(() => h.LineOf('. Aube.md') > h.LineOf('. Morning.md'), 'the new order')
  h.Wait(() => binder.Current() != {} && tree.Node(binder.Current().key).name == 'My Poems',
    'the cursor on the project sorted')
})

h.Run('Delete and Don''t Ask Again, then :Carrel ask_before_deleting asks again', () => {
  var root = Poems()
  h.Write(root .. '/My Poems/Draft/Second.md', 'x')
  h.Press('. Morning.md', 'd')
  h.Choose('Delete and Don''t Ask Again')
  h.Wait(() => filereadable(root .. '/My Poems/Trash/Morning.md'), 'the delete')
  h.Wait(() => tree.Node(tree.Key({uri: 'file://' .. root .. '/My%20Poems'})).confirmDelete == false,
    'the project row saying confirmDelete: false')
  h.Press('. Second.md', ':Carrel ask_before_deleting' .. "\<CR>")
  h.Wait(() => !has_key(tree.Node('file://' .. root .. '/My%20Poems'), 'confirmDelete'), 'asking turned on')
  var sent = h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*carrel.setConfirmDelete' && l =~ '"confirm":true')
  assert_equal(1, len(sent))
  h.Press('. Second.md', 'd')
  h.Wait(() => !empty(h.Popups()), 'the question again')
})

h.Run(':Carrel ask_before_deleting never turns asking off', () => {
  var root = Poems()
  var before = h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*carrel.setConfirmDelete')->len()
  h.Press('. Morning.md', ':Carrel ask_before_deleting' .. "\<CR>")
  h.Wait(() => h.Messages() =~ 'Deleting in “My Poems” already asks first.', 'the server saying so')
  var sent = h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*carrel.setConfirmDelete')
  assert_equal(before + 1, len(sent))
  assert_match('"confirm":true', sent[-1])
  h.Press('. Morning.md', 'd')
  h.Wait(() => !empty(h.Popups()), 'the question, still')
})

h.Run(':Carrel link_updates sends the mode and project.json holds it', () => {
  var root = Poems()
  h.Press('. Morning.md', ':Carrel link_updates' .. "\<CR>")
  h.Wait(() => h.Popups()->copy()->filter((_, p) => p.title =~ 'When a move breaks links in “My Poems”:')->len() == 1,
    'the picker')
  assert_equal(['Update them without asking', 'Ask each time (now)', 'Never update them'],
    h.Popups()[0].items->copy()->filter((_, l) => l =~ 'them\|time'))
  h.Choose('Never update them')
  h.Wait(() => len(h.CommandsSent('carrel.setLinkUpdates')) == 1, 'carrel.setLinkUpdates')
  assert_equal({uri: 'file://' .. root .. '/My%20Poems', mode: 'never'}, h.CommandsSent('carrel.setLinkUpdates')[0])
  h.Wait(() => get(tree.Node('file://' .. root .. '/My%20Poems'), 'linkUpdates', '') == 'never', 'the row saying never')
  assert_equal('never', json_decode(join(readfile(root .. '/My Poems/.carrel/project.json'), ''))
    .preferences.linkUpdates.value)
})

h.Run('R refetches what is shown', () => {
  var root = Poems()
  var before = h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*"carrel/tree"')->len()
  h.Press('= Draft  1 file', 'R')
  h.Wait(() => h.Traffic()->copy()->filter((_, l) => l =~ '^→ .*"carrel/tree"')->len() > before, 'a refetch')
  h.WaitLine('. Morning.md')
})
h.Run(':Carrel ask_before_deleting in a file''s own window asks for the file''s project', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Ready/Tide.md': 'tide'}))
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp'], log_size: 2000}
  execute 'edit' fnameescape(root .. '/My Poems/Ready/Tide.md')
  Carrel ask_before_deleting
  h.Wait(() => len(h.CommandsSent('carrel.setConfirmDelete')) == 1, 'carrel.setConfirmDelete')
  assert_equal({uri: 'file://' .. root .. '/My%20Poems/Ready/Tide.md', confirm: true},
    h.CommandsSent('carrel.setConfirmDelete')[0])
  h.Wait(() => h.Messages() =~ 'Deleting in “My Poems” already asks first.', 'the server''s report')
})

h.Run('d with All open: the cursor goes to the row that followed, though a row above went too', () => {
  var root = h.Library(h.Poetry('My Poems')->extend({'My Poems/Draft/Alpha.md': 'a', 'My Poems/Draft/Beta.md': 'b'}))
  h.Open(root)
  h.Press('* All', 'zo')
  h.Press('= Draft', 'zo')
  h.WaitLine('. Beta.md')
  # The second Alpha.md is Draft's, under All's.
  var draft_alpha = h.BinderLines()->match('\. Alpha.md', 0, 2) + 1
  win_gotoid(binder.Window())
  cursor(draft_alpha, 1)
  feedkeys('d', 'xt')
  h.Choose('Delete')
  h.Wait(() => filereadable(root .. '/My Poems/Trash/Alpha.md'), 'the delete')
  h.Wait(() => h.BinderLines()->match('Alpha.md') < 0, 'both Alpha.md rows gone')
  h.Idle()
  assert_equal(h.LineOf('= Draft') + 1, line('.', binder.Window()), string(h.BinderLines()))
  assert_match('\. Beta.md', getline(line('.', binder.Window())))
})

h.Done()

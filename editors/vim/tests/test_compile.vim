vim9script
# Compile… (C) and Leave out of compile (X), against the real server.
import './harness.vim' as h
import autoload 'carrel/tree.vim'
import autoload 'carrel/rpc.vim'

def Story(): string
  var root = h.Library({'Story/.carrel/project.json': '{"type":"shortStory","version":1}',
    'Story/Draft/Opening.md': 'The sea was calm.', 'Story/Draft/Notes.md': 'Only for me.'})
  h.Open(root)
  h.Press('= Draft', 'zo')
  h.WaitLine('. Notes.md')
  return root
enddef

def Uri(path: string): string
  return 'file://' .. substitute(path, ' ', '%20', 'g')
enddef

h.Run('X leaves a row out of compile, the summary says so, and X again puts it back', () => {
  var root = Story()
  var notes = Uri(root .. '/Story/Draft/Notes.md')
  h.Press('. Notes.md', 'X')
  h.Wait(() => get(tree.Node(notes), 'leftOut', false) == true, 'the row to be left out')
  assert_equal([{uri: notes, included: false}], h.CommandsSent('carrel.setCompileIncluded'))
  h.Wait(() => h.BinderLines()->copy()->filter((_, l) => l =~ 'Notes.md.*left out')->len() == 1,
    'the summary saying "left out"')
  h.Press('. Notes.md', 'X')
  h.Wait(() => !get(tree.Node(notes), 'leftOut', false), 'the row to be included again')
  assert_equal(true, h.CommandsSent('carrel.setCompileIncluded')[1].included)
})

h.Run('C picks a recipe and a format from initialize and opens the compiled Markdown', () => {
  var root = Story()
  var notes = Uri(root .. '/Story/Draft/Notes.md')
  h.Press('. Notes.md', 'X')
  h.Wait(() => get(tree.Node(notes), 'leftOut', false) == true, 'the row to be left out')
  h.Press('. Opening.md', 'C')
  h.Wait(() => !empty(h.Popups()), 'the recipe menu')
  # The server's recipes for the project's type, in its words.
  var recipes = rpc.Vocabulary().compile.recipes.shortStory->mapnew((_, r) => r.title)
  assert_equal(recipes, h.Popups()[0].items)
  h.Choose('Standard manuscript')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Format', 'the format menu')
  assert_equal('Word (DOCX)', h.Popups()[0].items[0], 'the recipe''s own format first')
  h.Choose('Markdown')
  var compiled = root .. '/Story/Compiled/Story.md'
  h.Wait(() => filereadable(compiled), 'the compiled document')
  assert_equal([{projectUri: Uri(root .. '/Story'), recipe: 'manuscript', format: 'markdown'}],
    h.CommandsSent('carrel.compile'))
  var text = join(readfile(compiled), "\n")
  assert_match('The sea was calm.', text)
  assert_notmatch('Only for me', text)
  h.Wait(() => bufname() == compiled, 'the document opened')
  h.Wait(() => h.Messages() =~ 'Compiled Compiled/Story.md: ', 'the server''s report')
  # A story's manuscript is a submission packet: its offer dismissed sends nothing.
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Compiled “', 'the offer of the packet')
  feedkeys("\<Esc>", 'xt')
  h.Wait(() => empty(h.Popups()), 'the offer dismissed')
  assert_equal([], h.CommandsSent('carrel.submit'))
})

h.Run('C offers the project''s own recipes after its type''s, by their titles, and compiles one', () => {
  var root = Story()
  h.Write(root .. '/Story/.carrel/recipes/beta.json', '{"title":"Beta readers","format":"markdown","fileTitles":true}')
  h.Press('. Opening.md', 'C')
  h.Wait(() => !empty(h.Popups()), 'the recipe menu')
  assert_equal(['Standard manuscript', 'Beta readers'], h.Popups()[0].items)
  h.Choose('Beta readers')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Format', 'the format menu')
  assert_equal('Markdown', h.Popups()[0].items[0], 'the recipe''s own format first')
  h.Choose('Markdown')
  var compiled = root .. '/Story/Compiled/Story (beta).md'
  h.Wait(() => filereadable(compiled), 'the compiled document')
  assert_equal([{projectUri: Uri(root .. '/Story'), recipe: 'beta', format: 'markdown'}],
    h.CommandsSent('carrel.compile'))
  assert_match('# Opening', join(readfile(compiled), "\n"))
  # A story's manuscript is a submission packet: its offer dismissed sends nothing.
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Compiled “', 'the offer of the packet')
  feedkeys("\<Esc>", 'xt')
  h.Wait(() => empty(h.Popups()), 'the offer dismissed')
  assert_equal([], h.CommandsSent('carrel.submit'))
})

h.Run('after compiling a packet, Submit this packet… submits the pieces compiled with the document', () => {
  var root = Story()
  mkdir(root .. '/Story/Magazines/Granta', 'p')
  h.Press('. Opening.md', 'C')
  h.Wait(() => !empty(h.Popups()), 'the recipe menu')
  h.Choose('Standard manuscript')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Format', 'the format menu')
  h.Choose('Markdown')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Compiled “Story.md”:', 'the offer')
  assert_equal(['Submit this packet…'], h.Popups()[0].items)
  h.Choose('Submit this packet…')
  h.Wait(() => !empty(h.Popups()) && h.Popups()[0].title =~ 'Submit 2 pieces to:', 'the markets')
  var granta = h.Popups()[0].items->copy()->filter((_, l) => l =~ '› Granta$')[0]
  h.Choose(granta, "\<C-U>2026-11-20\<CR>")
  h.Wait(() => len(h.CommandsSent('carrel.submit')) == 1, 'the submission')
  var story = root .. '/Story'
  assert_equal({items: [Uri(story .. '/Draft/Notes.md'), Uri(story .. '/Draft/Opening.md')],
    marketUri: Uri(story .. '/Magazines/Granta'), date: '2026-11-20', packetUri: Uri(story .. '/Compiled/Story.md')},
    h.CommandsSent('carrel.submit')[0])
  h.Wait(() => h.Messages() =~ 'Submitted “Notes.md”, “Opening.md” to “Granta” on 2026-11-20.', 'the report')
})

h.Run('B sets the byline: the author, then the contact lines, each holding what the project has', () => {
  var root = Story()
  var project = Uri(root .. '/Story')
  h.Press('. Opening.md', "B\<C-U>Ada Lovelace\<CR>\<C-U> 12 Any Street | ada@example.com \<CR>")
  h.Wait(() => len(h.CommandsSent('carrel.setByline')) == 1, 'carrel.setByline')
  assert_equal({projectUri: project, author: 'Ada Lovelace', contact: ['12 Any Street', 'ada@example.com']},
    h.CommandsSent('carrel.setByline')[0])
  h.Wait(() => h.Messages() =~ 'Title page of “Story”: by Ada Lovelace, 2 contact lines.', 'the server''s report')
  # Enter keeps the author it now holds; an emptied contact clears.
  h.Press('. Opening.md', "B\<CR>\<C-U>\<CR>")
  h.Wait(() => len(h.CommandsSent('carrel.setByline')) == 2, 'the second carrel.setByline')
  assert_equal({projectUri: project, author: 'Ada Lovelace', contact: []}, h.CommandsSent('carrel.setByline')[1])
  h.Wait(() => h.Messages() =~ 'Title page of “Story”: by Ada Lovelace, no contact lines.', 'the second report')
})

h.Done()

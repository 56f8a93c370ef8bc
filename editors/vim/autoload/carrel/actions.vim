vim9script
# What the binder's keys and :Carrel do. Each action takes the row under the
# cursor (or, outside the binder, the file of the current buffer).

import autoload 'carrel/rpc.vim'
import autoload 'carrel/tree.vim'
import autoload 'carrel/binder.vim'
import autoload 'carrel/ui.vim'
import autoload 'carrel/util.vim'
import autoload 'carrel/config.vim'
import autoload 'carrel/preload.vim'
import autoload 'carrel/links.vim'
import autoload 'carrel/diffview.vim'

const NEW_FOLDER = 'New folder…'

# [key, action, words], in the order `?` shows them (the shared key table).
export const KEYS: list<list<string>> = [
  ['<CR>', 'open', 'Open a file, or expand/collapse a folder'],
  ['zo', 'expand', 'Expand'],
  ['zc', 'collapse', 'Collapse'],
  ['zR', 'expandall', 'Expand All'],
  ['zM', 'collapseall', 'Collapse All'],
  ['a', 'newfile', 'New File (opens it in insert mode)'],
  ['A', 'newfolder', 'New Folder'],
  ['P', 'newproject', 'New Project'],
  ['r', 'rename', 'Rename'],
  ['m', 'move', 'Move To (a folder picker, with “New folder…”)'],
  ['D', 'duplicate', 'Duplicate (a copy beside it)'],
  ['d', 'delete', 'Delete (moves to Trash)'],
  ['u', 'restore', 'Restore (an item in Trash)'],
  ['E', 'emptytrash', 'Empty Trash'],
  ['s', 'sort', 'Sort'],
  ['K', 'moveup', 'Move Up among its siblings (binder order)'],
  ['J', 'movedown', 'Move Down among its siblings (binder order)'],
  ['T', 'settarget', 'Set Word Target (empty clears it)'],
  ['C', 'compile', 'Compile… the project (a recipe, a format), then open it'],
  ['X', 'togglecompile', 'Leave out of compile / Include in compile'],
  ['B', 'setbyline', 'Set byline… of the project: its author, then its contact lines'],
  ['U', 'undo', 'Undo the last change made in this library on this device'],
  ['<C-r>', 'redo', 'Redo what Undo took back'],
  ['S', 'snapshot', 'Take Snapshot… of a file, or of each file in a folder'],
  ['H', 'snapshots', 'Snapshots… of a file: compare one with the text, or roll back to it'],
  ['O', 'submit', 'Submit… a file to a market of its project'],
  ['I', 'submissions', 'Submissions… of a piece, a market or the project, and their statuses'],
  ['M', 'market', 'Market Details… of a market (a folder in Magazines, Competitions, …)'],
  ['R', 'refresh', 'Refresh'],
  ['-', 'parent', 'Go to the parent'],
  ['?', 'help', 'Show these keys'],
  ['q', 'close', 'Close the binder'],
]

# :Carrel subcommands beyond the keys' actions.
const COMMANDS = ['toggle', 'preload', 'ask_before_deleting', 'link_updates', 'log', 'stop', 'definition', 'backlinks',
  'brokenlinks']

# The row an action is about: the binder's row, else the current file.
def Target(): dict<any>
  var row = binder.Current()
  if !empty(row)
    return row
  endif
  var name = expand('%:p')
  if bufnr() != binder.Buffer() && &buftype == '' && name != '' && filereadable(name)
    var uri = util.Uri(name)
    return {key: uri, node: {uri: uri, kind: 'file', name: fnamemodify(name, ':t'), title: fnamemodify(name, ':t')}}
  endif
  return {}
enddef

def NodeOf(row: dict<any>): dict<any>
  return has_key(row, 'node') ? row.node : tree.Node(get(row, 'key', ''))
enddef

# The nearest row from `key` up whose node passes `Test`.
def UpTo(key: string, Test: func(dict<any>): bool): string
  var at = key
  while at != ''
    if Test(tree.Node(at))
      return at
    endif
    at = tree.Parent(at)
  endwhile
  return ''
enddef

def Warn(text: string)
  util.Show(2, text)
enddef

# Where a new item goes: the folder under the cursor, or the one holding the row.
def Container(row: dict<any>): dict<any>
  if has_key(row, 'library')
    return tree.Node(row.library)
  endif
  var key = UpTo(get(row, 'key', ''), (n) => has_key(n, 'uri') && n.kind != 'file')
  if key != ''
    return tree.Node(key)
  endif
  var node = NodeOf(row)
  return has_key(node, 'uri') ? {uri: util.Dirname(node.uri)} : {}
enddef

def NeedUri(row: dict<any>): dict<any>
  var node = NodeOf(row)
  if empty(row) || has_key(row, 'library')
    Warn('Put the cursor on a row of the binder first.')
    return {}
  elseif !has_key(node, 'uri')
    Warn(printf('"%s" is a section header: choose a folder or a file.', get(node, 'title', '')))
    return {}
  endif
  return node
enddef

# The window files open in: the last other window, or a new one beside the binder.
def MainWindow(): number
  var sidebar = binder.Window()
  var previous = win_getid(winnr('#'))
  if previous != 0 && previous != sidebar
    return previous
  endif
  for info in getwininfo()
    if info.winid != sidebar && info.tabnr == tabpagenr() && getbufvar(info.bufnr, '&buftype') == ''
      return info.winid
    endif
  endfor
  execute config.Get().side == 'right' ? 'topleft vnew' : 'botright vnew'
  var window = win_getid()
  if sidebar != 0
    win_execute(sidebar, 'vertical resize ' .. config.Get().width)
  endif
  return window
enddef

export def Edit(path: string)
  win_gotoid(MainWindow())
  execute 'edit' fnameescape(path)
enddef

def Open(row: dict<any>)
  if has_key(row, 'library')
    # The onboarding line: Enter does what it says.
    NewProject(row)
    return
  endif
  var node = NodeOf(row)
  if empty(node)
    return
  endif
  if node.kind == 'file'
    Edit(util.Path(node.uri))
  elseif tree.IsExpanded(row.key)
    tree.Collapse(row.key)
  else
    tree.Expand(row.key)
  endif
enddef

def Collapse(row: dict<any>)
  var node = NodeOf(row)
  if empty(node)
    return
  endif
  if tree.IsExpanded(row.key)
    tree.Collapse(row.key)
  elseif tree.Parent(row.key) != ''
    tree.Collapse(tree.Parent(row.key))
  endif
enddef

def NewFile(row: dict<any>)
  var parent = Container(row)
  if empty(parent)
    Warn('Put the cursor on a row of the binder first.')
    return
  endif
  var name = ui.Input('New file name: ')
  if name == ''
    return
  endif
  var request = {command: 'carrel.newFile', arguments: [{parentUri: parent.uri, name: name}]}
  # The writer types the first words straight after the name: they wait in
  # Vim's typeahead until the file is open in insert mode, and none is lost.
  var answer = rpc.Await('workspace/executeCommand', request, (node) => {
    # Too late to take the words typed meanwhile: the file opens, no more.
    tree.Reveal(node)
    Edit(util.Path(node.uri))
  })
  if answer.answered
    tree.Reveal(answer.result)
    Edit(util.Path(answer.result.uri))
    # A new file is empty: ready to write in.
    startinsert
  endif
enddef

def NewFolder(row: dict<any>)
  var parent = Container(row)
  if empty(parent)
    Warn('Put the cursor on a row of the binder first.')
    return
  endif
  var name = ui.Input('New folder name: ')
  if name != ''
    rpc.Execute('carrel.newFolder', {parentUri: parent.uri, name: name}, (node) => tree.Reveal(node))
  endif
enddef

def NewProject(row: dict<any>)
  var key = UpTo(get(row, 'key', get(row, 'library', '')), (n) => get(n, 'kind', '') == 'library')
  if key == '' && has_key(row, 'library')
    key = row.library
  endif
  if key == ''
    var libraries = binder.Rows()->copy()->filter((_, r) => get(tree.Node(r.key), 'kind', '') == 'library')
    key = len(libraries) == 1 ? libraries[0].key : ''
  endif
  if key == ''
    Warn('Put the cursor in a library to make a project there.')
    return
  endif
  var name = ui.Input('Project name: ')
  if name == ''
    return
  endif
  var types: list<dict<any>> = get(rpc.Vocabulary(), 'projectTypes', [])
  var library = tree.Node(key)
  ui.Pick('Project type', types->mapnew((_, t) => t.title), (index) => {
    rpc.Execute('carrel.newProject', {parentUri: library.uri, name: name, type: types[index].id},
      (node) => tree.Reveal(node))
  })
enddef

def Rename(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  # The server refuses a permanent folder or a library whatever the name:
  # asked with the current one, it says so in its words before any typing.
  if get(node, 'permanent', false) == true || get(node, 'kind', '') == 'library'
    rpc.Execute('carrel.rename', {uri: node.uri, newName: node.name}, (_) => 0)
    return
  endif
  var name = ui.Input('Rename to: ', node.name)
  if name != '' && name != node.name
    rpc.Execute('carrel.rename', {uri: node.uri, newName: name}, (result) => tree.Reveal(result))
  endif
enddef

def MoveTo(uri: string, destination: string)
  rpc.Execute('carrel.moveTo', {uri: uri, destinationUri: destination}, (result) => tree.Reveal(result))
enddef

def Move(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  # The picker opens before the next key is read, so keys typed meanwhile go to it.
  var answer = rpc.Await('carrel/destinations', {uri: node.uri, purpose: 'move'}, (late) => PickDestination(node, late))
  if answer.answered
    PickDestination(node, answer.result)
  endif
enddef

def PickDestination(node: dict<any>, destinations: list<dict<any>>)
  var labels = destinations->mapnew((_, d) => join(d.label, ' › '))
  var title = printf('Move “%s” to', get(node, 'title', node.name))
  ui.Pick(title, [NEW_FOLDER] + labels, (index) => {
    if index > 0
      MoveTo(node.uri, destinations[index - 1].uri)
    else
      MoveToNewFolder(node)
    endif
  })
enddef

def MoveToNewFolder(node: dict<any>)
  var name = ui.Input('New folder name: ')
  if name == ''
    return
  endif
  # Its own folder is a fine place for the new one; a Trash is not.
  var PickParent = (parents: list<dict<any>>) => {
    ui.Pick(printf('Create “%s” in', name), parents->mapnew((_, d) => join(d.label, ' › ')), (where) => {
      rpc.Execute('carrel.newFolder', {parentUri: parents[where].uri, name: name},
        (folder) => MoveTo(node.uri, folder.uri))
    })
  }
  var answer = rpc.Await('carrel/destinations', {uri: node.uri, purpose: 'newFolder'}, PickParent)
  if answer.answered
    PickParent(answer.result)
  endif
enddef

# The server asks first (window/showMessageRequest) and reports what it did.
def Delete(row: dict<any>)
  var node = NeedUri(row)
  if !empty(node)
    rpc.Execute('carrel.delete', {uri: node.uri}, (_) => 0)
  endif
enddef

def Duplicate(row: dict<any>)
  var node = NeedUri(row)
  if !empty(node)
    rpc.Execute('carrel.duplicate', {uri: node.uri}, (result) => tree.Reveal(result))
  endif
enddef

def Restore(row: dict<any>)
  var node = NeedUri(row)
  if !empty(node)
    rpc.Execute('carrel.restore', {uri: node.uri}, (result) => tree.Reveal(result))
  endif
enddef

def ProjectOf(row: dict<any>): string
  return UpTo(get(row, 'key', ''), (n) => get(n, 'kind', '') == 'project')
enddef

def EmptyTrash(row: dict<any>)
  var key = ProjectOf(row)
  if key == ''
    Warn('Put the cursor inside a project to empty its Trash.')
    return
  endif
  rpc.Execute('carrel.emptyTrash', {projectUri: tree.Node(key).uri}, (_) => 0)
enddef

# The project holding the row, else its library: what sort and asking apply to.
def Owner(row: dict<any>): dict<any>
  var key = ProjectOf(row)
  if key == ''
    key = UpTo(get(row, 'key', get(row, 'library', '')), (n) => get(n, 'kind', '') == 'library')
  endif
  if key == '' && has_key(row, 'library')
    key = row.library
  endif
  return key == '' ? {} : tree.Node(key)
enddef

def Sort(row: dict<any>)
  var owner = Owner(row)
  if empty(owner)
    Warn('Put the cursor inside a project or a library to sort it.')
    return
  endif
  var sorts: list<dict<any>> = get(rpc.Vocabulary(), 'sorts', [])
  ui.Pick('Sort by', sorts->mapnew((_, s) => s.title), (index) => {
    # Each choice is sent as the vocabulary gives it: "Binder order" is {by: 'manual'}.
    rpc.Execute('carrel.setSort', {uri: owner.uri, by: sorts[index].by,
      descending: get(sorts[index], 'descending', false)}, (result) => tree.Reveal(result))
  })
enddef

# Rows the writer can put in order: files and their own folders; not
# sections, permanent folders, "All" or the rows it lists (those carry an id).
def Orderable(node: dict<any>): bool
  return has_key(node, 'uri') && !has_key(node, 'id') && index(['file', 'folder'], get(node, 'kind', '')) >= 0
    && !get(node, 'permanent', false) && !get(node, 'virtual', false)
enddef

# Moves the row one place up (step -1) or down (+1) among its siblings with
# carrel.reorder; at either end nothing is sent.
def Reorder(row: dict<any>, step: number)
  var shown = NodeOf(row)
  if !empty(shown) && !has_key(row, 'library') && !Orderable(shown)
    Warn(printf('“%s” keeps its place: only files and your own folders move up and down.', shown.title))
    return
  endif
  var node = NeedUri(row)
  if empty(node) || !has_key(row, 'key')
    return
  endif
  var siblings = tree.Children(tree.Parent(row.key))->mapnew((_, k) => tree.Node(k))->filter((_, n) => Orderable(n))
  if siblings->mapnew((_, n) => n.uri)->index(node.uri) >= 0
    ReorderAmong(node, step, siblings)
    return
  endif
  # From a file's own window, or a folder the binder has not listed: its
  # folder's listing, asked of the server, says who its neighbours are.
  var folder = util.Dirname(node.uri)
  rpc.Request('carrel/tree', {uri: folder, depth: 1}, (listing) => {
    var children = get(get(listing, 0, {}), 'children', [])
    if children->mapnew((_, n) => get(n, 'kind', ''))->index('section') < 0
      ReorderAmong(node, step, children->filter((_, n) => Orderable(n)))
      return
    endif
    # A project root's own items are listed under its first section.
    rpc.Request('carrel/tree', {uri: folder, depth: 2}, (deeper) => {
      var rows = get(get(deeper, 0, {}), 'children', [])->mapnew((_, n) => get(n, 'children', []))->flattennew()
      ReorderAmong(node, step, rows->filter((_, n) => Orderable(n)))
    })
  })
enddef

def ReorderAmong(node: dict<any>, step: number, siblings: list<dict<any>>)
  var at = siblings->mapnew((_, n) => n.uri)->index(node.uri) + step
  if at < 0 || at >= len(siblings)
    util.Show(0, printf('“%s” is already %s.', node.title, step < 0 ? 'first' : 'last'))
    return
  endif
  var argument = {uri: node.uri}
  argument[step < 0 ? 'before' : 'after'] = siblings[at].uri
  rpc.Execute('carrel.reorder', argument, (result) => tree.Reveal(type(result) == v:t_dict ? result : node))
enddef

# Sets the word target of a project, folder or file; an empty answer clears
# it, and only dismissing the question (Esc) sends nothing.
def SetTarget(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  const cancelled = "\x01"
  var current = has_key(node, 'target') ? string(node.target) : ''
  var text = inputdialog(printf('Word target for “%s” (empty clears it): ', node.title), current, cancelled)
  if text == cancelled
    return
  endif
  text = trim(text)
  # Anything but digits goes as typed: the server's refusal says what it expects, in the writer's language.
  var words: any = text == '' ? null : text =~ '^\d\+$' ? str2nr(text) : text
  rpc.Execute('carrel.setTarget', {uri: node.uri, words: words}, (_) => 0)
enddef

# Compile…: one of the recipes the project offers (its type's and its own,
# from `carrel/compileOptions`), then a format as `initialize` gave them
# (the recipe's own first, so Enter keeps it). The server shows its
# progress and says where the document went.
def Compile(row: dict<any>)
  var key = ProjectOf(row)
  if key == ''
    Warn('Put the cursor in a project to compile it.')
    return
  endif
  var project = tree.Node(key)
  # The picker opens before the next key is read, so keys typed meanwhile go to it.
  var answer = rpc.Await('carrel/compileOptions', {projectUri: project.uri},
    (late) => PickRecipe(project, late))
  if answer.answered
    PickRecipe(project, answer.result)
  endif
enddef

def PickRecipe(project: dict<any>, options: dict<any>)
  var compile: dict<any> = get(rpc.Vocabulary(), 'compile', {})
  var recipes: list<dict<any>> = get(options, 'recipes', [])
  ui.Pick('Recipe', recipes->mapnew((_, r) => r.title), (index) => {
    var recipe = recipes[index]
    var own = get(recipe, 'format', '')
    var all: list<dict<any>> = get(compile, 'formats', [])
    var formats = all->copy()->filter((_, f) => f.id == own) + all->copy()->filter((_, f) => f.id != own)
    ui.Pick('Format', formats->mapnew((_, f) => f.title), (chosen) => {
      var format = formats[chosen]
      rpc.Request('workspace/executeCommand', {command: 'carrel.compile', workDoneToken: 'carrel-vim-compile',
        arguments: [{projectUri: project.uri, recipe: recipe.name, format: format.id}]},
        (result) => Compiled(result, !get(format, 'pandoc', false), get(project, 'title', '')))
    })
  })
enddef

# Shows the document's row in the binder; a text document (one Carrel wrote
# itself, without pandoc) opens in the main window, and for the others the
# server's report says where it is. A submission packet then offers
# Submit this packet…: Submit… on the pieces compiled, the document as
# their packet.
def Compiled(result: any, text: bool, project: string)
  if type(result) != v:t_dict || !has_key(result, 'path')
    return
  endif
  tree.Reveal(result)
  if text
    Edit(result.path)
  endif
  var pieces: list<string> = get(result, 'pieceUris', [])
  if !get(result, 'submission', false) || empty(pieces)
    return
  endif
  ui.Pick(printf('Compiled “%s”:', fnamemodify(result.path, ':t')), ['Submit this packet…'], (_) => {
    var name = fnamemodify(util.Path(pieces[0]), ':t')
    var answer = rpc.Await('carrel/destinations', {uri: pieces[0], purpose: 'submit'},
      (late) => PickMarket(pieces, name, project, result.uri, late))
    if answer.answered
      PickMarket(pieces, name, project, result.uri, answer.result)
    endif
  })
enddef

# Set byline…: the compiled title page's author, then its contact lines
# (joined by " | "), each question holding what the project has now
# (`carrel/compileOptions`); an empty answer clears, and only dismissing a
# question (Esc) sends nothing.
def SetByline(row: dict<any>)
  var key = ProjectOf(row)
  if key == ''
    Warn('Put the cursor in a project to set its byline.')
    return
  endif
  var project = tree.Node(key)
  var answer = rpc.Await('carrel/compileOptions', {projectUri: project.uri}, (late) => AskByline(project, late))
  if answer.answered
    AskByline(project, answer.result)
  endif
enddef

def AskByline(project: dict<any>, options: dict<any>)
  const cancelled = "\x01"
  var byline: dict<any> = get(options, 'byline', {})
  var author = get(byline, 'author', '')
  var name = inputdialog('Author: ', type(author) == v:t_string ? author : '', cancelled)
  if name == cancelled
    return
  endif
  var lines = join(get(byline, 'contact', []), ' | ')
  var text = inputdialog('Contact lines, separated by |: ', lines, cancelled)
  if text == cancelled
    return
  endif
  var contact = split(text, '|')->map((_, l) => trim(l))->filter((_, l) => l != '')
  rpc.Execute('carrel.setByline', {projectUri: project.uri, author: trim(name), contact: contact}, (_) => 0)
enddef

# Leave out of compile, or Include in compile again: the opposite of the row's `leftOut`.
def ToggleCompile(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  if index(['file', 'folder'], get(node, 'kind', '')) < 0
    Warn('Only a file or a folder of a project can be left out of compile.')
    return
  endif
  # From a file's own window, the binder's row (when listed) knows whether it is left out.
  var known = tree.Node(node.uri)
  var left_out = get(empty(known) ? node : known, 'leftOut', false)
  rpc.Execute('carrel.setCompileIncluded', {uri: node.uri, included: left_out},
    (result) => tree.Reveal(result))
enddef

# "Ask before deleting" only ever turns asking back on: a command that
# silently turned it off, where it was on, would lose the writer's safety
# net. The server says which it was.
def AskBeforeDeleting(row: dict<any>)
  var owner = Owner(row)
  if empty(owner) && has_key(NodeOf(row), 'uri')
    # A file whose rows are not fetched: the server knows its project.
    owner = NodeOf(row)
  endif
  if empty(owner)
    Warn('Put the cursor inside a project or a library first.')
    return
  endif
  rpc.Execute('carrel.setConfirmDelete', {uri: owner.uri, confirm: true}, (result) => tree.Reveal(result))
enddef

# The choices of Link Updates, in the words every Carrel client shows.
const LINK_UPDATES = [['always', 'Update them without asking'], ['ask', 'Ask each time'],
  ['never', 'Never update them']]

# Whether a move updates the links it breaks, for the row's project (or
# library); the owner's row says the mode in force, marked " (now)".
def LinkUpdates(row: dict<any>)
  var owner = Owner(row)
  if empty(owner)
    Warn('Put the cursor inside a project or a library first.')
    return
  endif
  var now = get(owner, 'linkUpdates', 'ask')
  var labels = LINK_UPDATES->mapnew((_, m) => m[1] .. (m[0] == now ? ' (now)' : ''))
  ui.Pick(printf('When a move breaks links in “%s”:', owner.title), labels, (index) => {
    rpc.Execute('carrel.setLinkUpdates', {uri: owner.uri, mode: LINK_UPDATES[index][0]},
      (result) => tree.Reveal(result))
  })
enddef

# Undo and Redo take back (or do again) the library's last step on this
# device: the row's library, or the server's choice outside one. The report
# and the binder's changes come from the server.
def UndoOrRedo(row: dict<any>, command: string)
  var key = UpTo(get(row, 'key', get(row, 'library', '')), (n) => has_key(n, 'uri'))
  var argument = key == '' ? {} : {library: tree.Node(key).uri}
  rpc.Execute(command, argument, (result) => {
    # Nothing to take back answers with the library: the cursor stays put.
    if type(result) == v:t_dict && get(result, 'kind', '') != 'library'
      tree.Reveal(result)
    endif
  })
enddef

# What a question dismissed with Esc returns, told apart from an empty answer.
const CANCELLED = "\x01"

def Snapshot(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  var title = inputdialog('Snapshot title (optional): ', '', CANCELLED)
  if title == CANCELLED
    return
  endif
  var argument = {uri: node.uri}
  if trim(title) != ''
    argument.title = trim(title)
  endif
  rpc.Execute('carrel.snapshot', argument, (_) => 0)
enddef

def Snapshots(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  var request = {command: 'carrel.snapshots', arguments: [{uri: node.uri}]}
  var answer = rpc.Await('workspace/executeCommand', request, (late) => PickSnapshot(node, late))
  if answer.answered
    PickSnapshot(node, answer.result)
  endif
enddef

def PickSnapshot(node: dict<any>, result: dict<any>)
  var snapshots: list<dict<any>> = get(result, 'snapshots', [])
  var name = get(node, 'title', node.name)
  if empty(snapshots)
    util.Show(0, printf('“%s” has no snapshots yet.', name))
    return
  endif
  var rows = snapshots->mapnew((_, s) => join([s.date] + (has_key(s, 'title') ? [s.title] : [])
    + [printf('%s words', s.words)], ' · '))
  ui.Pick(printf('Snapshots of “%s”', name), rows, (index) => {
    var snapshot = snapshots[index]
    ui.Pick('Snapshot of ' .. snapshot.date, ['Compare with the current text', 'Roll back to this snapshot'],
      (choice) => choice == 0 ? CompareSnapshot(node, snapshot) : RollBack(node, snapshot))
  })
enddef

def CompareSnapshot(node: dict<any>, snapshot: dict<any>)
  rpc.Execute('carrel.compareSnapshot', {uri: node.uri, snapshot: snapshot.name}, (result) => {
    diffview.Open(util.Path(result.snapshot.uri), util.Path(node.uri))
    util.Show(0, result.summary)
  })
enddef

# No question first: the server keeps the text it replaces as a snapshot.
def RollBack(node: dict<any>, snapshot: dict<any>)
  rpc.Execute('carrel.rollBack', {uri: node.uri, snapshot: snapshot.name},
    (_) => diffview.Reload(util.Path(node.uri)))
enddef

# Submit…: a market of the piece's project, then the day it went out
# (today, here); a market that takes no simultaneous submissions has the
# server ask first, as any of its questions.
def Submit(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  elseif get(node, 'kind', '') != 'file'
    Warn(printf('“%s” is not a file: put the cursor on the piece to submit.', get(node, 'title', node.name)))
    return
  endif
  var project = UpTo(get(row, 'key', node.uri), (n) => get(n, 'kind', '') == 'project')
  var title = project == '' ? '' : tree.Node(project).title
  var name = get(node, 'title', node.name)
  var answer = rpc.Await('carrel/destinations', {uri: node.uri, purpose: 'submit'},
    (late) => PickMarket([node.uri], name, title, '', late))
  if answer.answered
    PickMarket([node.uri], name, title, '', answer.result)
  endif
enddef

# The market for `pieces` (`name` the first's), then the day; `packet` is
# the compiled document they went out in, or ''.
def PickMarket(pieces: list<string>, name: string, project: string, packet: string, markets: list<dict<any>>)
  if empty(markets)
    util.Show(0, printf('%s has no market yet: make a folder in Magazines, Competitions, Commissions or Other.',
      project == '' ? 'This project' : '“' .. project .. '”'))
    return
  endif
  var labels = markets->mapnew((_, m) => join(m.label, ' › '))
  var title = len(pieces) == 1 ? printf('Submit “%s” to:', name) : printf('Submit %d pieces to:', len(pieces))
  ui.Pick(title, labels, (index) => {
    var day = inputdialog('Date sent (YYYY-MM-DD): ', strftime('%Y-%m-%d'), CANCELLED)
    if day == CANCELLED
      return
    endif
    var argument: dict<any> = {items: pieces, marketUri: markets[index].uri}
    if packet != ''
      argument.packetUri = packet
    endif
    # Left empty, the day is the server's today.
    if trim(day) != ''
      argument.date = trim(day)
    endif
    rpc.Execute('carrel.submit', argument, (_) => 0)
  })
enddef

# Submissions…: the row's own (a piece's, a market's, a project's); the
# Submissions folder stands for its project's.
def Submissions(row: dict<any>)
  var node = NeedUri(row)
  if empty(node)
    return
  endif
  var uri = node.uri
  var project = ProjectOf(row)
  if get(node, 'role', '') == 'submissions' && project != ''
    uri = tree.Node(project).uri
  endif
  var answer = rpc.Await('carrel/submissions', {uri: uri}, (late) => PickSubmission(late))
  if answer.answered
    PickSubmission(answer.result)
  endif
enddef

def PickSubmission(result: dict<any>)
  var entries: list<dict<any>> = []
  for submission in get(result, 'submissions', [])
    for piece in get(submission, 'pieces', [])
      entries->add({submission: submission, piece: piece})
    endfor
  endfor
  if empty(entries)
    util.Show(0, 'No submissions yet.')
    return
  endif
  var rows = entries->mapnew((_, e) => join([e.piece.title, e.submission.market.name, e.submission.sent,
    PieceName(e.piece)], ' · '))
  ui.Pick('Submissions', rows, (index) => PickStatus(entries[index].submission, entries[index].piece))
enddef

def PieceName(piece: dict<any>): string
  return fnamemodify(get(piece, 'path', util.Path(get(piece, 'uri', ''))), ':t')
enddef

# The statuses as `initialize` names them; an accepted piece can also be
# withdrawn from every other market at once.
def PickStatus(submission: dict<any>, piece: dict<any>)
  var statuses: list<dict<any>> = get(get(rpc.Vocabulary(), 'submissions', {}), 'statuses', [])
  var rows = statuses->mapnew((_, s) => s.id == piece.status ? s.title .. ' (now)' : s.title)
  if piece.status == 'accepted'
    rows->add('Withdraw it everywhere else')
  endif
  var title = printf('“%s” at “%s”:', PieceName(piece), submission.market.name)
  ui.Pick(title, rows, (index) => {
    if index < len(statuses)
      rpc.Execute('carrel.setSubmissionStatus', {record: submission.id, piece: piece.key,
        status: statuses[index].id}, (_) => 0)
    else
      rpc.Execute('carrel.withdrawOthers', {record: submission.id, piece: piece.key}, (_) => 0)
    endif
  })
enddef

const MARKET_ROLES = ['magazines', 'competitions', 'commissions', 'other']
const MARKET_QUESTIONS = [
  ['deadline', 'Deadline (YYYY-MM-DD, empty for none): '],
  ['readingPeriod', 'Reading period: '],
  ['fee', 'Fee: '],
  ['url', 'URL: '],
  ['simultaneous', 'Simultaneous submissions (yes/no): '],
  ['notes', 'Notes: '],
]

# A market is a folder directly in Magazines, Competitions, Commissions or Other.
def IsMarket(row: dict<any>): bool
  var key = get(row, 'key', '')
  var node = tree.Node(key)
  return key != '' && get(node, 'kind', '') == 'folder' && !get(node, 'permanent', false)
    && index(MARKET_ROLES, get(tree.Node(tree.Parent(key)), 'role', '')) >= 0
enddef

# Market Details…: each question in turn, prefilled with the market's
# value (`carrel/market`). An answer left as prefilled is not sent, so a
# field another machine changed meanwhile keeps that change; one emptied is
# sent as null, which clears it. Dismissing any question (Esc) sends nothing.
def MarketDetails(row: dict<any>)
  if !IsMarket(row)
    Warn('Market details are kept on a folder in Magazines, Competitions, Commissions or Other.')
    return
  endif
  var uri = NodeOf(row).uri
  var answer = rpc.Await('carrel/market', {uri: uri}, (late) => AskMarketDetails(uri, late))
  if answer.answered
    AskMarketDetails(uri, answer.result)
  endif
enddef

def AskMarketDetails(uri: string, details: any)
  var known: dict<any> = type(details) == v:t_dict ? details : {}
  var fields: dict<any> = {}
  for [field, prompt] in MARKET_QUESTIONS
    var value = get(known, field, '')
    var prefill = type(value) == v:t_bool ? (value ? 'yes' : 'no') : type(value) == v:t_string ? value : ''
    var answer = inputdialog(prompt, prefill, CANCELLED)
    if answer == CANCELLED
      return
    endif
    answer = trim(answer)
    if answer == prefill
      continue
    endif
    fields[field] = answer == '' ? v:null : field == 'simultaneous' ? YesOrNo(answer) : answer
  endfor
  rpc.Execute('carrel.setMarket', {uri: uri, fields: fields}, (_) => 0)
enddef

# Anything but yes or no goes as typed: the server's refusal says what it expects.
def YesOrNo(answer: string): any
  var word = tolower(answer)
  if index(['yes', 'y', 'true', 'oui', 'o'], word) >= 0
    return true
  elseif index(['no', 'n', 'false', 'non'], word) >= 0
    return false
  endif
  return answer
enddef

def Parent(row: dict<any>)
  var parent = tree.Parent(get(row, 'key', get(row, 'library', '')))
  if has_key(row, 'library')
    parent = row.library
  endif
  if parent != ''
    binder.Draw(parent)
  endif
enddef

export def HelpLines(): list<string>
  # Turning the question back on is rare enough to have no key, and the
  # writer who said "Don't Ask Again" must still find how.
  return KEYS->mapnew((_, k) => printf('%-5s %s', k[0], k[2]))
    + ['', ':Carrel ask_before_deleting  Ask before deleting again, in this project (or library)',
      ':Carrel link_updates  Link Updates… whether a move updates the links it breaks']
    + ['', ':help carrel for commands and options.']
enddef

export def ShowLog()
  var lines = rpc.Traffic()
  var buffer = bufadd('carrel://log')
  setbufvar(buffer, '&buftype', 'nofile')
  setbufvar(buffer, '&swapfile', false)
  if empty(win_findbuf(buffer))
    execute 'botright split'
    silent execute 'buffer' buffer
  else
    win_gotoid(win_findbuf(buffer)[0])
  endif
  setlocal bufhidden=hide nobuflisted nowrap modifiable
  setline(1, empty(lines) ? ['(no traffic yet)'] : lines)
  silent deletebufline(buffer, max([len(lines), 1]) + 1, '$')
  setlocal nomodifiable nomodified
  normal! G
enddef

# Runs an action by name on the current target.
export def Do(action: string)
  DoOn(action, Target())
  Settle()
enddef

# Keys typed while a key's work is under way wait in Vim's typeahead until
# the server has answered and the binder is drawn, so that each key acts on
# what the writer saw when typing it (j after zo goes to the first row
# fetched). A question of the server's ends the wait: the keys are its.
def Settle()
  rpc.WaitFor(() => (rpc.Pending() == 0 && !binder.DrawPending()) || !empty(ui.OpenQuestions()), 5.0)
enddef

def DoOn(action: string, row: dict<any>)
  if action == 'open'
    Open(row)
  elseif action == 'expand'
    if !empty(NodeOf(row))
      tree.Expand(row.key)
    endif
  elseif action == 'collapse'
    Collapse(row)
  elseif action == 'expandall'
    # Below the row under the cursor; on a top row or outside, everything.
    var key = get(row, 'key', '')
    if get(tree.Node(key), 'kind', '') == 'file'
      key = tree.Parent(key)
    endif
    tree.ExpandAll(index(tree.Roots(), key) >= 0 ? '' : key)
  elseif action == 'collapseall'
    tree.CollapseAll()
  elseif action == 'newfile'
    NewFile(row)
  elseif action == 'newfolder'
    NewFolder(row)
  elseif action == 'newproject'
    NewProject(row)
  elseif action == 'rename'
    Rename(row)
  elseif action == 'move'
    Move(row)
  elseif action == 'delete'
    Delete(row)
  elseif action == 'restore'
    Restore(row)
  elseif action == 'duplicate'
    Duplicate(row)
  elseif action == 'emptytrash'
    EmptyTrash(row)
  elseif action == 'sort'
    Sort(row)
  elseif action == 'moveup'
    Reorder(row, -1)
  elseif action == 'movedown'
    Reorder(row, 1)
  elseif action == 'settarget'
    SetTarget(row)
  elseif action == 'compile'
    Compile(row)
  elseif action == 'togglecompile'
    ToggleCompile(row)
  elseif action == 'setbyline'
    SetByline(row)
  elseif action == 'undo'
    UndoOrRedo(row, 'carrel.undo')
  elseif action == 'redo'
    UndoOrRedo(row, 'carrel.redo')
  elseif action == 'snapshot'
    Snapshot(row)
  elseif action == 'snapshots'
    Snapshots(row)
  elseif action == 'submit'
    Submit(row)
  elseif action == 'submissions'
    Submissions(row)
  elseif action == 'market'
    MarketDetails(row)
  elseif action == 'ask_before_deleting'
    AskBeforeDeleting(row)
  elseif action == 'link_updates'
    LinkUpdates(row)
  elseif action == 'refresh'
    tree.Refresh()
  elseif action == 'parent'
    Parent(row)
  elseif action == 'help'
    ui.Sheet('Carrel', HelpLines())
  elseif action == 'close'
    binder.Close()
  endif
enddef

def MapKeys()
  if getbufvar(binder.Buffer(), 'carrel_keys', false)
    return
  endif
  for [lhs, action, _] in KEYS
    execute printf('nnoremap <buffer> <nowait> <silent> %s <Cmd>call carrel#actions#Do(%s)<CR>', lhs, string(action))
  endfor
  b:carrel_keys = true
enddef

export def OpenBinder()
  if binder.Open()
    MapKeys()
  endif
enddef

# The link commands work in the writer's buffers, with or without the binder:
# the server starts as a preload would, where a library holds a project.
def LinkCommand(name: string)
  if !rpc.IsRunning()
    preload.Preload()
  endif
  if !rpc.IsRunning()
    util.Show(2, 'Carrel is not running: :Carrel starts it in a library.')
    return
  endif
  # The buffers are sent once the server is ready.
  rpc.WaitFor((): bool => rpc.IsReady(), 5.0)
  if name == 'definition'
    links.Definition()
  elseif name == 'backlinks'
    links.Backlinks()
  else
    links.ListBroken()
  endif
enddef

# :Carrel [subcommand]
export def Command(arguments: string)
  var name = trim(arguments)
  if name == '' || name == 'open'
    OpenBinder()
  elseif name == 'toggle'
    if binder.Window() != 0
      binder.Close()
    else
      OpenBinder()
    endif
  elseif name == 'preload'
    preload.Preload()
  elseif name == 'log'
    ShowLog()
  elseif name == 'stop'
    rpc.Stop()
    tree.Reset()
  elseif index(['definition', 'backlinks', 'brokenlinks'], name) >= 0
    LinkCommand(name)
  elseif index(KEYS->mapnew((_, k) => k[1]) + COMMANDS, name) >= 0
    # The target is chosen before the binder opens and takes the cursor.
    var row = Target()
    if !rpc.IsRunning() && index(['help', 'close'], name) < 0
      OpenBinder()
    endif
    DoOn(name, row)
    Settle()
  else
    util.Show(1, printf('Carrel has no command "%s"; :help carrel-commands lists them.', name))
  endif
enddef

export def Complete(lead: string, line: string, position: number): list<string>
  return (['open'] + COMMANDS + KEYS->mapnew((_, k) => k[1]))->filter((_, c) => stridx(c, lead) == 0)
enddef

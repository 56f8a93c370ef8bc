vim9script
# The binder's rows: known by identity, fetched lazily, kept up to date from
# carrel/didChange. binder.vim draws them.

import autoload 'carrel/rpc.vim'
import autoload 'carrel/util.vim'
import autoload 'carrel/binder.vim'

const SEPARATOR = ' › '

var nodes: dict<dict<any>> = {}       # identity → the row's fields, without children
var kids: dict<list<string>> = {}     # identity → its children's identities, once fetched
var parents: dict<string> = {}        # identity → its parent's identity
var expanded: dict<bool> = {}
var roots: list<string> = []
var seen: dict<bool> = {}             # libraries and projects that had their first view
var first_view: dict<bool> = {}       # projects whose first section opens when they arrive
var expanding: dict<bool> = {}        # rows fetched for expand all: their children expand on arrival
var in_flight: dict<bool> = {}        # rows being fetched → asked again meanwhile
var queue: list<func> = []            # work the server's messages asked for, oldest first
var loading = false                   # the roots are being fetched
var queue_timer = 0
var working = false                   # a piece of the queue is running
var projects_held: dict<bool> = {}    # projects among the nodes, looked at on each change
var rows_walked = 0                   # rows listed by Shown() since Vim started

# Runs `Work` soon, after the work queued before it, one piece per timer:
# Vim reads every message that has come before it runs a timer, so a burst
# of answers and notifications applied as they are read would hold it up
# for all of them at once.
def Later(Work: func)
  queue->add(Work)
  # A piece that is running starts the next one itself when it ends.
  if queue_timer == 0 && !working
    queue_timer = timer_start(0, (_) => RunQueue())
  endif
enddef

def RunQueue()
  queue_timer = 0
  if empty(queue)
    return
  endif
  var Work: func = queue->remove(0)
  working = true
  try
    Work()
  finally
    working = false
    # Vim runs every timer that is due in one go, so a draw with a timer of
    # its own would run right after a piece of work, holding the editor for
    # both: the draw waits its turn here instead, when the work is done, or
    # every 100 ms of a long burst so that it shows as it goes. Also after a
    # piece that failed, so the queue never stops.
    if binder.DrawPending() && (empty(queue) || binder.SinceDrawn() >= 100.0)
      queue->insert(DrawIfPending, 0)
    endif
    if !empty(queue)
      queue_timer = timer_start(0, (_) => RunQueue())
    endif
  endtry
enddef

def DrawIfPending()
  if binder.DrawPending()
    binder.DrawNow()
  endif
enddef

# Whether the queue has work, its draws included.
export def Busy(): bool
  return working || queue_timer != 0
enddef

export def Key(node: dict<any>): string
  return get(node, 'id', get(node, 'uri', ''))
enddef

export def Node(key: string): dict<any>
  return get(nodes, key, {})
enddef

export def Parent(key: string): string
  return get(parents, key, '')
enddef

export def Children(key: string): list<string>
  return get(kids, key, [])
enddef

export def IsExpanded(key: string): bool
  return get(expanded, key, false)
enddef

# Whether the row's children have been fetched.
export def IsFetched(key: string): bool
  return has_key(kids, key)
enddef

export def Roots(): list<string>
  return roots
enddef

# Whether the roots are asked for and not answered yet: opening then waits
# for them instead of asking twice.
export def IsLoading(): bool
  return loading
enddef

# Forgets a row's descendants (and the row itself when `itself`). Their
# expansion stays, being kept by identity, unless the row left the disk.
def Forget(key: string, itself: bool, gone: bool = false)
  for child in get(kids, key, [])
    Forget(child, true, gone)
  endfor
  if has_key(kids, key)
    remove(kids, key)
  endif
  if itself
    var parent = get(parents, key, '')
    if has_key(kids, parent)
      kids[parent] = kids[parent]->filter((_, k) => k != key)
    endif
    for table in gone ? [nodes, parents, expanded] : [nodes, parents]
      if has_key(table, key)
        remove(table, key)
      endif
    endfor
  endif
enddef

def Store(node: dict<any>, parent: string): string
  var key = Key(node)
  var fields = copy(node)
  if has_key(fields, 'children')
    remove(fields, 'children')
  endif
  nodes[key] = fields
  if get(fields, 'kind', '') == 'project'
    projects_held[key] = true
  endif
  if parent != ''
    parents[key] = parent
  endif
  if has_key(node, 'children')
    var fresh = node.children->mapnew((_, child) => Store(child, key))
    var kept = {}
    for child in fresh
      kept[child] = true
      if nodes[child].kind == 'project' && !has_key(seen, child)
        # A project opens as the first view shows it, whenever it appears.
        seen[child] = true
        expanded[child] = true
        first_view[child] = true
      endif
    endfor
    for old in get(kids, key, [])
      if !has_key(kept, old) && get(parents, old, '') == key
        Forget(old, true)
      endif
    endfor
    kids[key] = fresh
  endif
  return key
enddef

def DepthFor(key: string): number
  return get(nodes[key], 'kind', '') == 'project' ? 2 : 1
enddef

# One question at a time per row: a change that comes while it is asked
# asks once more when the answer is in, so a burst of changes costs two
# listings of a folder, not one per change.
def Fetch(key: string)
  var node = get(nodes, key, {})
  if !has_key(node, 'uri')
    return
  endif
  if has_key(in_flight, key)
    in_flight[key] = true
    return
  endif
  in_flight[key] = false
  rpc.Request('carrel/tree', {uri: node.uri, depth: DepthFor(key)}, (result) => Later(() => Fetched(key, result)),
    (_) => Answered(key))
enddef

# The row's answer is in: ask again if a change came meanwhile.
def Answered(key: string)
  var again = get(in_flight, key, false)
  if has_key(in_flight, key)
    remove(in_flight, key)
  endif
  if again
    Fetch(key)
  endif
enddef

def Fetched(key: string, result: any)
  Answered(key)
  if type(result) != v:t_list || empty(result) || !has_key(nodes, key)
    return
  endif
  Store(result[0], get(parents, key, ''))
  if has_key(expanding, key)
    remove(expanding, key)
    for child in get(kids, key, [])
      ExpandKnown(child)
    endfor
  endif
  # Rows that were expanded before their parent was forgotten fetch again.
  for child in get(kids, key, [])
    if get(expanded, child, false) && !has_key(kids, child)
      Fetch(child)
    endif
  endfor
  if has_key(first_view, key)
    remove(first_view, key)
    var sections = get(kids, key, [])
    if !empty(sections)
      expanded[sections[0]] = true
    endif
  endif
  RetryReveal()
  binder.Draw()
enddef

# The roots, one level deep; a library's first view opens its projects and
# their first section.
export def Load()
  loading = true
  rpc.Request('carrel/tree', {depth: 1}, Loaded, (_) => {
    loading = false
  })
enddef

def Loaded(result: any)
  loading = false
  if type(result) != v:t_list
    return
  endif
  roots = result->mapnew((_, node) => Store(node, ''))
  for root in roots
    if has_key(seen, root)
      continue
    endif
    seen[root] = true
    expanded[root] = true
    var projects = nodes[root].kind == 'project' ? [root]
      : get(kids, root, [])->copy()->filter((_, k) => nodes[k].kind == 'project')
    for project in projects
      seen[project] = true
      expanded[project] = true
      first_view[project] = true
      Fetch(project)
    endfor
  endfor
  binder.Draw()
enddef

# Refetches the roots and every expanded row, as they are now on disk.
export def Refresh()
  Load()
  for key in keys(expanded)
    if expanded[key] && index(roots, key) < 0 && has_key(get(nodes, key, {}), 'uri')
      Fetch(key)
    endif
  endfor
enddef

export def Expand(key: string)
  var node = get(nodes, key, {})
  if empty(node) || node.kind == 'file'
    return
  endif
  expanded[key] = true
  if !has_key(kids, key)
    if has_key(node, 'uri')
      Fetch(key)
    elseif has_key(parents, key)
      Fetch(parents[key])
    endif
  endif
  binder.Draw()
enddef

export def Collapse(key: string)
  expanded[key] = false
  binder.Draw(key)
enddef

# Expands every row below `top` (every row, from the top rows, when '');
# what is not fetched yet comes one level at a time, each level asked for
# as the one above arrives, so the editor never waits for the whole.
# "All" stays closed: it lists again what its folders hold.
export def ExpandAll(top: string = '')
  for key in top == '' ? roots : [top]
    ExpandKnown(key)
  endfor
  binder.Draw()
enddef

def ExpandKnown(key: string)
  var node = nodes[key]
  if node.kind == 'file' || !get(node, 'hasChildren', false) || get(node, 'link', false)
      || get(node, 'role', '') == 'all'
    return
  endif
  expanded[key] = true
  if !has_key(kids, key)
    expanding[key] = true
    Fetch(key)
    return
  endif
  for child in kids[key]
    ExpandKnown(child)
  endfor
enddef

# Collapses everything below the top rows, so the projects stay in view.
export def CollapseAll()
  for key in keys(expanded)
    expanded[key] = index(roots, key) >= 0
  endfor
  binder.Draw()
enddef

# After a command: the cursor goes to this row once it is drawn. Every
# folder above it is expanded, and fetched on the way down, however deep
# (a move into a folder just made, into one never opened).
var reveal_uri = ''
var reveal_since = reltime()

export def Reveal(node: dict<any>)
  if type(node) != v:t_dict || !has_key(node, 'uri')
    return
  endif
  binder.Want(Key(node))
  reveal_uri = node.uri
  reveal_since = reltime()
  RetryReveal()
  binder.Draw()
enddef

# The row among `keys` that is `uri` or holds it, looking inside sections,
# never in "All"; and the section it was found in.
def Toward(keys: list<string>, uri: string): list<string>
  for key in keys
    var node = get(nodes, key, {})
    if get(node, 'kind', '') == 'section'
      var found = Toward(get(kids, key, []), uri)
      if found[0] != ''
        return [found[0], key]
      endif
    elseif has_key(node, 'uri') && !has_key(node, 'id') && !get(node, 'virtual', false)
        && util.IsAtOrUnder(uri, node.uri)
      return [key, '']
    endif
  endfor
  return ['', '']
enddef

# Walks down toward the row wanted, after each answer and change, until it
# is listed or a few seconds have passed (a change may still bring it).
def RetryReveal()
  if reveal_uri == ''
    return
  endif
  if reltimefloat(reltime(reveal_since)) > 3.0
    reveal_uri = ''
    return
  endif
  var at = roots
  var chain: list<string> = []
  while true
    var [key, section] = Toward(at, reveal_uri)
    if key == ''
      return
    endif
    if section != ''
      chain->add(section)
    endif
    if nodes[key].uri == reveal_uri
      reveal_uri = ''
      for above in chain
        expanded[above] = true
      endfor
      return
    endif
    chain->add(key)
    if !has_key(kids, key)
      for above in chain
        expanded[above] = true
      endfor
      Fetch(key)
      return
    endif
    at = kids[key]
  endwhile
enddef

# Touches a folder whose listing changed: refetch it if expanded, else
# forget its rows so that expanding it fetches them fresh.
def Touch(key: string, refetch: dict<bool>)
  if !has_key(nodes, key)
    return
  endif
  if get(expanded, key, false)
    refetch[key] = true
  elseif has_key(kids, key)
    Forget(key, false)
  endif
enddef

def ExpandedBelow(key: string, found: dict<bool>)
  for child in get(kids, key, [])
    if get(expanded, child, false) && has_key(nodes[child], 'uri')
      found[child] = true
    endif
    ExpandedBelow(child, found)
  endfor
enddef

export def OnDidChange(params: dict<any>)
  Later(() => ApplyChange(params))
enddef

def ApplyChange(params: dict<any>)
  # What the change does to the rows shown is told to the binder row by
  # row, unless a row the cursor is to go to is still being found.
  var patch = reveal_uri == '' && binder.CanPatch()
  var gone: list<string> = []
  var placed_rows: list<list<string>> = []
  var changed: list<string> = []
  for node in get(params, 'updated', [])
    var key = Key(node)
    if has_key(nodes, key)
      var fields = copy(node)
      if has_key(fields, 'children')
        remove(fields, 'children')
      endif
      nodes[key] = fields
      changed->add(key)
    endif
  endfor
  # The projects held, not every node held: a thousand rows are shown.
  filter(projects_held, (k, _) => get(get(nodes, k, {}), 'kind', '') == 'project')
  var projects = keys(projects_held)->filter((_, k) => has_key(nodes[k], 'uri'))
  var refetch: dict<bool> = {}
  # With placed rows, the listings are patched: only "All" and new orders are fetched.
  var placed = has_key(params, 'placed') && type(params.placed) == v:t_list
  # A burst names a thousand files in one folder: what a listing's change
  # touches depends on its folder alone, so each folder is weighed once.
  var weighed: dict<bool> = {}
  for change in get(params, 'changes', [])
    var kind = get(get(nodes, change.uri, {}), 'kind', '')
    # A project's or library's own `changed` is a setting, handled below; a
    # file's new times can move it in a folder sorted by date.
    var setting = change.type == 'changed' && (kind == 'project' || kind == 'library')
    var listings = setting ? [] : [get(change, 'uri', ''), get(change, 'oldUri', '')]
    for uri in listings
      if uri == ''
        continue
      endif
      var folder = util.Dirname(uri)
      if has_key(weighed, folder)
        continue
      endif
      weighed[folder] = true
      if !placed
        Touch(folder, refetch)
      endif
      for project in projects
        if util.IsAtOrUnder(folder, nodes[project].uri)
          Touch(nodes[project].uri .. '/.carrel/all', refetch)
        endif
      endfor
    endfor
    if setting
      Touch(change.uri, refetch)
      ExpandedBelow(change.uri, refetch)
    elseif change.type == 'changed' && kind == 'folder'
      # A folder's own `changed` means its order changed: its listing too.
      Touch(change.uri, refetch)
    endif
    if change.type == 'moved' && get(change, 'oldUri', '') != ''
      KeepOpen(change.oldUri, change.uri)
    endif
    var leaving = change.type == 'moved' ? get(change, 'oldUri', '') : change.type == 'deleted' ? change.uri : ''
    if leaving != '' && has_key(nodes, leaving)
      # A library's last project leaving brings back its note: drawn whole.
      patch = patch && nodes[leaving].kind != 'project' && index(roots, leaving) < 0
      gone->add(leaving)
      Forget(leaving, true, true)
    endif
  endfor
  if placed
    Place(params.placed, refetch, placed_rows)
  endif
  for key in keys(refetch)
    if has_key(nodes, key)
      Fetch(key)
    endif
  endfor
  RetryReveal()
  if patch
    binder.PatchRows(gone, placed_rows, changed)
  else
    binder.Draw()
  endif
enddef

# Puts each placed row in its listing, just after the row the server names,
# one pass per listing: a burst places two hundred rows in a listing of a
# thousand. A listing that lacks a row named is behind, and is fetched
# instead; so is one where a project appears (it opens as in the first
# view), and a folder open at its new place is fetched as when expanded.
def Place(placed: list<any>, refetch: dict<bool>, placed_rows: list<list<string>>)
  var groups: dict<list<dict<any>>> = {}
  var order: list<string> = []
  for p in placed
    var parent: string = get(p, 'parent', '')
    if !has_key(kids, parent) || type(get(p, 'node', v:none)) != v:t_dict
      continue
    endif
    if get(p.node, 'kind', '') == 'project'
      refetch[Listing(parent)] = true
      continue
    endif
    if !has_key(groups, parent)
      groups[parent] = []
      order->add(parent)
    endif
    groups[parent]->add(p)
  endfor
  for parent in order
    var moving: dict<bool> = {}
    var first: list<string> = []
    var following: dict<list<string>> = {}
    for p in groups[parent]
      var key = Key(p.node)
      moving[key] = true
      var after: string = get(p, 'after', '')
      if after == ''
        first->add(key)
      else
        following[after] = get(following, after, [])->add(key)
      endif
      if has_key(kids, key) && get(parents, key, '') != parent
        Forget(key, false)
      endif
      nodes[key] = copy(p.node)
      parents[key] = parent
      if get(expanded, key, false) && !has_key(kids, key) && has_key(p.node, 'uri')
        refetch[key] = true
      endif
    endfor
    if FewPlaced(groups[parent], moving, first)
      PlaceFew(parent, groups[parent], moving, refetch, placed_rows)
      continue
    endif
    var listing: list<string> = []
    Chain(first, following, listing, moving, placed_rows)
    var kept = 0
    for key in kids[parent]
      if has_key(moving, key)
        continue
      endif
      kept += 1
      # Most rows of a thousand have none placed after them.
      if has_key(following, key)
        Chain([key], following, listing, moving, placed_rows)
      else
        listing->add(key)
      endif
    endfor
    if len(listing) != kept + len(moving)
      refetch[Listing(parent)] = true
    endif
    kids[parent] = listing
  endfor
enddef

# Whether a listing's placed rows are few, each after a row that stays or
# first (one at most), so that each can be put in by a search of the listing
# rather than a walk of its thousand rows in script.
def FewPlaced(group: list<dict<any>>, moving: dict<bool>, first: list<string>): bool
  if len(group) > 16 || len(moving) != len(group) || len(first) > 1
    return false
  endif
  for p in group
    if has_key(moving, get(p, 'after', ''))
      return false
    endif
  endfor
  return true
enddef

# Puts few rows in their listing: each leaves its old place, then goes just
# after the row the server names (after the ones already put there). A row
# named that the listing lacks means it is behind: it is fetched.
def PlaceFew(parent: string, group: list<dict<any>>, moving: dict<bool>, refetch: dict<bool>,
    placed_rows: list<list<string>>)
  var listing = copy(kids[parent])
  for key in keys(moving)
    var at = index(listing, key)
    if at >= 0
      remove(listing, at)
    endif
  endfor
  var put_after: dict<number> = {}
  for p in group
    var key = Key(p.node)
    var after: string = get(p, 'after', '')
    var at = after == '' ? 0 : index(listing, after) + 1
    if after != '' && at == 0
      refetch[Listing(parent)] = true
      continue
    endif
    at += get(put_after, after, 0)
    put_after[after] = get(put_after, after, 0) + 1
    listing->insert(key, at)
    placed_rows->add([key, at == 0 ? '' : listing[at - 1]])
  endfor
  kids[parent] = listing
enddef

# Adds `start` to `out`, each followed by the rows placed after it, and so
# on; the `moving` rows among them also to `placed_rows`, in listing order,
# each with the row before it ('' for the first).
def Chain(start: list<string>, following: dict<list<string>>, out: list<string>, moving: dict<bool>,
    placed_rows: list<list<string>>)
  var stack = reverse(copy(start))
  while !empty(stack)
    var key = remove(stack, -1)
    if has_key(moving, key)
      placed_rows->add([key, empty(out) ? '' : out[-1]])
    endif
    out->add(key)
    stack->extend(reverse(copy(get(following, key, []))))
  endwhile
enddef

# The row to fetch for a listing: a section's comes with its project.
def Listing(key: string): string
  return has_key(get(nodes, key, {}), 'uri') ? key : get(parents, key, key)
enddef

# A folder renamed or moved stays open at its new place, and so does what
# was open inside it.
def KeepOpen(old: string, new: string)
  for table in [expanded, seen]
    for key in keys(table)->filter((_, k) => util.IsAtOrUnder(k, old))
      table[new .. strpart(key, strlen(old))] = table[key]
    endfor
  endfor
enddef

# The titles from the library down to the row, without section headers.
export def Breadcrumb(key: string): string
  var titles: list<string> = []
  var at = key
  while at != ''
    var node = get(nodes, at, {})
    if !empty(node) && node.kind != 'section'
      titles->insert(get(node, 'title', get(node, 'name', '')))
    endif
    at = get(parents, at, '')
  endwhile
  return join(titles, SEPARATOR)
enddef

# The rows shown, in display order, each {key, depth}; under an open
# library that holds no project, its note {key: '', library, depth}.
# A listing's rows are added in one loop, only open folders walked into:
# drawing a folder of thousands makes no call per row.
export def Shown(): list<dict<any>>
  var out: list<dict<any>> = []
  for root in roots
    ShownFrom(root, 0, out)
  endfor
  rows_walked += len(out)
  return out
enddef

# How many rows Shown() has listed so far: a change the binder patches row
# by row lists none.
export def RowsWalked(): number
  return rows_walked
enddef

def ShownFrom(key: string, depth: number, out: list<dict<any>>)
  out->add({key: key, depth: depth})
  if !get(expanded, key, false) || !has_key(kids, key)
    return
  endif
  var children = kids[key]
  for child in children
    if get(expanded, child, false) && has_key(kids, child)
      ShownFrom(child, depth + 1, out)
    else
      out->add({key: child, depth: depth + 1})
    endif
  endfor
  if get(get(nodes, key, {}), 'kind', '') == 'library' && !HasProject(children)
    out->add({key: '', library: key, depth: depth + 1})
  endif
enddef

# Stops at the first project: a library root may hold thousands of files.
def HasProject(keys: list<string>): bool
  for key in keys
    if get(get(nodes, key, {}), 'kind', '') == 'project'
      return true
    endif
  endfor
  return false
enddef

# Forgets everything (after the server stops).
export def Reset()
  binder.Reset()
  nodes = {}
  projects_held = {}
  kids = {}
  parents = {}
  expanded = {}
  roots = []
  seen = {}
  first_view = {}
  in_flight = {}
  loading = false
  queue = []
  if queue_timer != 0
    timer_stop(queue_timer)
    queue_timer = 0
  endif
enddef

vim9script
# Opening at once: the preload starts the server and fetches the first view
# in the background, into the binder's hidden buffer, so that a later
# :Carrel only shows it. It runs as Vim starts (plugin/carrel.vim) and with
# `:Carrel preload`, and starts nothing where no library holds a project (a
# home folder, say).

import autoload 'carrel/config.vim'
import autoload 'carrel/rpc.vim'
import autoload 'carrel/tree.vim'
import autoload 'carrel/binder.vim'

# Whether `folder` holds a plain project.json of its own. getftype() does not
# follow the last link and opens nothing, so a link or a named pipe there
# does not count and never blocks; `.carrel` itself must not be a link.
def IsProject(folder: string): bool
  return getftype(folder .. '/.carrel') == 'dir' && getftype(folder .. '/.carrel/project.json') == 'file'
enddef

# Whether `folder` is a project or has one among its children: one listing
# of the folder, nothing deeper. Hidden children and links are not part of
# the binder (the server never enters a link), so they are not looked into.
export def HoldsProject(folder: string): bool
  if IsProject(folder)
    return true
  endif
  var names: list<string> = []
  try
    names = readdir(folder, (name) => name !~ '^\.')
  catch
    # An unreadable folder holds nothing the binder could show.
    return false
  endtry
  for name in names
    var child = folder .. '/' .. name
    if getftype(child) == 'dir' && IsProject(child)
      return true
    endif
  endfor
  return false
enddef

# As Vim starts: the preload, unless g:carrel.preload turns it off. Where no
# folder holds a project it lists one folder and starts nothing.
export def AtStartup()
  if config.Get().preload
    Preload()
  endif
enddef

# Starts the server and fetches the first view, drawn into the binder's
# buffer without showing it. Does nothing where no library holds a project,
# or when the server is already running or the binder already loaded.
export def Preload()
  # The folders first: where none holds a project, nothing more is loaded.
  if config.Folders()->filter((_, folder) => HoldsProject(folder))->empty()
    return
  endif
  if rpc.IsRunning() || !empty(tree.Roots())
    return
  endif
  # A start that cannot be made says why, as opening says it.
  if !rpc.CanStart()
    return
  endif
  binder.Prepare()
  # The roots are asked for right behind initialize: an open meanwhile sees
  # them on their way and does not ask again.
  if rpc.Start(() => 0, true)
    tree.Load()
  endif
enddef

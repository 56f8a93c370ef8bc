vim9script
# The options live in one dictionary, g:carrel. Each is checked before the
# server starts, so a typo is named at once instead of acting as a default.

const defaults: dict<any> = {
  cmd: ['carrel', 'lsp'],
  folders: [],
  width: 40,
  side: 'left',
  icons: 'text',
  locale: '',
  log_size: 0,
  question_timeout: 0,
  preload: true,
}

def Describe(value: any): string
  return typename(value) .. ' ' .. string(value)
enddef

def IsStringList(value: any): bool
  return type(value) == v:t_list && value->copy()->filter((_, item) => type(item) != v:t_string)->empty()
enddef

# Why `value` is wrong for option `name`, or '' when it is right.
def Check(name: string, value: any): string
  if name == 'cmd'
    if !IsStringList(value) || empty(value)
      return 'must be a non-empty list of strings, the server and its arguments, such as ["carrel", "lsp"]'
    endif
  elseif name == 'folders'
    if !IsStringList(value)
      return 'must be a list of folder paths, such as ["~/Writing"]'
    endif
    for folder in value
      if !isdirectory(expand(folder))
        return printf('names "%s", which is not a folder', folder)
      endif
    endfor
    return ''
  elseif name == 'width'
    if type(value) != v:t_number || value < 10 || value > 300
      return 'must be a whole number of columns from 10 to 300'
    endif
  elseif name == 'side'
    if type(value) != v:t_string || index(['left', 'right'], value) < 0
      return 'must be "left" or "right"'
    endif
  elseif name == 'icons'
    if type(value) != v:t_string || index(['text', 'glyphs'], value) < 0
      return 'must be "text" (plain characters, the default) or "glyphs" (pictures your font must have)'
    endif
  elseif name == 'locale'
    if type(value) != v:t_string
      return 'must be a string such as "fr" or "en", or "" for Vim''s own language'
    endif
  elseif name == 'question_timeout'
    if (type(value) != v:t_number && type(value) != v:t_float) || value < 0
      return 'must be a number of seconds, or 0 for the server''s own (120)'
    endif
  elseif name == 'preload'
    if type(value) != v:t_bool && (type(value) != v:t_number || (value != 0 && value != 1))
      return 'must be true (start the server as Vim starts in a library, the default) or false'
    endif
  elseif name == 'log_size'
    if type(value) != v:t_number || value < 0
      return 'must be a whole number of messages, 0 or more'
    endif
  endif
  return ''
enddef

# Every problem with g:carrel, each a sentence that names the option.
export def Problems(): list<string>
  if !exists('g:carrel')
    return []
  endif
  if type(g:carrel) != v:t_dict
    return ['g:carrel must be a dictionary, such as {width: 40}, not ' .. Describe(g:carrel) .. '.']
  endif
  var problems: list<string> = []
  for name in sort(keys(g:carrel))
    if !has_key(defaults, name)
      problems->add(printf('g:carrel has no option "%s"; the options are %s.', name, join(sort(keys(defaults)), ', ')))
      continue
    endif
    var why = Check(name, g:carrel[name])
    # A folder that is missing is named by itself: the whole list after it
    # would bury it.
    if why =~ '^names '
      problems->add(printf('g:carrel.%s %s.', name, why))
    elseif why != ''
      problems->add(printf('g:carrel.%s %s, not %s.', name, why, Describe(g:carrel[name])))
    endif
  endfor
  return problems
enddef

# The options in force: the defaults, overridden by g:carrel's valid entries.
export def Get(): dict<any>
  var options = deepcopy(defaults)
  if exists('g:carrel') && type(g:carrel) == v:t_dict
    for [name, value] in items(g:carrel)
      if has_key(defaults, name) && Check(name, value) == ''
        options[name] = value
      endif
    endfor
  endif
  return options
enddef

# The library folders the server opens: the configured ones, as full paths
# without a trailing slash, else the current directory.
export def Folders(): list<string>
  var folders = Get().folders
  if empty(folders)
    return [getcwd()]
  endif
  return folders->mapnew((_, f) => substitute(fnamemodify(expand(f), ':p'), '/$', '', ''))
enddef

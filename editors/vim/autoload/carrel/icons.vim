vim9script
# The server names icons with SF Symbols. Vim has no icon provider, so rows
# show plain characters unless g:carrel.icons is "glyphs".

import autoload 'carrel/config.vim'

# SF Symbol name → [plain text, glyph]. Links and unreadable folders say so
# with their own icon.
const table: dict<list<string>> = {
  'books.vertical': ['#', '📚'],
  'folder.badge.person.crop': ['@', '🗂'],
  'list.bullet': ['', ''],
  'folder': ['/', '📁'],
  'doc.text': ['.', '📄'],
  'globe': ['*', '🌐'],
  'doc.badge.ellipsis': ['=', '📝'],
  'checkmark.circle': ['=', '✅'],
  'archivebox': ['=', '🗃'],
  'book.circle': ['=', '📖'],
  'paperplane': ['=', '📨'],
  'magnifyingglass': ['=', '🔍'],
  'magazine': ['=', '📰'],
  'medal': ['=', '🏅'],
  'person.2': ['=', '👥'],
  'tray': ['=', '📥'],
  'book.closed.fill': ['=', '📕'],
  'document.on.document': ['=', '📑'],
  'document.badge.plus': ['=', '🗒'],
  'person.circle': ['=', '👤'],
  'mountain.2': ['=', '⛰'],
  'trash': ['~', '🗑'],
  'link': ['>', '🔗'],
  'unreadable': ['!', '⚠'],
}

export def For(node: dict<any>): string
  return Of(node, Column())
enddef

# Which of the table's columns the options ask for; read once per drawing.
export def Column(): number
  return config.Get().icons == 'glyphs' ? 1 : 0
enddef

export def Of(node: dict<any>, column: number): string
  var symbol = get(node, 'link', false) ? 'link' : get(node, 'unreadable', false) ? 'unreadable' : get(node, 'icon', '')
  return has_key(table, symbol) ? table[symbol][column] : (column == 1 ? '•' : '=')
enddef

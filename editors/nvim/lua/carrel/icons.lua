-- The server names icons with SF Symbols; a terminal has Nerd Font glyphs or plain text.
local M = {}

-- Font Awesome 4 glyphs (U+F000–U+F2E0), present in every Nerd Font release.
M.glyphs = {
  ['books.vertical'] = '',          -- nf-fa-book (libraries, Collections)
  ['folder.badge.person.crop'] = '', -- nf-fa-briefcase (projects)
  ['list.bullet'] = '',             -- nf-fa-list (section headers)
  ['folder'] = '',                  -- nf-fa-folder
  ['folder.open'] = '',             -- nf-fa-folder_open (an expanded folder)
  ['doc.text'] = '',                -- nf-fa-file_text_o
  ['globe'] = '',                   -- nf-fa-globe (All)
  ['doc.badge.ellipsis'] = '',      -- nf-fa-pencil_square_o (Draft)
  ['checkmark.circle'] = '',        -- nf-fa-check_circle (Ready)
  ['archivebox'] = '',              -- nf-fa-archive (Set Aside)
  ['book.circle'] = '',             -- nf-fa-bookmark (Published)
  ['paperplane'] = '',              -- nf-fa-paper_plane (Submissions)
  ['magnifyingglass'] = '',         -- nf-fa-search (Research)
  ['magazine'] = '',                -- nf-fa-newspaper_o
  ['medal'] = '',                   -- nf-fa-trophy
  ['person.2'] = '',                -- nf-fa-users
  ['tray'] = '',                    -- nf-fa-inbox
  ['book.closed.fill'] = '',        -- nf-fa-book
  ['document.on.document'] = '',    -- nf-fa-files_o
  ['document.badge.plus'] = '',     -- nf-fa-plus_square_o
  ['person.circle'] = '',           -- nf-fa-user_circle
  ['mountain.2'] = '',              -- nf-fa-map
  ['trash'] = '',                   -- nf-fa-trash
  ['link'] = '',                    -- nf-fa-link
}

M.fallback_glyph = '' -- nf-fa-question_circle_o, for symbols this map does not know

-- Plain labels for `icons = false`: what the row is, in a few letters.
function M.label(node)
  if node.link then return '[@]' end
  if node.kind == 'library' then return '[L]' end
  if node.kind == 'project' then return '[P]' end
  if node.kind == 'section' then return '[S]' end
  if node.kind == 'file' then return '[F]' end
  if node.role == 'trash' then return '[T]' end
  if node.role == 'all' then return '[A]' end
  if node.permanent then return '[*]' end
  return '[D]'
end

--- The icon text for a node: a glyph, or a plain label when `icons = false`.
function M.for_node(node, expanded)
  local option = require('carrel').config.icons
  if option == false then return M.label(node) end
  local symbol = node.link and 'link' or node.icon
  if symbol == 'folder' and expanded then symbol = 'folder.open' end
  local custom = type(option) == 'table' and option or {}
  return custom[symbol] or M.glyphs[symbol] or custom[node.icon] or M.glyphs[node.icon] or M.fallback_glyph
end

return M

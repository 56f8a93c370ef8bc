-- The server names icons with SF Symbols; a terminal shows plain text, or Nerd Font glyphs when asked.
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
  ['lock'] = '\u{f023}',              -- nf-fa-lock (a folder Carrel may not read)
}

M.fallback_glyph = '\u{f059}' -- nf-fa-question_circle_o, for symbols this map does not know

--- Plain text that every font has, one mark per SF Symbol name: the same
--- marks as Vim and Emacs draw, so the terminal editors show the same rows.
M.marks = {
  ['books.vertical'] = '#',
  ['folder.badge.person.crop'] = '@',
  ['list.bullet'] = '',
  ['folder'] = '/',
  ['doc.text'] = '.',
  ['globe'] = '*',
  ['trash'] = '~',
  ['link'] = '>',
  ['lock'] = '!',
}

--- A permanent folder's own symbol (Draft, Ready, …) shows as `=`.
function M.text(node)
  local symbol = node.link and 'link' or (node.unreadable and 'lock') or node.icon
  return M.marks[symbol] or '='
end

local providers = { 'nvim-web-devicons', 'mini.icons' }

--- Whether an icon plugin is installed: a writer who has one has a Nerd Font.
--- Asked once, since every row of every redraw needs the answer.
local provider_found
local function provider_present()
  if provider_found == nil then
    provider_found = false
    for _, name in ipairs(providers) do
      local file = 'lua/' .. name:gsub('%.', '/')
      local installed = #vim.api.nvim_get_runtime_file(file .. '.lua', false) > 0
        or #vim.api.nvim_get_runtime_file(file .. '/init.lua', false) > 0
      if package.loaded[name] or installed then provider_found = true end
    end
  end
  return provider_found
end

--- The icon text for a node, by the `icons` option: 'text', 'nerd', 'auto'
--- (Nerd Font glyphs when an icon plugin is installed), or a table of glyphs
--- that replaces Nerd Font glyphs per SF Symbol name.
function M.for_node(node, expanded)
  local option = require('carrel').config.icons
  if option == 'text' or (option == 'auto' and not provider_present()) then return M.text(node) end
  local symbol = node.link and 'link' or (node.unreadable and 'lock') or node.icon
  local custom = type(option) == 'table' and option or {}
  if symbol == 'folder' and expanded then
    -- A writer who gave a folder glyph of their own keeps it open too,
    -- rather than meeting a Nerd Font glyph their font may not have.
    return custom['folder.open'] or custom.folder or M.glyphs['folder.open']
  end
  return custom[symbol] or M.glyphs[symbol] or custom[node.icon] or M.glyphs[node.icon] or M.fallback_glyph
end

return M

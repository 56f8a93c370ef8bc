-- How one row of the sidebar reads: indent, fold marker, icon, title, counts.
local icons = require('carrel.icons')
local highlights = require('carrel.highlights')

local M = {}

local function config() return require('carrel').config end

local function counts_text(node)
  if not config().counts or node.kind == 'file' then return '' end
  local folders, files = node.folderCount or 0, node.fileCount or 0
  if folders == 0 and files == 0 then return '' end
  if files == 0 then return ('%d ▸'):format(folders) end
  if folders == 0 then return ('▸ %d'):format(files) end
  return ('%d ▸ %d'):format(folders, files)
end

local function fold_marker(row, expanded)
  if not row.node.hasChildren then return '  ' end
  if config().icons == false then return expanded and '- ' or '+ ' end
  return expanded and '\u{f078} ' or '\u{f054} ' -- nf-fa-chevron_down / chevron_right
end

--- One row's text and where its parts are, for highlighting.
function M.line(row, is_expanded)
  local node = row.node
  local expanded = node.hasChildren and is_expanded(row.id, node)
  local indent = string.rep('  ', row.depth) .. fold_marker(row, expanded)
  local icon = icons.for_node(node, expanded)
  local title = node.title or node.name
  local counts = counts_text(node)
  local text = indent .. icon .. ' ' .. title .. (counts ~= '' and ('  ' .. counts) or '')
  local icon_start = #indent
  local title_start = icon_start + #icon + 1
  return text, {
    { 'CarrelIcon', icon_start, icon_start + #icon },
    { highlights.for_node(node), title_start, title_start + #title },
    counts ~= '' and { 'CarrelCount', #text - #counts, #text } or nil,
  }
end

return M

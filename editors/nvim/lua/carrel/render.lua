-- How one row of the sidebar reads: indent, icon, title, then the server's summary.
local icons = require('carrel.icons')
local highlights = require('carrel.highlights')

local M = {}

--- One row's text and where its parts are, for highlighting.
function M.line(row, is_expanded)
  local node = row.node
  local indent = string.rep('  ', row.depth)
  if node.kind == 'hint' then
    return indent .. node.title, { { 'CarrelHint', #indent, #indent + #node.title } }
  end
  local expanded = node.hasChildren and is_expanded(row.id) or false
  local icon = icons.for_node(node, expanded)
  local title = node.title or node.name
  local summary = require('carrel').config.counts and node.summary or nil
  -- A section header has no mark, and no space for one.
  local gap = icon == '' and '' or ' '
  local text = indent .. icon .. gap .. title .. (summary and ('  ' .. summary) or '')
  local icon_start = #indent
  local title_start = icon_start + #icon + #gap
  return text, {
    { 'CarrelIcon', icon_start, icon_start + #icon },
    { highlights.for_node(node), title_start, title_start + #title },
    summary and { 'CarrelCount', #text - #summary, #text } or nil,
  }
end

return M

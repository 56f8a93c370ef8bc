-- How one row of the sidebar reads: indent, icon, title, then the server's summary.
local icons = require('carrel.icons')
local highlights = require('carrel.highlights')

local M = {}

--- One row's text and where its parts are, for highlighting. A summary
--- that would not fit in `width` columns goes whole rather than being cut;
--- a hint too wide for them takes its short form.
function M.line(row, is_expanded, width)
  local node = row.node
  local indent = string.rep('  ', row.depth)
  local function fits(text) return not width or vim.fn.strdisplaywidth(text) <= width end
  if node.kind == 'hint' then
    local hint = node.title
    if node.short and not fits(indent .. hint) then hint = node.short end
    return indent .. hint, { { 'CarrelHint', #indent, #indent + #hint } }
  end
  local expanded = node.hasChildren and is_expanded(row.id) or false
  local icon = icons.for_node(node, expanded)
  local title = node.title or node.name
  local summary = require('carrel').config.counts and node.summary or nil
  -- A section header has no mark, and no space for one.
  local gap = icon == '' and '' or ' '
  if summary and not fits(indent .. icon .. gap .. title .. '  ' .. summary) then summary = nil end
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

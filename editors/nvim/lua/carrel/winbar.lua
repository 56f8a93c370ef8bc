-- The breadcrumb (Library › Project › Draft › Act 1) drawn in the sidebar's own winbar.
local M = {}

local SEPARATOR = ' › '

local function escape(text) return (text:gsub('%%', '%%%%')) end

--- A winbar string for a breadcrumb, with the separators dimmed.
function M.format(breadcrumb)
  local parts = vim.split(breadcrumb, SEPARATOR, { plain = true })
  for index, part in ipairs(parts) do parts[index] = escape(part) end
  local separator = '%#CarrelBreadcrumbSeparator#' .. SEPARATOR .. '%#CarrelBreadcrumb#'
  return '%#CarrelBreadcrumb#' .. table.concat(parts, separator)
end

return M

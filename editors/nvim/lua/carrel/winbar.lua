-- Breadcrumbs (Library › Project › Draft › Act 1) in the winbar of library files.
local util = require('carrel.util')

local M = {}

local SEPARATOR = ' › '
local group = vim.api.nvim_create_augroup('carrel_winbar', { clear = true })

local function escape(text) return (text:gsub('%%', '%%%%')) end

--- A winbar string for a breadcrumb, with the separators dimmed.
function M.format(breadcrumb)
  local parts = vim.split(breadcrumb, SEPARATOR, { plain = true })
  for index, part in ipairs(parts) do parts[index] = escape(part) end
  return '%#CarrelBreadcrumb#' .. table.concat(parts, '%#CarrelBreadcrumbSeparator#' .. SEPARATOR .. '%#CarrelBreadcrumb#')
end

--- The breadcrumb of a file path, or nil when it is in no library.
function M.breadcrumb(path)
  if not path or path == '' then return nil end
  local tree = require('carrel.tree')
  for _, library in ipairs(require('carrel.client').libraries()) do
    local rest = util.relative(path, library)
    if rest then
      local titles = { tree.title_of(library) or util.basename(library) }
      local current = library
      for part in rest:gmatch('[^/]+') do
        current = current .. '/' .. part
        table.insert(titles, tree.title_of(current) or part)
      end
      return table.concat(titles, SEPARATOR)
    end
  end
  return nil
end

--- Sets or clears the winbar of one window showing a file buffer.
function M.update(win)
  if not vim.api.nvim_win_is_valid(win) then return end
  local buf = vim.api.nvim_win_get_buf(win)
  if buf == require('carrel.tree').buffer() or vim.bo[buf].buftype ~= '' then return end
  local crumb = require('carrel').config.winbar and M.breadcrumb(vim.fs.normalize(vim.api.nvim_buf_get_name(buf)))
  if crumb then
    vim.wo[win].winbar = M.format(crumb)
    vim.w[win].carrel_winbar = true
  elseif vim.w[win].carrel_winbar then
    -- Only clear a winbar that we set.
    vim.wo[win].winbar = ''
    vim.w[win].carrel_winbar = nil
  end
end

function M.update_all()
  for _, win in ipairs(vim.api.nvim_list_wins()) do M.update(win) end
end

function M.setup()
  vim.api.nvim_clear_autocmds({ group = group })
  vim.api.nvim_create_autocmd({ 'BufWinEnter', 'BufFilePost', 'WinEnter' }, {
    group = group,
    callback = util.guard(function() M.update(vim.api.nvim_get_current_win()) end),
  })
end

return M

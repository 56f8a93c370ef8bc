-- Highlight groups, linked to standard groups so every colour scheme covers them.
local M = {}

M.groups = {
  CarrelLibrary = 'Title',
  CarrelProject = 'Directory',
  CarrelSection = 'Special',
  CarrelPermanent = 'Statement',
  CarrelFolder = 'Directory',
  CarrelFile = 'Normal',
  CarrelIcon = 'Type',
  CarrelCount = 'Comment',
  CarrelHint = 'Comment',
  CarrelTrashed = 'Comment',
  CarrelLink = 'Underlined',
  CarrelUnreadable = 'ErrorMsg',
  CarrelBreadcrumb = 'WinBar',
  CarrelBreadcrumbSeparator = 'NonText',
}

local function define()
  for group, link in pairs(M.groups) do
    vim.api.nvim_set_hl(0, group, { link = link, default = true })
  end
end

function M.setup()
  define()
  -- A colour scheme starts with :hi clear, which drops our links.
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('carrel_highlights', { clear = true }),
    callback = define,
  })
end

--- The group for a node's title.
function M.for_node(node)
  if node.unreadable then return 'CarrelUnreadable' end
  if node.link then return 'CarrelLink' end
  if node.inTrash then return 'CarrelTrashed' end
  if node.kind == 'library' then return 'CarrelLibrary' end
  if node.kind == 'project' then return 'CarrelProject' end
  if node.kind == 'section' then return 'CarrelSection' end
  if node.permanent then return 'CarrelPermanent' end
  if node.kind == 'folder' then return 'CarrelFolder' end
  return 'CarrelFile'
end

return M

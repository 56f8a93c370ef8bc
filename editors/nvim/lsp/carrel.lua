-- For Neovim 0.11's vim.lsp.enable('carrel'): stock LSP features, such as
-- vim.lsp.buf.workspace_symbol(), over the folders and files of a Carrel project.
return {
  cmd = { 'carrel', 'lsp' },
  -- Every project keeps its settings in a `.carrel` folder.
  root_markers = { '.carrel' },
  workspace_required = true,
  -- Neovim opens a folder found by workspace_symbol as a directory listing,
  -- so folders are asked for; carrel/didChange is not, having no handler here.
  capabilities = { experimental = { carrel = { folderSymbols = true } } },
}

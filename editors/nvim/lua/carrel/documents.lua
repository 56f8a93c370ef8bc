-- The writer's own Markdown and Fountain buffers of the libraries, attached to
-- the binder's client. The server then holds their unsaved text, so the link
-- updates of a rename reach them through workspace/applyEdit (which vim.lsp
-- applies to the buffer, never to the file), and stock vim.lsp works there:
-- definition (CTRL-]), references (grr), broken links as diagnostics.
local util = require('carrel.util')

local M = {}

-- The extensions the server reads as Markdown or Fountain.
local EXTENSIONS = { md = true, markdown = true, mdown = true, mkd = true, fountain = true, spmd = true }

--- Whether `buf` is a Markdown or Fountain file below one of `libraries`.
function M.wants(buf, libraries)
  if not vim.api.nvim_buf_is_loaded(buf) or vim.bo[buf].buftype ~= '' then return false end
  local name = vim.api.nvim_buf_get_name(buf)
  local extension = name:match('%.([^./]+)$')
  if not extension or not EXTENSIONS[extension:lower()] then return false end
  local path = vim.fs.normalize(name)
  for _, library in ipairs(libraries) do
    local rest = util.relative(path, library)
    if rest and rest ~= '' then return true end
  end
  return false
end

local function attach(buf, client_id, libraries)
  if M.wants(buf, libraries) then vim.lsp.buf_attach_client(buf, client_id) end
end

local function attached(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and client.attached_buffers[buf] == true
end

--- Attaches the client to every buffer it wants now, and to each one read,
--- made or renamed later while it runs.
function M.start(client_id, libraries)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do attach(buf, client_id, libraries) end
  local group = vim.api.nvim_create_augroup('carrel_documents', { clear = true })
  local function running()
    return vim.lsp.get_client_by_id(client_id) ~= nil
  end
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    callback = function(event)
      if not running() then return true end
      -- After the event, when the buffer's name and text are settled.
      vim.schedule(function()
        if vim.api.nvim_buf_is_valid(event.buf) then attach(event.buf, client_id, libraries) end
      end)
    end,
  })
  -- A buffer that follows its file, or is saved under another name, is
  -- closed under the old URI and opened under the new one: vim.lsp would go
  -- on sending its changes under a URI the server never saw opened.
  vim.api.nvim_create_autocmd('BufFilePre', {
    group = group,
    callback = function(event)
      if not running() then return true end
      if attached(event.buf, client_id) then
        vim.lsp.buf_detach_client(event.buf, client_id)
      end
    end,
  })
  vim.api.nvim_create_autocmd('BufFilePost', {
    group = group,
    callback = function(event)
      if not running() then return true end
      attach(event.buf, client_id, libraries)
    end,
  })
end

return M

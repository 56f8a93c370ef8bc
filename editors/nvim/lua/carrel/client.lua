-- The sidebar's connection to `carrel lsp`, through Neovim's own vim.lsp client.
local util = require('carrel.util')

local M = {}

local client_id
local waiting = {} -- callbacks for when the server has answered `initialize`
local has_011 = vim.fn.has('nvim-0.11') == 1

--- The command that runs the server, or nil and why not.
function M.command()
  local cmd = require('carrel').config.cmd
  if type(cmd) == 'table' then return cmd end
  local binary = cmd or 'carrel'
  local found = vim.fn.exepath(binary)
  if found == '' then
    return nil, ('Carrel cannot find the `%s` program. Install Carrel, or set `cmd` in require("carrel").setup().')
      :format(binary)
  end
  return { found, 'lsp' }
end

local running_libraries -- what the server was started with, so a later :cd changes nothing

--- Library folders: the configured ones, else the current directory.
function M.libraries()
  if running_libraries then return running_libraries end
  local configured = require('carrel').config.libraries
  local paths = {}
  for _, path in ipairs(configured or { vim.fn.getcwd() }) do
    local absolute = vim.fs.normalize(vim.fn.fnamemodify(vim.fn.expand(path), ':p'))
    table.insert(paths, (absolute:gsub('(.)/$', '%1')))
  end
  return paths
end

function M.workspace_folders()
  return vim.tbl_map(function(path)
    return { uri = util.uri_of(path), name = util.basename(path) }
  end, M.libraries())
end

local function live_client()
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if client then
    local stopped
    if has_011 then stopped = client:is_stopped() else stopped = client.is_stopped() end
    if not stopped then return client end
  end
  client_id = nil
  return nil
end

local function flush(client)
  local queued = waiting
  waiting = {}
  for _, waiter in ipairs(queued) do waiter.ready(client) end
end

local function fail_all(why)
  local queued = waiting
  waiting, running_libraries = {}, nil
  for _, waiter in ipairs(queued) do waiter.failed(why) end
end

--- Calls `ready(client)` once the server is running and initialized, or
--- `failed(message)` when it cannot start. `ahead` ({ method, params }), a
--- tree request that starts the server, goes out right behind `initialize`
--- (see carrel.rpc): the first view costs no round trip of its own.
function M.with_client(ready, failed, ahead)
  local client = live_client()
  if client and client.initialized then return ready(client) end
  table.insert(waiting, { ready = ready, failed = failed or function(why) util.notify(why, vim.log.levels.ERROR) end })
  if client then return end
  local cmd, why = M.command()
  if not cmd then return fail_all(why) end
  local folders = M.workspace_folders()
  running_libraries = M.libraries()
  local config = {
    name = 'carrel',
    cmd = function(dispatchers) return require('carrel.rpc').start(cmd, dispatchers, ahead) end,
    root_dir = running_libraries[1],
    workspace_folders = folders,
    handlers = require('carrel.handlers'),
    -- The Carrel extensions these handlers understand (PROTOCOL.md, "Lifecycle").
    capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), {
      experimental = { carrel = { didChange = true, folderSymbols = true } },
    }),
    before_init = function(params) params.locale = util.locale() end,
    on_init = function(started)
      vim.schedule(function()
        require('carrel.documents').start(started.id, running_libraries or {})
        flush(started)
      end)
    end,
    on_exit = function(code, _, exited_id)
      -- A client stopped by setup() may exit after its successor started.
      if exited_id ~= client_id then return end
      client_id, running_libraries = nil, nil
      if #waiting > 0 then
        fail_all(('The Carrel server stopped before it was ready (exit code %d). `:Carrel log` shows why.')
          :format(code))
      elseif code ~= 0 and code ~= 143 then
        local stopped = ('The Carrel server stopped (exit code %d). `:Carrel log` shows why.'):format(code)
        util.notify(stopped, vim.log.levels.WARN)
      end
    end,
  }
  if has_011 then
    -- Never share a client started by vim.lsp.enable('carrel'): it lacks our handlers.
    client_id = vim.lsp.start(config, { attach = false, reuse_client = function() return false end })
  else
    client_id = vim.lsp.start_client(config)
  end
  if not client_id then fail_all('The Carrel server did not start. `:Carrel log` shows why.') end
end

--- Sends a request; `callback(err, result)` runs without throwing at the writer,
--- also with an error when the server cannot start.
function M.request(method, params, callback)
  local handler = util.guard(function(err, result) callback(err, result) end)
  M.with_client(function(client)
    if has_011 then
      client:request(method, params, handler)
    else
      client.request(method, params, handler)
    end
  end, function(why) handler({ code = -32099, message = why }) end,
  -- Only a tree is asked ahead: it changes nothing, so it can run before `initialized`.
  method == 'carrel/tree' and { method = method, params = params } or nil)
end

--- Reports a server error the way the writer should see it: its own words.
function M.report(err)
  local reason = type(err.data) == 'table' and err.data.reason or nil
  local level = reason == 'cancelled' and vim.log.levels.INFO or vim.log.levels.ERROR
  util.notify(err.message or 'The Carrel server refused the request.', level)
end

--- Runs a `carrel.*` command; `on_result(result)` only on success.
function M.execute(command, arguments, on_result)
  M.request('workspace/executeCommand', { command = command, arguments = { arguments } }, function(err, result)
    if err then
      M.report(err)
      return
    end
    if on_result then on_result(result) end
  end)
end

--- What the server offers clients to show (`capabilities.experimental.carrel`):
--- projectTypes, sorts and names, in the writer's language. `callback(carrel)`.
function M.offers(callback)
  M.with_client(function(client)
    local experimental = (client.server_capabilities or {}).experimental or {}
    callback(experimental.carrel or {})
  end)
end

function M.stop()
  local client = live_client()
  if client then
    if has_011 then client:stop(true) else client.stop(true) end
  end
  client_id, running_libraries = nil, nil
  waiting = {}
end

function M.is_running()
  return live_client() ~= nil
end

return M

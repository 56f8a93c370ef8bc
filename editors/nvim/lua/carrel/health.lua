-- :checkhealth carrel
local M = {}

local health = vim.health

local function frame(message)
  local body = vim.json.encode(message)
  return ('Content-Length: %d\r\n\r\n%s'):format(#body, body)
end

--- Starts `carrel lsp` once, says initialize then shutdown, and reads the answers.
function M.round_trip(cmd)
  local folder = vim.fn.tempname()
  vim.fn.mkdir(folder, 'p')
  local uri = vim.uri_from_fname(folder)
  local input = frame({ jsonrpc = '2.0', id = 1, method = 'initialize', params = {
      processId = vim.NIL, rootUri = uri, capabilities = vim.empty_dict(),
      workspaceFolders = { { uri = uri, name = 'health' } } } })
    .. frame({ jsonrpc = '2.0', method = 'initialized', params = vim.empty_dict() })
    .. frame({ jsonrpc = '2.0', id = 2, method = 'shutdown' })
    .. frame({ jsonrpc = '2.0', method = 'exit' })
  local ok, process = pcall(vim.system, cmd, { stdin = input })
  if not ok then
    vim.fn.delete(folder, 'rf')
    return nil, tostring(process)
  end
  local done = process:wait(5000)
  vim.fn.delete(folder, 'rf')
  local answers = {}
  local read = require('carrel.rpc').frame_reader(function(body)
    local decoded_ok, message = pcall(vim.json.decode, body)
    if decoded_ok and type(message) == 'table' and message.id then answers[message.id] = message end
  end)
  read(done.stdout or '')
  local init = answers[1]
  if not (init and type(init.result) == 'table' and init.result.capabilities) then
    return nil, ('no initialize result (exit code %s, stderr: %s)'):format(done.code, vim.trim(done.stderr or ''))
  end
  if not (answers[2] and answers[2].result == vim.NIL) then
    return nil, 'no null result for shutdown'
  end
  if done.code ~= 0 then
    return nil, ('exit code %d after shutdown and exit'):format(done.code)
  end
  return init.result
end

--- How to get the server, in the words of the README's Install section.
M.install_advice = {
  'Install a release: `sudo dpkg -i carrel_VERSION_amd64.deb` puts `carrel` in /usr/bin '
    .. "(and this plugin in Neovim's site folder)",
  'Or build it with Swift 6, from a clone of the repository: `swift build -c release`, then '
    .. '`install -D -m 755 .build/release/carrel ~/.local/bin/carrel` (with ~/.local/bin on PATH)',
  'Or name the program you have: require("carrel").setup({ cmd = "/path/to/carrel" })',
}

function M.check()
  health.start('Carrel')
  local nvim = vim.version()
  local version_text = ('%d.%d.%d'):format(nvim.major, nvim.minor, nvim.patch)
  if vim.fn.has('nvim-0.10') == 1 then
    health.ok('Neovim ' .. version_text)
  else
    health.error('Neovim ' .. version_text .. ': Carrel needs 0.10 or later')
  end

  local cmd, why = require('carrel.client').command()
  if not cmd then
    health.error(why, M.install_advice)
    return
  end
  health.ok('Server command: ' .. table.concat(cmd, ' '))

  local binary = cmd[1]
  local ok, process = pcall(vim.system, { binary, '--version' }, { text = true })
  local version = ok and process:wait(5000) or nil
  if version and version.code == 0 then
    health.ok('Version: ' .. vim.trim(version.stdout ~= '' and version.stdout or version.stderr))
  else
    local failure = version and vim.trim(version.stderr or '') or tostring(process)
    health.warn(('`%s --version` failed: %s'):format(binary, failure))
  end

  local result, problem = M.round_trip(cmd)
  if result then
    local info = result.serverInfo or {}
    local name, release = info.name or 'the server', info.version or ''
    health.ok(('Round-trip: initialize and shutdown answered by %s %s'):format(name, release))
  else
    health.error('Round-trip failed: ' .. problem, { 'Run `:Carrel log` after `:Carrel` to see the traffic' })
  end

  local libraries = require('carrel.client').libraries()
  health.info('Libraries: ' .. table.concat(libraries, ', '))
end

return M

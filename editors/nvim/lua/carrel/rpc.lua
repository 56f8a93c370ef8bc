-- The stdio transport under Neovim's LSP client. vim.lsp.rpc hides the bytes it
-- exchanges; this one keeps every body in carrel.log, so `:Carrel log` shows the
-- real JSON-RPC traffic. It implements vim.lsp.rpc.PublicClient.
local log = require('carrel.log')

local M = {}

local REQUEST_CANCELLED = -32800

--- Splits a byte stream into LSP message bodies.
function M.frame_reader(on_body)
  local pending = ''
  return function(chunk)
    pending = pending .. chunk
    while true do
      local header_end = pending:find('\r\n\r\n', 1, true)
      if not header_end then return end
      local header = pending:sub(1, header_end - 1)
      local length = tonumber(header:match('[Cc]ontent%-[Ll]ength:%s*(%d+)'))
      if not length then
        log.add('error', 'frame without Content-Length skipped: ' .. header)
        pending = pending:sub(header_end + 4)
      else
        local body_start = header_end + 4
        if #pending < body_start + length - 1 then return end
        on_body(pending:sub(body_start, body_start + length - 1))
        pending = pending:sub(body_start + length)
      end
    end
  end
end

--- Starts `cmd` and returns a client for vim.lsp (the `cmd` function form).
--- `ahead` ({ method, params }, optional): a read-only request sent right
--- behind `initialize`, so its answer is on its way before vim.lsp has even
--- read `initialize`'s. The same request made later takes that answer, unless
--- a `carrel/didChange` came after it: the answer may then show rows the
--- change altered, and the request goes to the server as any other.
function M.start(cmd, dispatchers, ahead)
  local next_id = 0
  local callbacks, reply_callbacks = {}, {}
  local closing = false
  local process
  -- The request asked ahead: { id, arrived, answered, err, result, stale, taker = { callback, reply } }.
  local early

  local function send(message)
    if closing or not process then return false end
    local body = vim.json.encode(message)
    log.add('→', body)
    local ok = pcall(process.write, process, ('Content-Length: %d\r\n\r\n%s'):format(#body, body))
    return ok
  end

  local function answer_server_request(message)
    -- A coroutine lets handlers wait for vim.ui.select, as Neovim's own rpc does.
    coroutine.wrap(function()
      local ok, result, err = pcall(dispatchers.server_request, message.method, message.params)
      if not ok then
        log.add('error', tostring(result))
        result, err = nil, { code = -32603, message = tostring(result) }
      elseif result == nil and err == nil then
        err = { code = -32601, message = 'Unhandled method ' .. message.method }
      end
      send({ jsonrpc = '2.0', id = message.id, result = result, error = err })
    end)()
  end

  local function on_body(body)
    log.add('←', body)
    local ok, message = pcall(vim.json.decode, body, { luanil = { object = true } })
    if not ok or type(message) ~= 'table' then return end
    -- Noted as they arrive, in the order the server sent them (the callbacks
    -- run later): a change after the early answer outdates it.
    if early and not early.taker then
      if message.method == nil and tonumber(message.id) == early.id then
        early.arrived = true
      elseif early.arrived and message.method == 'carrel/didChange' then
        early.stale = true
      end
    end
    vim.schedule(function()
      if type(message.method) == 'string' and message.id ~= nil then
        answer_server_request(message)
      elseif type(message.method) == 'string' then
        pcall(dispatchers.notification, message.method, message.params)
      elseif message.id ~= nil then
        local id = tonumber(message.id)
        local reply = reply_callbacks[id]
        reply_callbacks[id] = nil
        if reply then reply(id) end
        local callback = callbacks[id]
        callbacks[id] = nil
        if callback and not (message.error and message.error.code == REQUEST_CANCELLED) then
          callback(message.error, message.result)
        end
      end
    end)
  end

  local read = M.frame_reader(on_body)
  local started, result = pcall(vim.system, cmd, {
    stdin = true,
    stdout = function(_, data)
      if data then read(data) end
    end,
    stderr = function(_, data)
      if data then log.add('stderr', data) end
    end,
  }, function(done)
    closing = true
    vim.schedule(function()
      if dispatchers.on_exit then dispatchers.on_exit(done.code, done.signal) end
    end)
  end)
  if not started then
    error(('Carrel could not start %s: %s'):format(table.concat(cmd, ' '), tostring(result)), 0)
  end
  process = result

  local client = {}

  --- The early request's answer for `callback`, if it still holds.
  local function take_early(method, params, callback, notify_reply_callback)
    if not early or early.taker or early.stale then return nil end
    if method ~= ahead.method or not vim.deep_equal(params, ahead.params) then return nil end
    early.taker = { callback = callback, reply = notify_reply_callback }
    if early.answered then
      vim.schedule(function()
        if notify_reply_callback then notify_reply_callback(early.id) end
        callback(early.err, early.result)
      end)
    end
    return early.id
  end

  local function request(method, params, callback, notify_reply_callback)
    next_id = next_id + 1
    local id = next_id
    if not send({ jsonrpc = '2.0', id = id, method = method, params = params }) then return false end
    callbacks[id] = callback
    reply_callbacks[id] = notify_reply_callback
    return true, id
  end

  function client.request(method, params, callback, notify_reply_callback)
    local taken = take_early(method, params, callback, notify_reply_callback)
    if taken then return true, taken end
    local sent, id = request(method, params, callback, notify_reply_callback)
    if sent and method == 'initialize' and ahead and not early then
      local asked, early_id = request(ahead.method, ahead.params, function(err, answer)
        early.answered, early.err, early.result = true, err, answer
        local taker = early.taker
        if taker then taker.callback(err, answer) end
      end, function(answered_id)
        local taker = early.taker
        if taker and taker.reply then taker.reply(answered_id) end
      end)
      if asked then early = { id = early_id } end
    end
    return sent, id
  end

  function client.notify(method, params)
    return send({ jsonrpc = '2.0', method = method, params = params })
  end

  function client.is_closing()
    return closing
  end

  function client.terminate()
    if closing then return end
    closing = true
    pcall(process.kill, process, 15)
  end

  return client
end

return M

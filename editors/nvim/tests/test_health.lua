local H = require('harness')

local function health_text()
  vim.cmd('checkhealth carrel')
  H.wait(function() return vim.bo.filetype == 'checkhealth' end, 'the health buffer')
  local text
  H.wait(function()
    text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    return text:find('Round-trip', 1, true)
  end, 'the health report')
  return text
end

H.test(':checkhealth carrel reports Neovim, the binary, its version and a round-trip', function()
  H.setup()
  local text = health_text()
  local version = vim.trim(H.sh(vim.fn.shellescape(H.carrel) .. ' --version'))
  for _, expected in ipairs({
    ('OK Neovim %d.%d.%d'):format(vim.version().major, vim.version().minor, vim.version().patch),
    'OK Server command: ' .. H.carrel .. ' lsp',
    'OK Version: ' .. version,
    'OK Round-trip: initialize and shutdown answered by carrel',
  }) do
    H.truthy(text:find(expected, 1, true), 'report has ' .. expected .. '\n' .. text)
  end
  H.truthy(not text:find('ERROR', 1, true), 'no errors\n' .. text)
end)

H.test(':checkhealth carrel reports a missing binary as an error', function()
  H.setup({ cmd = 'no-such-carrel' })
  vim.cmd('checkhealth carrel')
  H.wait(function() return vim.bo.filetype == 'checkhealth' end, 'the health buffer')
  local text
  H.wait(function()
    text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    return text:find('ERROR', 1, true)
  end, 'an error in the report')
  H.truthy(text:find('cannot find the `no-such-carrel` program', 1, true), text)
  -- The report says exactly how to get the server: a release's package, a build, or a path.
  for _, advice in ipairs({
    'sudo dpkg -i carrel_VERSION_amd64.deb',
    'swift build -c release',
    'install -D -m 755 .build/release/carrel ~/.local/bin/carrel',
    'require("carrel").setup({ cmd = "/path/to/carrel" })',
  }) do
    H.truthy(text:find(advice, 1, true), 'advice has ' .. advice .. '\n' .. text)
  end
end)

H.test(':Carrel log shows the raw JSON-RPC messages', function()
  H.setup()
  H.open()
  vim.cmd('Carrel log')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local text = table.concat(lines, '\n')
  H.truthy(text:find('→ {', 1, true) and text:find('"method":"initialize"', 1, true), 'initialize request logged')
  H.truthy(text:find('← {', 1, true) and text:find('"serverInfo"', 1, true), 'initialize result logged')
  H.truthy(text:find('"method":"carrel/tree"', 1, true), 'tree request logged')
  -- Each logged body is the JSON that went over the wire.
  for _, line in ipairs(lines) do
    local body = line:match('^%d%d:%d%d:%d%d [→←] (.*)$')
    if body then
      local ok, decoded = pcall(vim.json.decode, body)
      H.truthy(ok and decoded.jsonrpc == '2.0', 'a JSON-RPC message: ' .. body)
    end
  end
end)

H.test(':help carrel works and documents every command, key, option and highlight group', function()
  local doc = vim.env.CARREL_TEST_SCRATCH .. '/rtp/doc'
  vim.fn.mkdir(doc, 'p')
  vim.fn.writefile(vim.fn.readfile(vim.env.CARREL_NVIM_PLUGIN .. '/doc/carrel.txt'), doc .. '/carrel.txt')
  vim.cmd('helptags ' .. vim.fn.fnameescape(doc))
  vim.opt.runtimepath:append(vim.fs.dirname(doc))
  vim.cmd('help carrel')
  H.eq(vim.fn.expand('%:t'), 'carrel.txt', 'help file')
  local tags = {}
  for _, line in ipairs(vim.fn.readfile(doc .. '/tags')) do tags[line:match('^[^\t]+')] = true end
  -- `:help carrel` must land on a tag of that name, not on the nearest match.
  local wanted = { 'carrel', 'carrel.txt', 'carrel.setup()', ':Carrel', 'carrel-actions' }
  for _, name in ipairs(require('carrel').complete('')) do table.insert(wanted, ':Carrel-' .. name) end
  for lhs in pairs(require('carrel').defaults.keys) do table.insert(wanted, 'carrel-key-' .. lhs) end
  for option in pairs(require('carrel').defaults) do table.insert(wanted, 'carrel-option-' .. option) end
  for _, option in ipairs({ 'cmd', 'libraries', 'locale' }) do table.insert(wanted, 'carrel-option-' .. option) end
  for group in pairs(require('carrel.highlights').groups) do table.insert(wanted, 'hl-' .. group) end
  local missing = vim.tbl_filter(function(tag) return not tags[tag] end, wanted)
  H.eq(missing, {}, 'tags missing from doc/carrel.txt')
  for action in pairs(require('carrel.actions').descriptions) do
    H.truthy(H.read(doc .. '/carrel.txt'):find(' ' .. action .. ' ', 1, true), 'action documented: ' .. action)
  end
end)

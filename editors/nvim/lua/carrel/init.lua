-- Carrel: the binder of a writing app, in a sidebar, driven by `carrel lsp`.
local M = {}

--- Default options. `require('carrel').setup({})` works without any of them.
M.defaults = {
  -- The server command. nil finds `carrel` on PATH and runs `carrel lsp`.
  -- A string is the path of the binary; a list is the whole command.
  cmd = nil,
  -- Library folders shown in the sidebar (workspace folders). nil uses the
  -- current directory when the sidebar first opens.
  libraries = nil,
  -- Language of the server's messages and permanent folder titles ("en",
  -- "fr"). nil derives it from |v:lang|.
  locale = nil,
  -- Width of the sidebar, in columns.
  width = 40,
  -- Side of the sidebar: "left" or "right".
  side = 'left',
  -- Row icons. 'text': plain characters every font has (`/` a folder,
  -- `.` a file, the same marks as Vim and Emacs). 'nerd': Nerd Font glyphs. 'auto':
  -- Nerd Font glyphs when nvim-web-devicons or mini.icons is installed, else
  -- text. A table maps SF Symbol names to glyphs of your choice, over the
  -- Nerd Font ones.
  icons = 'text',
  -- Show the server's count after each title, dimmed ("3 files").
  counts = true,
  -- Show the breadcrumb of the row under the cursor (Library › Project ›
  -- Draft › Act 1) in the winbar of the sidebar. No other window is touched.
  winbar = true,
  -- Point open buffers at their new path when files move, into the Trash
  -- too (saving writes there, never at the old path); close them when their
  -- file is deleted (kept, with a warning, when they have unsaved edits).
  follow_buffers = true,
  -- Start the server and fetch the binder's first view when Neovim starts
  -- in a library folder that holds a project (the folder, or one of its
  -- folders, has `.carrel/project.json`), so that :Carrel opens at once.
  -- Nothing starts in any other folder. false waits for the first :Carrel.
  -- Also `:Carrel preload`.
  preload = true,
  -- Number of raw JSON-RPC messages kept for `:Carrel log`.
  log_size = 2000,
  -- Keys in the sidebar, the same in Neovim and Vim: lhs → action name (see
  -- |carrel-actions|) or a function(row). Set a key to false to remove it.
  -- Merged with these.
  keys = {
    ['<CR>'] = 'open', -- open a file, or expand and collapse
    ['zo'] = 'expand',
    ['zc'] = 'collapse',
    ['zR'] = 'expand_all',
    ['zM'] = 'collapse_all',
    ['a'] = 'new_file',
    ['A'] = 'new_folder',
    ['P'] = 'new_project',
    ['r'] = 'rename',
    ['m'] = 'move',
    ['D'] = 'duplicate', -- a copy beside it: "Spring copy.md"
    ['d'] = 'delete',
    ['u'] = 'restore',
    ['E'] = 'empty_trash',
    ['s'] = 'sort',
    ['K'] = 'move_up', -- among its siblings (binder order)
    ['J'] = 'move_down',
    ['T'] = 'set_target', -- word target; empty clears it
    ['C'] = 'compile', -- Compile… the project: a recipe, a format, then open it
    ['X'] = 'toggle_compile', -- leave out of compile, or include again
    ['B'] = 'set_byline', -- the title page's author, then its contact lines
    ['U'] = 'undo', -- the library's last rename, move, delete… made on this device
    ['<C-r>'] = 'redo',
    ['S'] = 'snapshot', -- of a file, or of each file in a folder
    ['H'] = 'snapshots', -- a file's history: compare with one, or roll back to it
    ['O'] = 'submit', -- send the file to a market of its project
    ['I'] = 'submissions', -- where it is out, and set what became of it
    ['M'] = 'market_details', -- deadline, fee, URL… of a market folder
    ['R'] = 'refresh',
    ['-'] = 'parent', -- up to the parent row
    ['?'] = 'help', -- the keys, in a window
    ['q'] = 'close',
    -- `ask_before_deleting` has no key: it is rare, and :Carrel offers it.
  },
}

M.config = vim.deepcopy(M.defaults)

local util = require('carrel.util')

local function is_string_list(value)
  if type(value) ~= 'table' then return false end
  for _, item in ipairs(value) do
    if type(item) ~= 'string' then return false end
  end
  return #value > 0 and #value == vim.tbl_count(value)
end

-- Each option: a check and the phrase that says what it should be.
local rules = {
  cmd = { function(v) return v == nil or type(v) == 'string' or is_string_list(v) end, 'a path or a list of strings' },
  libraries = {
    function(v) return v == nil or (type(v) == 'table' and (#v == 0 or is_string_list(v))) end,
    'a list of folder paths',
  },
  locale = { function(v) return v == nil or type(v) == 'string' end, 'a string such as "en" or "fr"' },
  width = {
    function(v) return type(v) == 'number' and v >= 10 and v == math.floor(v) end,
    'a whole number of columns, at least 10',
  },
  side = { function(v) return v == 'left' or v == 'right' end, '"left" or "right"' },
  icons = {
    function(v) return v == 'text' or v == 'nerd' or v == 'auto' or type(v) == 'table' end,
    "'text', 'nerd', 'auto' or a table of glyphs",
  },
  counts = { function(v) return type(v) == 'boolean' end, 'true or false' },
  winbar = { function(v) return type(v) == 'boolean' end, 'true or false' },
  follow_buffers = { function(v) return type(v) == 'boolean' end, 'true or false' },
  preload = { function(v) return type(v) == 'boolean' end, 'true or false' },
  log_size = { function(v) return type(v) == 'number' and v >= 0 end, 'a number of messages' },
  keys = { function(v) return type(v) == 'table' end, 'a table of key → action' },
}

--- Checks options field by field; returns nil and one message per problem.
function M.validate(opts)
  local problems = {}
  if type(opts) ~= 'table' then
    return nil, { 'carrel.setup() takes a table of options, got ' .. type(opts) }
  end
  for key, value in pairs(opts) do
    local rule = rules[key]
    if not rule then
      table.insert(problems, ('unknown option `%s`'):format(tostring(key)))
    elseif not rule[1](value) then
      table.insert(problems, ('option `%s` must be %s, got %s'):format(key, rule[2], vim.inspect(value)))
    end
  end
  if type(opts.keys) == 'table' then
    local actions = require('carrel.actions')
    for lhs, action in pairs(opts.keys) do
      if type(lhs) ~= 'string' or lhs == '' then
        local rule = 'keys must be indexed by key sequences such as "<C-n>", got %s'
        table.insert(problems, rule:format(vim.inspect(lhs)))
      end
      local known = action == false or type(action) == 'function'
        or (type(action) == 'string' and actions.descriptions[action] ~= nil)
      if not known then
        local rule = 'keys[%q] must be an action name (see :help carrel-actions), false or a function, got %s'
        table.insert(problems, rule:format(lhs, vim.inspect(action)))
      end
    end
  end
  table.sort(problems)
  if #problems > 0 then return nil, problems end
  return true
end

--- Applies options. Invalid options are reported and nothing changes.
function M.setup(opts)
  opts = opts or {}
  local ok, problems = M.validate(opts)
  if not ok then
    util.notify('Carrel: ' .. table.concat(problems, '; '), vim.log.levels.ERROR)
    return false
  end
  local config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts)
  -- Lists replace rather than merge.
  config.libraries = opts.libraries and vim.deepcopy(opts.libraries) or nil
  config.cmd = opts.cmd
  -- The server learns its command, folders and language when it starts.
  local restart = not vim.deep_equal(M.config.cmd, config.cmd)
    or not vim.deep_equal(M.config.libraries, config.libraries) or M.config.locale ~= config.locale
  M.config = config
  if restart and package.loaded['carrel.client'] then
    require('carrel.client').stop()
    if package.loaded['carrel.tree'] then require('carrel.tree').restart() end
  end
  require('carrel.highlights').setup()
  M.did_setup = true
  -- Called again, setup() replaces the preload it asked for before.
  local group = vim.api.nvim_create_augroup('carrel_preload', { clear = true })
  if config.preload then
    -- After startup: the folder Neovim starts in is known, and a slow disk
    -- cannot delay the first screen.
    if vim.v.vim_did_enter == 1 then
      vim.schedule(function() require('carrel.tree').preload() end)
    else
      vim.api.nvim_create_autocmd('VimEnter', {
        group = group, once = true, callback = function() require('carrel.tree').preload() end,
      })
    end
  end
  return true
end

--- Lets `:Carrel` work for writers who never call setup().
function M.ensure_setup()
  if not M.did_setup then M.setup({}) end
end

local subcommands = {
  toggle = function() require('carrel.tree').toggle() end,
  open = function() require('carrel.tree').open() end,
  close = function() require('carrel.tree').close() end,
  refresh = function() require('carrel.tree').refresh() end,
  reveal = function() require('carrel.current').reveal() end,
  rename = function() require('carrel.current').rename() end,
  move = function() require('carrel.current').move() end,
  delete = function() require('carrel.current').delete() end,
  ask_before_deleting = function() require('carrel.current').ask_before_deleting() end,
  link_updates = function() require('carrel.current').link_updates() end,
  new_project = function() require('carrel.actions').new_project(require('carrel.tree').current_row()) end,
  compile = function() require('carrel.actions').compile(require('carrel.tree').current_row()) end,
  log = function() require('carrel.log').show() end,
  preload = function() require('carrel.tree').preload() end,
}

function M.complete(lead)
  local names = vim.tbl_keys(subcommands)
  table.sort(names)
  return vim.tbl_filter(function(name) return vim.startswith(name, lead) end, names)
end

function M.command(cmd)
  local name = cmd.args ~= '' and cmd.args or 'toggle'
  local run = subcommands[name]
  if not run then
    local known = table.concat(M.complete(''), ', ')
    util.notify(('Carrel: unknown command “%s”. Try one of: %s'):format(name, known), vim.log.levels.ERROR)
    return
  end
  M.ensure_setup()
  util.guard(run)()
end

return M

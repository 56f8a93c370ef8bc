-- Questions to the writer, through vim.ui so pickers and input plugins apply.
local util = require('carrel.util')

local M = {}

--- Asks for a name; `on_answer` runs only with a non-empty answer. An empty
--- one is refused in the server's words; dismissing the prompt says nothing.
function M.input(opts, on_answer)
  vim.ui.input(opts, util.guard(function(answer)
    if answer == nil then return end
    if vim.trim(answer) == '' then return util.notify('A name cannot be empty.', vim.log.levels.ERROR) end
    on_answer(answer)
  end))
end

--- Whether vim.ui.select is still Neovim's own, an inputlist whose question
--- scrolls away above a long list.
local function builtin_select()
  local info = debug.getinfo(vim.ui.select, 'S')
  return info ~= nil and info.source:find('vim/ui.lua', 1, true) ~= nil
end

--- A list in a float whose title is the question, so it stays in view
--- however long the list: <CR> chooses, q or <Esc> dismisses.
function M.float_select(items, opts, on_choice)
  local format = opts.format_item or tostring
  local lines, width = {}, vim.fn.strdisplaywidth(opts.prompt or '') + 4
  for index, item in ipairs(items) do
    lines[index] = ' ' .. format(item)
    width = math.max(width, vim.fn.strdisplaywidth(lines[index]) + 1)
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  width = math.min(width, vim.o.columns - 4)
  local height = math.max(1, math.min(#lines, vim.o.lines - 6))
  local win = vim.api.nvim_open_win(buf, true, {
    relative = 'editor', style = 'minimal', border = 'rounded', width = width, height = height,
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1), col = math.floor((vim.o.columns - width) / 2),
    title = ' ' .. vim.trim((opts.prompt or ''):gsub(':%s*$', '')) .. ' ', title_pos = 'center',
  })
  vim.wo[win].cursorline = true
  local done = false
  local function finish(index)
    if done then return end
    done = true
    pcall(vim.api.nvim_win_close, win, true)
    on_choice(index and items[index] or nil, index)
  end
  local function map(lhs, fn) vim.keymap.set('n', lhs, fn, { buffer = buf, nowait = true }) end
  map('<CR>', function() finish(vim.api.nvim_win_get_cursor(win)[1]) end)
  map('q', function() finish(nil) end)
  map('<Esc>', function() finish(nil) end)
  vim.api.nvim_create_autocmd('WinLeave', { buffer = buf, once = true, callback = function() finish(nil) end })
end

--- Picks one item; `on_choice` runs only when the writer chose. A picker
--- plugin that replaced vim.ui.select shows it; else a float with a title.
function M.select(items, opts, on_choice)
  local chosen = util.guard(function(choice)
    if choice ~= nil then on_choice(choice) end
  end)
  if builtin_select() then return M.float_select(items, opts, chosen) end
  vim.ui.select(items, opts, chosen)
end

--- Asks each of `questions` ({ prompt, default? }) in turn through
--- vim.ui.input; `on_answers(answers)` runs once all are answered, empty
--- answers included. Dismissing any question ends it: nothing runs.
function M.input_each(questions, on_answers)
  local answers = {}
  local function ask(index)
    if index > #questions then return on_answers(answers) end
    vim.ui.input(questions[index], util.guard(function(answer)
      if answer == nil then return end
      answers[index] = answer
      ask(index + 1)
    end))
  end
  ask(1)
end

M.NEW_FOLDER = 'New folder…'

local function label(item) return item.label end

--- A Move picker: `carrel/destinations` for `uri` (every folder the server
--- would accept, as paths joined with › ), after “New folder…”, which asks
--- a name and where to make it, then chooses the new folder. `on_folder(uri)`.
--- The server's folders for `uri`, for a picker: `purpose` is "move" or "newFolder".
local function destinations(uri, purpose, then_)
  local client = require('carrel.client')
  client.request('carrel/destinations', { uri = uri, purpose = purpose }, function(err, result)
    if err then return client.report(err) end
    local folders = {}
    for _, destination in ipairs(result or {}) do
      table.insert(folders, { uri = destination.uri, label = table.concat(destination.label or {}, ' › ') })
    end
    then_(folders)
  end)
end

function M.pick_destination(uri, prompt, on_folder)
  local client = require('carrel.client')
  destinations(uri, 'move', function(folders)
    local items = vim.list_extend({ { label = M.NEW_FOLDER, new = true } }, folders)
    M.select(items, { prompt = prompt, format_item = label, kind = 'carrel_folder' }, function(choice)
      if not choice.new then return on_folder(choice.uri) end
      M.input({ prompt = 'New folder name: ' }, function(name)
        local question = ('Create “%s” in: '):format(name)
        -- Its own folder is a fine place for it; a Trash is not.
        destinations(uri, 'newFolder', function(parents)
          M.select(parents, { prompt = question, format_item = label, kind = 'carrel_folder' }, function(parent)
            client.execute('carrel.newFolder', { parentUri = parent.uri, name = name }, function(node)
              on_folder(node.uri)
            end)
          end)
        end)
      end)
    end)
  end)
end

return M

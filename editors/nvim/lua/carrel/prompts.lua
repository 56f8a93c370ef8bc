-- Questions to the writer, through vim.ui so pickers and input plugins apply.
local util = require('carrel.util')

local M = {}

--- Asks for a name; `on_answer` runs only with a non-empty answer.
function M.input(opts, on_answer)
  vim.ui.input(opts, util.guard(function(answer)
    if answer == nil or vim.trim(answer) == '' then return end
    on_answer(answer)
  end))
end

--- Picks one item; `on_choice` runs only when the writer chose.
function M.select(items, opts, on_choice)
  vim.ui.select(items, opts, util.guard(function(choice)
    if choice ~= nil then on_choice(choice) end
  end))
end

M.NEW_FOLDER = 'New folder…'

local function label(item) return item.label end

--- A Move picker: `carrel/destinations` for `uri` (every folder the server
--- would accept, as paths joined with › ), after “New folder…”, which asks
--- a name and where to make it, then chooses the new folder. `on_folder(uri)`.
function M.pick_destination(uri, prompt, on_folder)
  local client = require('carrel.client')
  client.request('carrel/destinations', { uri = uri }, function(err, result)
    if err then return client.report(err) end
    local folders = {}
    for _, destination in ipairs(result or {}) do
      table.insert(folders, { uri = destination.uri, label = table.concat(destination.label or {}, ' › ') })
    end
    local items = vim.list_extend({ { label = M.NEW_FOLDER, new = true } }, folders)
    M.select(items, { prompt = prompt, format_item = label, kind = 'carrel_folder' }, function(choice)
      if not choice.new then return on_folder(choice.uri) end
      M.input({ prompt = 'New folder name: ' }, function(name)
        local question = ('Create “%s” in: '):format(name)
        M.select(folders, { prompt = question, format_item = label, kind = 'carrel_folder' }, function(parent)
          client.execute('carrel.newFolder', { parentUri = parent.uri, name = name }, function(node)
            on_folder(node.uri)
          end)
        end)
      end)
    end)
  end)
end

return M

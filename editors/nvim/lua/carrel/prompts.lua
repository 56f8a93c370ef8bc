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

--- Every folder a thing can go into, in tree order, indented by depth.
function M.folders()
  local tree = require('carrel.tree')
  local folders = {}
  tree.walk(function(row)
    local node = row.node
    if node.kind == 'file' or node.link or node.unreadable then return false end
    if node.virtual and node.kind ~= 'section' then return false end
    if node.inTrash then return false end
    if node.uri then
      local depth, ancestor = 0, row.parent
      while ancestor do
        if ancestor.node.kind ~= 'section' then depth = depth + 1 end
        ancestor = ancestor.parent
      end
      table.insert(folders, { uri = node.uri, label = string.rep('  ', depth) .. (node.title or node.name) })
    end
  end)
  return folders
end

local function label(item) return item.label end

--- A folder picker with “New folder…”, which asks for a name and a parent,
--- creates the folder, and chooses it. `on_folder(uri)`.
function M.pick_folder(prompt, on_folder)
  require('carrel.tree').refresh(function()
    local folders = M.folders()
    local items = vim.list_extend({ { label = M.NEW_FOLDER, new = true } }, folders)
    M.select(items, { prompt = prompt, format_item = label, kind = 'carrel_folder' }, function(choice)
      if not choice.new then return on_folder(choice.uri) end
      M.input({ prompt = 'New folder name: ' }, function(name)
        M.select(folders, { prompt = ('Create “%s” in: '):format(name), format_item = label, kind = 'carrel_folder' }, function(parent)
          require('carrel.client').execute('carrel.newFolder', { parentUri = parent.uri, name = name }, function(node)
            on_folder(node.uri)
          end)
        end)
      end)
    end)
  end)
end

return M

local H = require('harness')

--- The binder's own `carrel/tree` requests (the harness asks with depth 0 only).
local function binder_requests()
  return vim.tbl_filter(function(request) return request.params.depth ~= 0 end, H.requests('carrel/tree'))
end

--- Lets the event loop run, so any request still to come is sent.
local function settle() vim.wait(300, function() return false end, 20) end

--- A project as another machine or program left it: no server involved.
local function project_on_disk(library, name)
  H.write(library .. '/' .. name .. '/.carrel/project.json', '{"type":"poetry","version":1}')
  vim.fn.mkdir(library .. '/' .. name .. '/Draft', 'p')
end

local function held() return H.tree().first_view_held() and H.has_line('Draft') end

H.test('preload fetches the first view in no window; opening then shows it and asks nothing', function()
  local library = H.setup()
  project_on_disk(library, 'My Poems')
  vim.cmd('Carrel preload')
  H.wait(held, 'the first view to be held')
  H.eq(H.tree().window(), nil, 'no binder window while preloading')
  local before = #binder_requests()
  H.eq(binder_requests()[1].params, { depth = 1 }, 'the roots')
  vim.cmd('Carrel open')
  H.truthy(H.tree().window(), 'the binder shows')
  H.eq(H.tree().current_row() and H.tree().current_row().node.kind, 'library', 'the rows are there at once')
  H.truthy(H.row('Draft', 'My Poems'), 'the first view: the project and its first section')
  settle()
  H.eq(#binder_requests(), before, 'requests sent by opening')
end)

--- The options of a library that holds a project.
local function library_with_project()
  local library = H.new_library()
  project_on_disk(library, 'My Poems')
  H.library = library
  return { cmd = { H.carrel, 'lsp' }, libraries = { library } }
end

--- setup() as a writer's config calls it, before Neovim has started.
local function setup_at_startup(options)
  local config = vim.tbl_extend('force', library_with_project(), options)
  H.truthy(require('carrel').setup(config), 'setup')
  settle()
  H.eq(require('carrel.client').is_running(), vim.v.vim_did_enter == 1 and config.preload ~= false,
    'a server running before startup ends')
  -- Tests run from -c, before startup ends; this is the moment it does.
  if vim.v.vim_did_enter == 0 then vim.api.nvim_exec_autocmds('VimEnter', {}) end
end

H.test('setup() preloads by default once Neovim has started', function()
  setup_at_startup({})
  H.wait(held, 'the first view to be held')
  H.eq(H.tree().window(), nil, 'no binder window')
end)

H.test('setup({ preload = false }) starts nothing until the binder opens', function()
  setup_at_startup({ preload = false })
  settle()
  H.eq(require('carrel.client').is_running(), false, 'a server running')
  H.eq(H.tree().state.roots, nil, 'rows fetched')
end)

H.test('setup() called again with preload = false drops the preload it asked for', function()
  local config = library_with_project()
  H.truthy(require('carrel').setup(config), 'setup')
  H.truthy(require('carrel').setup(vim.tbl_extend('force', config, { preload = false })), 'setup again')
  if vim.v.vim_did_enter == 0 then vim.api.nvim_exec_autocmds('VimEnter', {}) end
  settle()
  H.eq(require('carrel.client').is_running(), false, 'a server running')
end)

H.test('preload starts nothing in a folder without a project, look-alikes included', function()
  local library = H.setup()
  local outside = H.new_library()
  project_on_disk(outside, 'Real')
  H.write(library .. '/Notes/todo.md', 'x')
  vim.fn.mkdir(library .. '/Linked file/.carrel', 'p')
  vim.uv.fs_symlink(outside .. '/Real/.carrel/project.json', library .. '/Linked file/.carrel/project.json')
  vim.fn.mkdir(library .. '/Linked folder', 'p')
  vim.uv.fs_symlink(outside .. '/Real/.carrel', library .. '/Linked folder/.carrel')
  vim.uv.fs_symlink(outside .. '/Real', library .. '/Linked project')
  vim.fn.mkdir(library .. '/Folder/.carrel/project.json', 'p')
  project_on_disk(library, '.Hidden')
  vim.cmd('Carrel preload')
  settle()
  H.eq(require('carrel.client').is_running(), false, 'a server running')
  H.eq(H.tree().state.roots, nil, 'rows fetched')
end)

H.test('a change while preloaded shows when the binder opens, with no fetch at opening', function()
  local library = H.setup()
  project_on_disk(library, 'My Poems')
  vim.cmd('Carrel preload')
  H.wait(held, 'the first view to be held')
  H.write(library .. '/Loose page.md', 'x')
  H.wait(function() return H.has_line('Loose page.md') end, 'the hidden binder to learn of the new file')
  settle()
  local before = #binder_requests()
  vim.cmd('Carrel open')
  H.truthy(H.row('Loose page.md'), 'the new file in the open binder')
  settle()
  H.eq(#binder_requests(), before, 'requests sent by opening')
end)

H.test('preload twice, or after opening, asks nothing more', function()
  local library = H.setup()
  project_on_disk(library, 'My Poems')
  vim.cmd('Carrel preload')
  vim.cmd('Carrel preload')
  H.wait(held, 'the first view to be held')
  settle()
  H.eq(#vim.tbl_filter(function(r) return r.params.uri == nil end, binder_requests()), 1, 'the roots asked once')
  local before = #binder_requests()
  vim.cmd('Carrel open')
  vim.cmd('Carrel preload')
  settle()
  H.eq(#binder_requests(), before, 'requests after preloading again')
end)

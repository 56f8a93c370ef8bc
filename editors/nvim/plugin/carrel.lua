vim.api.nvim_create_user_command('Carrel', function(cmd) require('carrel').command(cmd) end, {
  nargs = '?', complete = function(lead) return require('carrel').complete(lead) end, desc = 'Carrel binder',
})

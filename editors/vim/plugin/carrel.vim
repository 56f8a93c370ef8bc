vim9script
# The :Carrel command and the preload as Vim starts; everything else loads
# from autoload/ on first use.

if exists('g:loaded_carrel') || v:version < 900 || !has('channel') || !has('job')
  finish
endif
g:loaded_carrel = true

command! -nargs=? -complete=customlist,carrel#actions#Complete Carrel call carrel#actions#Command(<q-args>)
# Links, for the writer to map in Markdown and Fountain buffers (see
# :help carrel-links); Carrel maps no key of its own there.
nnoremap <silent> <Plug>(carrel-definition) <Cmd>Carrel definition<CR>
nnoremap <silent> <Plug>(carrel-backlinks) <Cmd>Carrel backlinks<CR>
nnoremap <silent> <Plug>(carrel-brokenlinks) <Cmd>Carrel brokenlinks<CR>

# Opening at once (:help carrel-preload): where Vim starts in a library that
# holds a project, the server starts and the first view is held before the
# binder is asked for. Anywhere else it lists one folder and starts nothing.
augroup CarrelPreload
  autocmd!
  autocmd VimEnter * ++once call carrel#preload#AtStartup()
augroup END

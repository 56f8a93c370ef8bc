vim9script
# The :Carrel command; everything else loads from autoload/ on first use.

if exists('g:loaded_carrel') || v:version < 900 || !has('channel') || !has('job')
  finish
endif
g:loaded_carrel = true

command! -nargs=? -complete=customlist,carrel#actions#Complete Carrel call carrel#actions#Command(<q-args>)

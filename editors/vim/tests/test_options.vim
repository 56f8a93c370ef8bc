vim9script
# g:carrel: each option checked with a message naming it; :Carrel log.
import './harness.vim' as h
import autoload 'carrel/rpc.vim'
import autoload 'carrel/binder.vim'

# Runs :Carrel with g:carrel set to `options`; the error messages it gave.
def Refused(options: any): string
  g:carrel = options
  messages clear
  Carrel
  assert_false(rpc.IsRunning(), 'no server started with ' .. string(options))
  return h.Messages()
enddef

h.Run('each wrong option is named, with what it must be', () => {
  var root = h.Library({})
  assert_match('g:carrel must be a dictionary, such as {width: 40}, not string ''wide''', Refused('wide'))
  assert_match('g:carrel has no option "widht"; the options are cmd, folders, icons, locale, log_size, '
    .. 'preload, question_timeout, side, width.',
    Refused({widht: 40}))
  assert_match('g:carrel.width must be a whole number of columns from 10 to 300, not string ''40''',
    Refused({width: '40'}))
  assert_match('g:carrel.side must be "left" or "right", not string ''top''', Refused({side: 'top'}))
  assert_match('g:carrel.icons must be "text" (plain characters, the default) or "glyphs"', Refused({icons: 'nerd'}))
  assert_match('g:carrel.cmd must be a non-empty list of strings', Refused({cmd: []}))
  assert_match('g:carrel.cmd must be a non-empty list of strings', Refused({cmd: 'carrel lsp'}))
  assert_match('g:carrel.log_size must be a whole number of messages, 0 or more, not number -1',
    Refused({log_size: -1}))
  assert_match('g:carrel.folders names "' .. root .. '/nowhere", which is not a folder\.$',
    Refused({folders: [root .. '/nowhere']}))
  assert_match('g:carrel.locale must be a string', Refused({locale: 1}))
  assert_match('g:carrel.question_timeout must be a number of seconds, or 0 for the server''s own (120), not string',
    Refused({question_timeout: 'soon'}))
  assert_match('g:carrel.preload must be true (start the server as Vim starts in a library, the default) or false, '
    .. 'not string ''yes''', Refused({preload: 'yes'}))
  var both = Refused({side: 'top', width: 5})
  assert_match('g:carrel.side', both)
  assert_match('g:carrel.width', both)
})

h.Run('a server that is not installed is named, with where to look', () => {
  assert_match('Carrel cannot start "no-such-carrel": it is not an executable on your PATH.',
    Refused({cmd: ['no-such-carrel', 'lsp']}))
})

h.Run('valid options are used: side, width and locale', () => {
  var root = h.Library(h.Poetry('Mes poèmes'))
  h.Open(root, {side: 'right', width: 40, locale: 'fr'})
  assert_equal(40, winwidth(binder.Window()))
  assert_equal(winnr('$'), win_id2win(binder.Window()))
  h.WaitLine('* Tout')
})

h.Run('in French, New Project and Sort offer the server''s French words', () => {
  h.Open(h.Library(h.Poetry('Poèmes')), {locale: 'fr'})
  h.Press('# Writing', "P\<C-U>Contes\<CR>")
  h.Wait(() => !empty(h.Popups()), 'the type menu')
  assert_equal(['Vierge', 'Poésie', 'Nouvelle', 'Roman', 'Scénario'], h.Popups()[0].items)
  feedkeys("\<Esc>", 'xt')
  h.Press('@ Poèmes', 's')
  h.Wait(() => !empty(h.Popups()), 'the sort menu')
  assert_true(index(h.Popups()[0].items, 'Nom, de A à Z') >= 0 && index(h.Popups()[0].items, 'Nom, de Z à A') >= 0,
    string(h.Popups()[0].items))
})

h.Run(':Carrel log shows the traffic both ways, bounded by log_size', () => {
  h.Open(h.Library(h.Poetry('P')), {log_size: 5})
  Carrel log
  assert_equal('carrel://log', bufname())
  var lines = getline(1, '$')
  assert_equal(5, len(lines), string(lines))
  assert_equal(5, len(rpc.Traffic()))
  h.Press('= Draft', 'zo')
  h.Idle()
  assert_equal(5, len(rpc.Traffic()))
  assert_match('^→ {.*"carrel/tree"', rpc.Traffic()->copy()->filter((_, l) => l =~ '^→')[-1])
  assert_match('^← {', rpc.Traffic()[-1])
})

h.Run('the traffic log is off by default: no message is encoded for it', () => {
  rpc.Traffic()->filter((_, _) => false)
  var root = h.Library(h.Poetry('P'))
  g:carrel = {folders: [root], cmd: [$CARREL, 'lsp']}
  Carrel
  h.Wait(() => len(h.BinderLines()) > 1, 'the first view')
  h.Idle()
  assert_equal([], rpc.Traffic())
})

h.Run(':Carrel with an unknown subcommand says so', () => {
  h.Open(h.Library({}))
  messages clear
  Carrel frobnicate
  assert_match('Carrel has no command "frobnicate"; :help carrel-commands lists them.', h.Messages())
})
h.Done()

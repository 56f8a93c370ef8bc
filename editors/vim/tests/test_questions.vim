vim9script
# The server's questions: popup menus, several at once, each answered on its own.
import './harness.vim' as h
import autoload 'carrel/binder.vim'

h.Run('two pending confirmations at once, each answered in its own popup', () => {
  var root = h.Library(h.Poetry('P')->extend({'P/Draft/a.md': 'a', 'P/Draft/b.md': 'b'}))
  h.Open(root)
  h.Press('= Draft  2 files', 'zo')
  h.Press('. a.md', 'd')
  # Keys go to the question now open: the second delete comes from elsewhere
  # (a command run by a timer or an autocommand, say).
  h.Wait(() => len(h.Popups()) == 1, 'the first question')
  win_gotoid(binder.Window())
  cursor(h.LineOf('. b.md'), 1)
  carrel#actions#Do('delete')
  h.Wait(() => len(h.Popups()) == 2, 'two questions')
  var titles = h.Popups()->mapnew((_, p) => p.title)->sort()
  assert_match('Move “a.md” to the Trash?', titles[0])
  assert_match('Move “b.md” to the Trash?', titles[1])
  var second = h.Popups()->copy()->filter((_, p) => p.title =~ 'b.md')[0]
  popup_close(second.id, 2)
  h.Wait(() => filereadable(root .. '/P/Trash/b.md'), 'b.md deleted')
  assert_true(filereadable(root .. '/P/Draft/a.md'), 'a.md still waits for its answer')
  h.Choose('Cancel')
  h.Wait(() => h.Messages() =~ 'Cancelled: nothing was deleted.', 'a.md cancelled')
  assert_true(filereadable(root .. '/P/Draft/a.md'))
  var answers = h.Traffic()->copy()->filter((_, l) => l =~ '^→ {"id":1000000\|^→ .*"id":1000001')
  assert_equal(2, len(answers), string(answers))
})

h.Run('an answer is sent with the question''s id, and closing the popup answers null', () => {
  var root = h.Library(h.Poetry('P')->extend({'P/Draft/a.md': 'a'}))
  h.Open(root)
  h.Press('= Draft  1 file', 'zo')
  var start = len(h.Traffic())
  h.Press('. a.md', 'd')
  h.Wait(() => len(h.Popups()) == 1, 'the question')
  feedkeys("\<Esc>", 'xt')
  h.Wait(() => h.Messages() =~ 'Cancelled: nothing was deleted.', 'the delete cancelled')
  var since = h.Traffic()[start :]
  var question = since->copy()->filter((_, l) => l =~ '^← .*window/showMessageRequest')[0]
  var id = json_decode(strpart(question, strlen('← '))).id
  assert_true(id >= 1000000)
  assert_equal(1, since->copy()->filter((_, l) => l =~ '^→ ' && l =~ '"id":' .. id .. '\>'
    && l =~ '"result":null')->len())
})
h.Run('a question the server gives up on closes by itself, unanswered', () => {
  var root = h.Library(h.Poetry('P')->extend({'P/Draft/a.md': 'a'}))
  h.Open(root, {question_timeout: 1})
  h.Press('= Draft  1 file', 'zo')
  var start = len(h.Traffic())
  h.Press('. a.md', 'd')
  h.Wait(() => len(h.Popups()) == 1, 'the question')
  h.Wait(() => empty(h.Popups()), 'the question to close')
  h.Wait(() => h.Messages() =~ 'Cancelled: the question got no answer within 1 second, so nothing was deleted.',
    'the server''s words')
  var since = h.Traffic()[start :]
  var question = since->copy()->filter((_, l) => l =~ '^← .*window/showMessageRequest')[0]
  var id = json_decode(strpart(question, strlen('← '))).id
  assert_equal([], since->copy()->filter((_, l) => l =~ '^→ ' && l =~ '"id":' .. id .. '\>'))
  assert_true(filereadable(root .. '/P/Draft/a.md'))
})
h.Run('a question too wide for the title is written whole above its actions; Enter still answers the first', () => {
  var name = 'The long night the keepers of the lighthouse remember every winter since 1907.md'
  var root = h.Library(h.Poetry('P')->extend({['P/Draft/' .. name]: 'a'}))
  h.Open(root)
  h.Press('= Draft  1 file', 'zo')
  h.Press('. ' .. name, 'd')
  h.Wait(() => len(h.Popups()) == 1, 'the question')
  var lines = h.Popups()[0].items
  assert_equal(['Cancel', 'Delete', 'Delete and Don''t Ask Again'], lines[-3 :])
  assert_equal('', lines[-4], 'a blank line between the question and its actions')
  assert_equal('Move “' .. name .. '” to the Trash?', join(lines[: -5], ' '))
  assert_true(len(lines[: -5]) > 1, 'wrapped')
  for line in lines
    assert_true(strdisplaywidth(line) <= &columns - 8, 'fits: ' .. line)
  endfor
  # Up from the first action stays there, never on the question.
  feedkeys('k', 'xt')
  assert_equal(len(lines) - 2, line('.', h.Popups()[0].id))
  feedkeys("\<CR>", 'xt')
  h.Wait(() => h.Messages() =~ 'Cancelled: nothing was deleted.', 'Enter answers Cancel')
  h.Press('. ' .. name, 'd')
  h.Wait(() => len(h.Popups()) == 1, 'the question again')
  feedkeys("j\<CR>", 'xt')
  h.Wait(() => filereadable(root .. '/P/Trash/' .. name), 'j then Enter answers Delete')
})
h.Done()

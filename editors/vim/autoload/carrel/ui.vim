vim9script
# Asking the writer: a name on the command line, a choice in a popup menu,
# and the server's own questions, each in its own popup.

import autoload 'carrel/rpc.vim'
import autoload 'carrel/util.vim'

# Question id → popup id, while the question is open.
var open_questions: dict<number> = {}
# Popup id → the count typed so far in that menu (0: none).
var counts: dict<number> = {}
# What a choice in a picker goes on to do, waiting to run as a key of its own.
var continuations: list<func> = []

# A name typed on the command line, trimmed; '' when the writer gave none.
# An empty answer is refused in the server's words, as every client does;
# Esc says nothing (input() would return '' for both).
export def Input(prompt: string, default: string = ''): string
  const cancelled = "\x01"
  var answer = inputdialog(prompt, default, cancelled)
  if answer == cancelled
    return ''
  endif
  answer = trim(answer)
  if answer == ''
    # After the prompt's own line, or the message would be drawn over.
    redraw
    util.Show(1, 'A name cannot be empty.')
  endif
  return answer
enddef

# A popup menu of `items` under `title`; `Done` gets the 1-based index of
# the item chosen, or 0 or less when none was. A title too wide for the
# popup's border is written whole above the items instead, where the
# cursor never goes.
def Menu(title: string, items: list<string>, Done: func(number), extra: dict<any> = {}): number
  var room = max([&columns - 8, 20])
  var header: list<string> = strdisplaywidth(title) + 2 <= room ? [] : Wrap(title, room) + ['']
  var options = empty(header)
    ? {title: ' ' .. title .. ' ', minwidth: strdisplaywidth(title) + 2}
    : {minwidth: max((header + items)->mapnew((_, l) => strdisplaywidth(l)))}
  options->extend({maxheight: max([&lines - 6, 3]), wrap: false,
    filter: (popup, typed) => MenuKey(popup, typed, len(header)),
    callback: (popup, result) => {
      remove(counts, popup)
      Done(result < 0 ? result : result - len(header))
    }})
  var popup = popup_menu(header + items, options->extend(extra))
  counts[popup] = 0
  if !empty(header)
    win_execute(popup, 'cursor(' .. (len(header) + 1) .. ', 1)')
  endif
  # Opened by a callback (a server's answer or question), the menu finds Vim
  # already waiting for a key with the binder's mappings on: Vim turns them
  # off for a popup only from the next key it waits for. Without this, Enter
  # would reach the menu as the binder's mapping of Enter, whose space picks
  # the item under the cursor and whose rest is typed into the next prompt.
  if state() =~# 'c'
    feedkeys("\<Ignore>", 'in')
  endif
  return popup
enddef

# Offers `items` in a popup menu; `OnChoice` gets the index chosen, and is
# not called when the writer closes it. It runs as the next key, ahead of
# any typed after the choice: the menu's filter is no place to ask a name
# or wait for the server, and the keys typed next belong to what it asks.
export def Pick(title: string, items: list<string>, OnChoice: func): number
  return Menu(title, items, (chosen) => {
    if chosen > 0
      continuations->add(() => OnChoice(chosen - 1))
      feedkeys("\<Cmd>call carrel#ui#Continue()\<CR>", 'in')
    endif
  })
enddef

# Goes on with the choice made in a picker (see Pick).
export def Continue()
  if !empty(continuations)
    var Next = remove(continuations, 0)
    Next()
  endif
enddef

# The server's question: its message and its actions in the order given, so
# a bare Enter answers the first, "Cancel". Closing the popup answers null.
export def Question(id: any, params: dict<any>)
  var actions: list<dict<any>> = get(params, 'actions', [])
  var key = string(id)
  var warning = get(params, 'type', 2) <= 2 ? {highlight: 'WarningMsg'} : {}
  open_questions[key] = Menu(get(params, 'message', ''), actions->mapnew((_, action) => action.title),
    (chosen) => Answered(id, key, actions, chosen), warning)
enddef

# The menu's own keys, with a count: digits typed before j, k, <Down> or
# <Up> move that many items, as they move that many lines in a buffer. The
# cursor stays on the items below a question written above them.
def MenuKey(popup: number, typed: string, header: number): bool
  var count = get(counts, popup, 0)
  if typed =~ '^\d$' && (typed != '0' || count > 0)
    counts[popup] = count * 10 + str2nr(typed)
    return true
  endif
  counts[popup] = 0
  var direction = index(['j', "\<Down>", "\<C-N>"], typed) >= 0 ? 1
    : index(['k', "\<Up>", "\<C-P>"], typed) >= 0 ? -1 : 0
  if count > 1 && direction != 0
    var last = line('$', popup)
    var target = min([max([line('.', popup) + direction * count, header + 1]), last])
    win_execute(popup, 'cursor(' .. target .. ', 1)')
    return true
  endif
  var handled = popup_filter_menu(popup, typed)
  if !empty(popup_getpos(popup)) && line('.', popup) <= header
    win_execute(popup, 'cursor(' .. (header + 1) .. ', 1)')
  endif
  return handled
enddef

# `text` in lines at most `width` columns wide, broken between words.
def Wrap(text: string, width: number): list<string>
  var lines = ['']
  for word in split(text, ' ')
    if lines[-1] == ''
      lines[-1] = word
    elseif strdisplaywidth(lines[-1] .. ' ' .. word) <= width
      lines[-1] ..= ' ' .. word
    else
      lines->add(word)
    endif
  endfor
  return lines
enddef

def Answered(id: any, key: string, actions: list<dict<any>>, result: number)
  if !has_key(open_questions, key)
    return
  endif
  remove(open_questions, key)
  rpc.Respond(id, result > 0 && result <= len(actions) ? {title: actions[result - 1].title} : v:null)
enddef

# The server gave up a question (no answer in time): close it unanswered.
export def Withdraw(id: any)
  var key = string(id)
  if has_key(open_questions, key)
    var popup = remove(open_questions, key)
    popup_close(popup, -1)
  endif
enddef

# The questions still open, question id → popup id (for :Carrel and tests).
export def OpenQuestions(): dict<number>
  return copy(open_questions)
enddef

# A read-only popup of `lines`; q, <Esc> or ? close it.
export def Sheet(title: string, lines: list<string>): number
  return popup_create(lines, {title: ' ' .. title .. ' ', border: [], padding: [0, 1, 0, 1], pos: 'center',
    mapping: false, filter: (popup, key) => {
      if index(['q', "\<Esc>", '?'], key) >= 0
        popup_close(popup)
      endif
      return true
    }})
enddef

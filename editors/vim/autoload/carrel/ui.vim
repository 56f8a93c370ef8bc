vim9script
# Asking the writer: a name on the command line, a choice in a popup menu,
# and the server's own questions, each in its own popup.

import autoload 'carrel/rpc.vim'

# Question id → popup id, while the question is open.
var open_questions: dict<number> = {}

# A name typed on the command line, trimmed; '' when the writer gave none.
export def Input(prompt: string, default: string = ''): string
  return trim(input(prompt, default))
enddef

def MenuOptions(title: string): dict<any>
  var width = strdisplaywidth(title) + 2
  return {title: ' ' .. title .. ' ', minwidth: width, maxheight: max([&lines - 6, 3]), wrap: false}
enddef

# Offers `items` in a popup menu; `OnChoice` gets the index chosen, and is
# not called when the writer closes it.
export def Pick(title: string, items: list<string>, OnChoice: func): number
  var options = MenuOptions(title)
  options.callback = (_, result) => {
    if result > 0
      OnChoice(result - 1)
    endif
  }
  return popup_menu(items, options)
enddef

# The server's question: its message and its actions in the order given, so
# a bare Enter answers the first, "Cancel". Closing the popup answers null.
export def Question(id: any, params: dict<any>)
  var actions: list<dict<any>> = get(params, 'actions', [])
  var key = string(id)
  var options = MenuOptions(get(params, 'message', ''))
  options.callback = (_, result) => Answered(id, key, actions, result)
  if get(params, 'type', 2) <= 2
    options.highlight = 'WarningMsg'
  endif
  open_questions[key] = popup_menu(actions->mapnew((_, action) => action.title), options)
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

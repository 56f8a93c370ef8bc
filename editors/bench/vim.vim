vim9script
# Drives the Vim plugin in Vim, in a tmux terminal or headless (vim -es); see
# run.sh for the environment. Times come from reltime(). The plugin has no
# render event, so a row counts as shown when a 1 ms poll of the binder
# buffer's text first finds it (up to about a millisecond late) and the
# screen has been redrawn: in a terminal the drawing is part of what a
# writer waits for; vim -es draws nothing.

import autoload 'carrel/binder.vim'
import autoload 'carrel/tree.vim'

const library = $BENCH_LIBRARY
var result: dict<any> = {}
const origin = reltime()
def Now(): float
  return reltimefloat(reltime(origin)) * 1000.0
enddef

def RssKb(): number
  for line in readfile('/proc/' .. getpid() .. '/status')
    if line =~ '^VmRSS:'
      return str2nr(matchstr(line, '\d\+'))
    endif
  endfor
  return -1
enddef

# The longest gap between ticks of a 10 ms timer, over a window.
var last = Now()
var worst = 0.0
def Tick(_: number)
  var t = Now()
  # max() takes only numbers in Vim 9.0.
  if t - last - 10.0 > worst
    worst = t - last - 10.0
  endif
  last = t
enddef
timer_start(10, Tick, {repeat: -1})
def StallWindow()
  last = Now()
  worst = 0.0
enddef

# The native baseline: what a tree plugin does to open, with nothing of its
# own: list the library's top two levels and draw them into a buffer.
var t0 = Now()
var listing: list<string> = []
for name in readdir(library)
  listing->add(name)
  if isdirectory(library .. '/' .. name)
    listing->extend(readdir(library .. '/' .. name)->map((_, child) => '  ' .. child))
  endif
endfor
var scratch = bufadd('')
bufload(scratch)
setbufline(scratch, 1, listing)
result.baseline_ms = Now() - t0
execute 'bwipeout!' scratch

# One built-in search of the lines, no script call per line: a poll every
# millisecond over a binder of 1,000 rows must not be what Vim spends its
# time on while the change is drawn.
def Shows(text: string): bool
  var buf = binder.Buffer()
  return buf > 0 && bufexists(buf) && match(getbufline(buf, 1, '$'), '\V' .. escape(text, '\\')) >= 0
enddef

# Polls every millisecond; returns the time text first showed, or -1. The
# lines are searched again only once the buffer changed.
def WaitFor(text: string, seconds: float): float
  var deadline = Now() + seconds * 1000.0
  var searched = -1
  while Now() < deadline
    var buf = binder.Buffer()
    var tick = buf > 0 && bufexists(buf) ? getbufvar(buf, 'changedtick') : -1
    if tick != searched || tick < 0
      searched = tick
      if Shows(text)
        redraw
        return Now()
      endif
    endif
    sleep 1m
  endwhile
  return -1.0
enddef

def Count(): number
  return filereadable($BENCH_COUNT) ? str2nr(trim(join(readfile($BENCH_COUNT)))) : -1
enddef

# Whether the plugin holds the first view: the roots, and the sections of
# the first project they list.
def FirstViewHeld(): bool
  var roots = tree.Roots()
  for root in roots
    var projects = tree.Node(root).kind == 'project' ? [root]
      : tree.Children(root)->copy()->filter((_, k) => tree.Node(k).kind == 'project')
    if !empty(projects)
      return !empty(tree.Children(projects[0]))
    endif
  endfor
  return !empty(roots)
enddef

var rss_before = RssKb()
g:carrel = {folders: [library], cmd: json_decode($BENCH_SERVER)}

# Opening at once: the server started and the first view fetched in the
# background first, as the plugin does when Vim starts; the open
# below is then timed as without it.
if $BENCH_PRELOAD == '1' && $BENCH_MODE == 'open'
  StallWindow()
  var preload_start = Now()
  Carrel preload
  var held = -1.0
  while Now() < preload_start + 30000.0
    if FirstViewHeld()
      held = Now()
      break
    endif
    sleep 1m
  endwhile
  result.preload_ms = held < 0 ? v:null : held - preload_start
  sleep 1
  result.preload_stall_ms = worst
endif

StallWindow()
var start = Now()
Carrel
var shown = WaitFor('Poems', 60.0)
result.open_ms = shown < 0 ? v:null : shown - start
sleep 1
result.stall_open_ms = worst

# Expanding a folder of a thousand: Enter on its row, as a writer does, until its first child shows.
if $BENCH_MODE == 'open'
  var row = index(getbufline(binder.Buffer(), 1, '$')->map((_, l) => stridx(l, 'Letters') >= 0), true) + 1
  if row > 0 && binder.Window() != 0
    win_gotoid(binder.Window())
    cursor(row, 1)
    var t = Now()
    feedkeys("\<CR>", 'x')
    var at = WaitFor('Letter 0000.md', 30.0)
    result.expand_ms = at < 0 ? v:null : at - t
  endif
endif

# BENCH_CHANGES_IN: the changes go into that folder, expanded first.
var into = library
if $BENCH_MODE == 'changes' && $BENCH_CHANGES_IN != ''
  var row = index(getbufline(binder.Buffer(), 1, '$')->map((_, l) => stridx(l, $BENCH_CHANGES_IN) >= 0), true) + 1
  if row > 0 && binder.Window() != 0
    win_gotoid(binder.Window())
    cursor(row, 1)
    feedkeys("\<CR>", 'x')
    WaitFor('Letter 0000.md', 30.0)
    sleep 1
    into = library .. '/' .. $BENCH_CHANGES_IN
    result.changes_in = $BENCH_CHANGES_IN
  endif
endif

# Vim's own CPU time (user and system, in clock ticks of 10 ms), which other
# processes' load moves far less than the wall clock.
def CpuTicks(): number
  var fields = split(matchstr(readfile('/proc/' .. getpid() .. '/stat')[0], ') \zs.*'))
  return str2nr(fields[11]) + str2nr(fields[12])
enddef

if $BENCH_MODE == 'changes'
  result.change_ms = []
  result.change_bytes = []
  var cpu_before = CpuTicks()
  for i in range(1, str2nr($BENCH_CHANGES))
    var name = printf('Outside %d.md', i)
    var before = Count()
    # Written elsewhere and renamed in: one step, as another program saves.
    var staging = $BENCH_STAGING .. '/' .. name
    writefile(['words'], staging)
    var t = Now()
    rename(staging, into .. '/' .. name)
    var at = WaitFor(name, 5.0)
    sleep 100m
    result.change_ms->add(at < 0 ? -1 : at - t)
    result.change_bytes->add(before < 0 ? -1 : Count() - before)
    if i == 100
      result.rss_after_100_kb = RssKb()
    endif
  endfor
  # Each change's drawing, the word counts' updates after it and the
  # driver's 1 ms polls, per change.
  result.change_cpu_ms = (CpuTicks() - cpu_before) * 10.0 / max([1, str2nr($BENCH_CHANGES)])
  result.rss_before_kb = rss_before
  result.rss_after_kb = RssKb()
endif

# After the changes, and alone in the sessions of mode 'burst'.
if $BENCH_MODE == 'changes' || $BENCH_MODE == 'burst'
  var burst = str2nr($BENCH_BURST)
  # As long after the open as in a change session: the server has counted the words.
  if $BENCH_MODE == 'burst'
    sleep 5
  endif
  if burst > 0
    StallWindow()
    job_start(['python3', $BENCH_DIR .. '/burst.py', library, string(burst)])
    WaitFor(printf('Burst %d.md', burst - 1), 120.0)
    sleep 500m
    result.stall_burst_ms = worst
  endif
endif

writefile([json_encode(result)], $BENCH_OUT)
qa!

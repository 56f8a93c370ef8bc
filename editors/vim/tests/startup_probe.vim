vim9script
# Sourced by a Vim that test_preload.vim starts in a folder, with the default
# settings: once the plugin's own VimEnter has run, writes to
# $CARREL_PROBE_OUT whether the server was running then and, after waiting
# for it, the first view held in the hidden binder, then what :Carrel shows
# at once where it runs. Nothing here starts the server or asks for a row.

def Probe()
  var report: dict<any> = {running_at_start: carrel#rpc#IsRunning(), jobs_at_start: len(job_info())}
  var buffer = bufnr('carrel://binder')
  var start = reltime()
  while reltimefloat(reltime(start)) < 10.0 && carrel#rpc#IsRunning()
      && (buffer < 0 || getbufline(buffer, 1, '$')->filter((_, l) => l =~ '= Draft')->empty())
    sleep 10m
    buffer = bufnr('carrel://binder')
  endwhile
  # A moment more, for anything the plugin might yet start.
  sleep 200m
  report.running = carrel#rpc#IsRunning()
  report.jobs = len(job_info())
  report.windows = len(getwininfo())
  report.held = buffer < 0 ? [] : getbufline(buffer, 1, '$')
  report.shown = []
  if report.running
    Carrel
    report.shown = bufnr() == bufnr('carrel://binder') ? getline(1, '$') : []
  endif
  writefile([json_encode(report)], $CARREL_PROBE_OUT)
  qa!
enddef

# Registered after plugin/carrel.vim's, so it runs after the preload.
autocmd VimEnter * ++once Probe()

vim9script
# Every plugin file loads without error, and no line is longer than 120 columns.
var root = $CARREL_VIM_PLUGIN
&runtimepath = root .. ',' .. &runtimepath
var problems: list<string> = []
for file in glob(root .. '/plugin/*.vim', true, true) + glob(root .. '/autoload/carrel/*.vim', true, true)
  try
    # :defcompile compiles every function now, so type errors show here
    # instead of at the writer's first key press.
    var copy = tempname() .. '.vim'
    writefile(readfile(file) + ['defcompile'], copy)
    execute 'source' fnameescape(copy)
  catch
    problems->add(file .. ': ' .. v:exception .. ' ' .. v:throwpoint)
  endtry
  var number = 0
  for line in readfile(file)
    number += 1
    if strdisplaywidth(line) > 120
      problems->add(printf('%s:%d: longer than 120 columns', file, number))
    endif
  endfor
endfor
for file in glob(root .. '/tests/*', true, true) + [root .. '/README.md', root .. '/doc/carrel.txt']
  var number = 0
  for line in readfile(file)
    number += 1
    if strdisplaywidth(line) > 120
      problems->add(printf('%s:%d: longer than 120 columns', file, number))
    endif
  endfor
endfor

# The help file has its tags, `*carrel*` first among them, and no duplicates.
var docs = tempname()
mkdir(docs)
writefile(readfile(root .. '/doc/carrel.txt'), docs .. '/carrel.txt')
try
  execute 'helptags' fnameescape(docs)
  if index(readfile(docs .. '/tags')->mapnew((_, l) => split(l, "\t")[0]), 'carrel') < 0
    problems->add('doc/carrel.txt has no *carrel* tag')
  endif
catch
  problems->add('doc/carrel.txt: ' .. v:exception)
endtry
writefile(problems, $CARREL_LINT_OUT)
qa!

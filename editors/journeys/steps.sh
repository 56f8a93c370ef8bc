# The steps every editor takes with the same keys and the same screen, and
# the checks every journey makes alike. Sourced by each journey after
# lib.sh; a step uses the journey's `to_binder`, `to_row` and `save` and
# its variables ($library, $project, $draft), looked up when the step runs.

# Waits until the binder shows `first` above `second`.
wait_for_order() {
  local deadline=$((SECONDS + JOURNEY_TIMEOUT))
  while [ "$SECONDS" -le "$deadline" ]; do
    local a b
    a=$(screen_line ". $1")
    b=$(screen_line ". $2")
    [ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$a" -lt "$b" ] && return 0
    sleep 0.1
  done
  fail "the binder never showed “$1” above “$2”"
}

# a on Draft, the name, Enter, then the first words at once, as a writer
# types, and the journey's `save`: not one letter may go anywhere but into
# the new file.
new_file_typed() {
  local name=$1 words=$2
  to_row '= Draft'
  keys a
  wait_screen 'New file name:' || return
  type_text "$name"
  keys Enter
  type_text "$words"
  save
  wait_content "$draft/$name.md" "$words"
}

# Where Ebb Tide.md is now, outside the Trash.
ebb_tide() {
  find "$library" -name 'Ebb Tide.md' -not -path '*/Trash/*' -print -quit
}

# d on the row showing `row` (Ebb Tide.md's, as the journey finds it): the
# question comes before anything moves.
ask_to_delete_ebb_tide() {
  to_binder
  to_row "$1"
  keys d
  wait_screen 'Move “Ebb Tide.md” to the Trash?'
}

# Fails when anything under the home is named `name` but the folder at
# `path`: a move to a new folder makes that folder and nothing else.
expect_only_folder() {
  local name=$1 path=$2 stray
  stray=$(find "$HOME" -name "$name" -not -path "$path" -print -quit)
  [ -z "$stray" ] || fail "${stray#"$HOME"/} exists"
}

target() {
  to_binder
  to_row '@ My Poems'
  keys T
  wait_screen 'Word target for “My Poems”' || return
  type_text '500'
  keys Enter
  local deadline=$((SECONDS + JOURNEY_TIMEOUT))
  until grep -q '500' "$project/.carrel/project.json"; do
    [ "$SECONDS" -le "$deadline" ] || fail 'project.json never held the target 500' || return
    sleep 0.1
  done
}

outside_change() {
  to_binder
  printf 'Written elsewhere\n' > "$draft/Outside.md"
  wait_screen '. Outside.md'
}

# The steps Neovim and Vim take alike: the same keys, the same screen.
# Sourced by vim.sh and nvim.sh after lib.sh; each uses the variables the
# journey sets ($project, $draft, …) when the step runs.

# Puts the cursor on the first binder row showing `text`, searching from the top.
to_row() {
  keys g g
  type_text "/\\V$1"
  keys Enter
}

new_folder() {
  to_row '= Draft'
  keys A
  wait_screen 'New folder name:' || return
  type_text 'Sea Cycle'
  keys Enter
  wait_exists "$draft/Sea Cycle" && wait_screen 'Sea Cycle'
}

# Enter on an empty name is refused in the server's words; Esc says nothing.
empty_name() {
  to_binder
  to_row '= Draft'
  keys A
  wait_screen 'New folder name:' || return
  keys Enter
  wait_screen 'A name cannot be empty.' || return
  type_text ':messages clear'
  keys Enter
  to_row '= Draft'
  keys A
  wait_screen 'New folder name:' || return
  keys Escape
  type_text ':echomsg "after Esc" | messages'
  keys Enter
  wait_screen 'after Esc' || return
  if screen | grep -qF 'A name cannot be empty.'; then
    fail 'Esc was refused as an empty name'
  fi
}

# The name, Enter, then the first words at once, as a writer types: not
# one letter may go anywhere but into the new file.
new_file_and_first_words() {
  to_row '= Draft'
  keys a
  wait_screen 'New file name:' || return
  type_text 'Ebb'
  keys Enter
  type_text 'The tide comes in.'
  keys Escape
  type_text ':w'
  keys Enter
  wait_content "$draft/Ebb.md" 'The tide comes in.'
}

second_file() {
  to_binder
  to_row '= Draft'
  keys a
  wait_screen 'New file name:' || return
  type_text 'Anchor'
  keys Enter
  type_text 'Hello world'
  keys Escape
  type_text ':w'
  keys Enter
  wait_content "$draft/Anchor.md" 'Hello world'
}

rename() {
  to_binder
  to_row 'Ebb.md'
  keys r
  wait_screen 'Rename to: Ebb.md' || return
  keys C-u
  type_text 'Ebb Tide.md'
  keys Enter
  wait_exists "$draft/Ebb Tide.md" || return
  wait_gone "$draft/Ebb.md"
}

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

reorder() {
  to_binder
  to_row 'Ebb Tide.md'
  keys K
  wait_for_order 'Ebb Tide.md' 'Anchor.md' || return
  wait_exists "$draft/.carrel-order" || return
  grep -q 'Ebb Tide' "$draft/.carrel-order" || fail '.carrel-order does not name Ebb Tide.md'
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

# Where Ebb Tide.md is now, outside the Trash.
ebb_tide() {
  find "$library" -name 'Ebb Tide.md' -not -path '*/Trash/*' -print -quit
}

restore() {
  to_binder
  to_row 'TRASH'
  keys z o j z o
  wait_screen '. Ebb Tide.md' || return
  to_row 'Ebb Tide.md'
  keys u
  wait_exists "$origin" && wait_gone "$project/Trash/Ebb Tide.md"
}

delete_without_asking() {
  to_binder
  to_row 'Anchor.md'
  keys d
  wait_exists "$project/Trash/Anchor.md" || return
  if screen | grep -qF 'Move “Anchor.md” to the Trash?'; then
    fail 'it asked again'
  fi
}

outside_change() {
  to_binder
  printf 'Written elsewhere\n' > "$draft/Outside.md"
  wait_screen '. Outside.md'
}

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

# m on Ebb Tide.md, "New folder…" (the picker's first item), the name
# Revisions: the picker of where to make it is up.
ask_where_to_make_revisions() {
  to_binder
  to_row 'Ebb Tide.md'
  keys m
  wait_screen 'Move “Ebb Tide.md” to' || return
  keys Enter
  wait_screen 'New folder name:' || return
  type_text 'Revisions'
  keys Enter
  wait_screen 'Create “Revisions” in'
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

# Writes the buffer, as new_file_typed does after the first words.
save() {
  keys Escape
  type_text ':w'
  keys Enter
}

new_file_and_first_words() {
  new_file_typed 'Ebb' 'The tide comes in.'
}

second_file() {
  to_binder
  new_file_typed 'Anchor' 'Hello world'
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

reorder() {
  to_binder
  to_row 'Ebb Tide.md'
  keys K
  wait_for_order 'Ebb Tide.md' 'Anchor.md' || return
  wait_exists "$draft/.carrel-order" || return
  grep -q 'Ebb Tide' "$draft/.carrel-order" || fail '.carrel-order does not name Ebb Tide.md'
}

restore() {
  to_binder
  to_row 'TRASH'
  keys z o j z o
  wait_screen '. Ebb Tide.md' || return
  to_row 'Ebb Tide.md'
  keys u
  wait_exists "$origin" && wait_gone "$project/Trash/Ebb Tide.md" || return
  # Drawn back in its folder before the next step looks for its row there.
  wait_screen "$(basename "$(dirname "$origin")")  1 file"
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

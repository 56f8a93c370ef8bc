#!/usr/bin/env bash
# A writer's first hour with Carrel in Vim, typed into a real terminal:
# the plugin installed as editors/vim/README.md says, in an empty home,
# Vim started in an empty library folder.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/steps.sh"
source "$(dirname "${BASH_SOURCE[0]}")/vimkeys.sh"
name=vim
journey_needs 'Vim 9 with +job' 'apt-get install vim-nox' sh -c 'vim --version | grep -q +job'
journey_begin

library="$HOME/Writing"
project="$library/My Poems"
draft="$project/Draft"

# editors/vim/README.md, "Install": the server on the PATH, then the plugin
# from the repository "cloned to ~/src/carrel" (a copy of its editors/vim, so
# that helptags writes there and not into this checkout) in Vim's own
# packages, with its help tags.
install_carrel
mkdir -p "$HOME/src/carrel/editors"
cp -R "$repository/editors/vim" "$HOME/src/carrel/editors/vim"
mkdir -p "$HOME/.vim/pack/carrel/start"
ln -s "$HOME/src/carrel/editors/vim" "$HOME/.vim/pack/carrel/start/carrel"
vim -u NONE -c "helptags $HOME/.vim/pack/carrel/start/carrel/doc" -c q </dev/null >/dev/null 2>&1
[ -f "$HOME/.vim/pack/carrel/start/carrel/doc/tags" ] || echo "# helptags made no tags file"
mkdir -p "$library"
start_editor "$library" vim

# Back to the binder, whatever was open: what a writer does between steps.
to_binder() {
  keys Escape
  type_text ':Carrel'
  keys Enter
}

recover() {
  keys Escape Escape
  type_text ':call popup_clear(1)'
  keys Enter
  to_binder
}

onboarding() {
  wait_screen '~' || return
  type_text ':Carrel'
  keys Enter
  # The binder is 40 columns wide: the whole line fits.
  wait_screen 'No project yet: press P to make one' || return
  # Narrower, it takes its short form; wider again, the long one.
  keys C-w
  type_text '10<'
  wait_screen 'Press P for a new project' || return
  keys C-w
  type_text '10>'
  wait_screen 'No project yet: press P to make one'
}

first_project() {
  # On the onboarding line, Enter starts New Project.
  keys j Enter
  wait_screen 'Project name:' || return
  type_text 'My Poems'
  keys Enter
  wait_screen 'Project type' || return
  keys j Enter
  wait_screen 'YOUR POETRY' || return
  wait_exists "$project/.carrel/project.json" && wait_exists "$draft"
}

# Move, "New folder…", its name, where to make it: the folder is made
# there and the file moved into it; nothing else is made.
move_with_new_folder() {
  ask_where_to_make_revisions || return
  # The folders it may go in, as the popup lists them; Draft is the file's own.
  local draft_line
  draft_line=$(screen_line '║ Writing › My Poems › Draft ')
  [ "$draft_line" -gt 0 ] || fail 'Draft is not offered for the new folder' || return
  local first
  first=$(screen | grep -nF '║ Writing' | head -n 1 | cut -d: -f1)
  local presses=$((draft_line - first))
  while [ "$presses" -gt 0 ]; do
    keys j
    presses=$((presses - 1))
  done
  keys Enter
  wait_exists "$draft/Revisions/Ebb Tide.md" || return
  expect_no_file_named "carrel#actions#Do*"
}

# A count before j moves that many items down the picker, as in a buffer.
move_with_count() {
  to_binder
  to_row 'Ebb Tide.md'
  keys m
  wait_screen 'Move “Ebb Tide.md” to' || return
  local top label
  top=$(screen_line '║ New folder…')
  label=$(screen | sed -n "$((top + 4))p" | sed -E 's/.*║ (.*[^ ]) *║.*/\1/')
  case "$label" in
    'Writing › '*) ;;
    *) fail "the picker's fifth item is “$label”" || return ;;
  esac
  type_text '4j'
  keys Enter
  local destination="$library/${label#Writing › }"
  destination="${destination// › //}"
  wait_exists "$destination/Ebb Tide.md" || fail "“Ebb Tide.md” did not go to $label (4j)"
}

# Name, Z to A puts Ebb Tide above Anchor; Binder order starts in name order.
sort() {
  to_binder
  to_row 'Anchor.md'
  keys s
  wait_screen 'Name, Z to A' || return
  keys j j Enter
  wait_for_order 'Ebb Tide.md' 'Anchor.md' || return
  keys s
  wait_screen 'Binder order' || return
  keys Enter
  wait_for_order 'Anchor.md' 'Ebb Tide.md'
}

delete_asking() {
  origin=$(ebb_tide)
  [ -n "$origin" ] || fail 'Ebb Tide.md is nowhere' || return
  ask_to_delete_ebb_tide 'Ebb Tide.md' || return
  keys j Enter
  wait_exists "$project/Trash/Ebb Tide.md" && wait_gone "$origin"
}

delete_and_dont_ask_again() {
  ask_to_delete_ebb_tide 'Ebb Tide.md' || return
  keys j j Enter
  wait_exists "$project/Trash/Ebb Tide.md"
}

empty_trash() {
  to_binder
  to_row '@ My Poems'
  keys E
  wait_screen 'in the Trash of “My Poems” forever?' || return
  keys j Enter
  wait_gone "$project/Trash/Anchor.md" && wait_gone "$project/Trash/Ebb Tide.md"
}

step 'onboarding: :Carrel in an empty library says how to begin, at any width' onboarding
step 'first project: Enter on the onboarding line, a name, Poetry' first_project
step 'new folder: A on Draft' new_folder
step 'an empty name: refused in the server'"'"'s words; Esc says nothing' empty_name
step 'new file: a, its name, then the first words typed at once' new_file_and_first_words
step 'a second new file, typed at once too' second_file
step 'rename: r offers the name; the new one is kept' rename
step 'sort: Name, Z to A, then Binder order' sort
step 'reorder: K moves a file above its sibling' reorder
step 'target: T on the project, 500' target
step 'move to a new folder: m, “New folder…”, a name, where' move_with_new_folder
step 'move with a count: m, 4j, Enter goes to the fifth item' move_with_count
step 'delete, asked: d, Delete' delete_asking
step 'restore: u in the Trash puts it back' restore
step 'delete: d, “Delete and Don'"'"'t Ask Again”' delete_and_dont_ask_again
step 'delete without asking' delete_without_asking
step 'empty Trash: E, Delete' empty_trash
step 'an outside change shows in the binder' outside_change
journey_end

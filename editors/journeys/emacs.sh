#!/usr/bin/env bash
# A writer's first hour with Carrel in Emacs, typed into a real terminal:
# the package installed as editors/emacs/README.md says (from a checkout,
# with load-path), in an empty home, Emacs started in an empty library folder.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/steps.sh"
name=emacs
journey_needs 'Emacs 28 or later' 'apt-get install emacs-nox' \
  emacs --batch --eval '(kill-emacs (if (>= emacs-major-version 28) 0 1))'
journey_begin

library="$HOME/Writing"
project="$library/My Poems"
draft="$project/Draft"
mkdir -p "$library"

# Emacs's first start in a new home natively compiles what it loads, and
# on Debian that pops a *Warnings* window of its own elpa packages'
# (seq-25.el: an obsolete `seq-contains', wide docstrings), Carrel or
# not. One bare start, until its compiling is done, keeps those out of
# the start below, so that any *Warnings* there is Carrel's.
start_editor "$library" emacs -nw --eval \
  '(run-with-timer 1 0.2 (lambda () (unless (or comp-files-queue (> (comp-async-runnings) 0)) (kill-emacs))))'
warm_deadline=$((SECONDS + 600))
while tmux -S "$socket" has-session -t journey 2>/dev/null; do
  [ "$SECONDS" -le "$warm_deadline" ] || { echo "# the bare start was still compiling after 600s"; break; }
  sleep 0.2
done
tmux -S "$socket" kill-server 2>/dev/null

# editors/emacs/README.md, "Install", "From a checkout, with load-path":
# the server on the PATH, the package from the repository "cloned to
# ~/src/carrel" (a copy of its editors/emacs), and "Setup"'s line naming
# the library.
install_carrel
mkdir -p "$HOME/src/carrel/editors"
cp -R "$repository/editors/emacs" "$HOME/src/carrel/editors/emacs"
mkdir -p "$HOME/.emacs.d"
cat > "$HOME/.emacs.d/init.el" <<'EOF'
(add-to-list 'load-path "~/src/carrel/editors/emacs")
(require 'carrel)
(setq carrel-library-directory "~/Writing")
EOF
start_editor "$library" emacs -nw

# Back to the binder, whatever was open: what a writer does between steps.
# No C-g: Emacs busy with a key before discards what is typed after a quit.
to_binder() {
  keys M-x
  type_text 'carrel'
  keys Enter
}

# Puts point on the first binder row showing `text`, searching from the top.
to_row() {
  keys 'M-<' C-s
  type_text "$1"
  keys Enter
}

recover() {
  keys C-g C-g C-g
  to_binder
}

onboarding() {
  wait_screen 'GNU Emacs' || return
  keys M-x
  type_text 'carrel'
  keys Enter
  wait_screen 'No project yet: press P to make one'
}

# P, the name and Enter typed at once: the type is asked next.
first_project() {
  keys P
  type_text 'My Poems'
  keys Enter
  wait_screen 'Project type:' || return
  type_text 'Poetry'
  keys Enter
  wait_screen 'YOUR POETRY' || return
  wait_exists "$project/.carrel/project.json" && wait_exists "$draft"
}

# Carrel's first minute: Emacs has compiled what it loaded for Carrel by
# now, and none of it warned.
no_warnings() {
  keys M-:
  # The answer's words are not in what is typed, so only the answer matches.
  type_text '(progn (while (or comp-files-queue (> (comp-async-runnings) 0)) (sleep-for 0.1))'
  type_text ' (message "%s %s" (upcase "warnings:") (if (get-buffer "*Warnings*")'
  type_text ' (with-current-buffer "*Warnings*" (buffer-string)) (upcase "none"))))'
  keys Enter
  wait_screen 'WARNINGS: ' 120 || return
  if ! screen | grep -qF 'WARNINGS: NONE'; then
    fail 'Emacs showed *Warnings* once Carrel was loaded'
  fi
}

new_folder() {
  to_binder
  to_row '= Draft'
  keys A
  wait_screen 'New folder name:' || return
  type_text 'Sea Cycle'
  keys Enter
  wait_exists "$draft/Sea Cycle" && wait_screen 'Sea Cycle'
}

# Writes the buffer, as new_file_typed does after the first words.
save() {
  keys C-x C-s
}

new_file_and_first_words() {
  to_binder
  new_file_typed 'Ebb' 'The tide comes in.'
}

second_file() {
  to_binder
  new_file_typed 'Anchor' 'Hello world'
}

rename() {
  to_binder
  to_row '. Ebb.md'
  keys r
  wait_screen 'Rename to: Ebb.md' || return
  keys C-a C-k
  type_text 'Ebb Tide.md'
  keys Enter
  wait_exists "$draft/Ebb Tide.md" || return
  wait_gone "$draft/Ebb.md"
}

# Move, "New folder…", its name, where to make it: the folder is made
# there and the file moved into it; nothing else is made.
move_with_new_folder() {
  to_binder
  to_row '. Ebb Tide.md'
  keys m
  wait_screen 'Move “Ebb Tide.md” to:' || return
  type_text 'New'
  keys Tab Enter
  wait_screen 'New folder name:' || return
  type_text 'Revisions'
  keys Enter
  wait_screen 'Create “Revisions” in:' || return
  type_text 'Writing › My Poems › Draft'
  keys Enter
  wait_exists "$draft/Revisions/Ebb Tide.md" || return
  expect_only_folder 'Revisions' "$draft/Revisions"
}

# Name, Z to A puts Ebb Tide above Anchor; Binder order starts in name order.
sort() {
  to_binder
  to_row '. Anchor.md'
  keys s
  wait_screen 'Sort by:' || return
  type_text 'Name, Z to A'
  keys Enter
  wait_for_order 'Ebb Tide.md' 'Anchor.md' || return
  keys s
  wait_screen 'Sort by:' || return
  type_text 'Binder order'
  keys Enter
  wait_for_order 'Anchor.md' 'Ebb Tide.md'
}

reorder() {
  to_binder
  to_row '. Ebb Tide.md'
  keys M-p
  wait_for_order 'Ebb Tide.md' 'Anchor.md' || return
  wait_exists "$draft/.carrel-order" || return
  grep -q 'Ebb Tide' "$draft/.carrel-order" || fail '.carrel-order does not name Ebb Tide.md'
}

delete_asking() {
  origin=$(ebb_tide)
  [ -n "$origin" ] || fail 'Ebb Tide.md is nowhere' || return
  ask_to_delete_ebb_tide '. Ebb Tide.md' || return
  keys d
  wait_exists "$project/Trash/Ebb Tide.md" && wait_gone "$origin"
}

restore() {
  to_binder
  # > opens everything below the section, however much of it was open.
  to_row 'TRASH'
  keys '>'
  wait_screen '. Ebb Tide.md' || return
  to_row '. Ebb Tide.md'
  keys u
  wait_exists "$origin" && wait_gone "$project/Trash/Ebb Tide.md"
}

delete_and_dont_ask_again() {
  ask_to_delete_ebb_tide '. Ebb Tide.md' || return
  wait_screen "a Delete and Don't Ask Again" || return
  keys a
  wait_exists "$project/Trash/Ebb Tide.md"
}

delete_without_asking() {
  to_binder
  to_row '. Anchor.md'
  keys d
  wait_exists "$project/Trash/Anchor.md" || return
  if screen | grep -qF 'Move “Anchor.md” to the Trash?'; then
    fail 'it asked again'
  fi
}

empty_trash() {
  to_binder
  to_row '@ My Poems'
  keys E
  wait_screen 'in the Trash of “My Poems” forever?' || return
  keys d
  wait_gone "$project/Trash/Anchor.md" && wait_gone "$project/Trash/Ebb Tide.md"
}


step 'onboarding: M-x carrel in an empty library says how to begin' onboarding
step 'first project: P, a name and Enter at once, Poetry' first_project
step 'no *Warnings* in Carrel'"'"'s first minute' no_warnings
step 'new folder: A on Draft' new_folder
step 'new file: a, its name, then the first words typed at once' new_file_and_first_words
step 'a second new file, typed at once too' second_file
step 'rename: r offers the name; the new one is kept' rename
step 'sort: Name, Z to A, then Binder order' sort
step 'reorder: M-p moves a file above its sibling' reorder
step 'target: T on the project, 500' target
step 'move to a new folder: m, “New folder…”, a name, where' move_with_new_folder
step 'delete, asked: d, Delete' delete_asking
step 'restore: u in the Trash puts it back' restore
step 'delete: d, “Delete and Don'"'"'t Ask Again”' delete_and_dont_ask_again
step 'delete without asking' delete_without_asking
step 'empty Trash: E, Delete' empty_trash
step 'an outside change shows in the binder' outside_change
journey_end

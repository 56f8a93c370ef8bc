#!/usr/bin/env bash
# A writer's first hour with Carrel in Neovim, typed into a real terminal:
# the plugin installed as editors/nvim/README.md says (without a plugin
# manager), in an empty home, Neovim started in an empty library folder.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/steps.sh"
source "$(dirname "${BASH_SOURCE[0]}")/vimkeys.sh"
name=nvim
journey_needs 'Neovim 0.10 or later' 'see editors/nvim/README.md' \
  nvim --headless -u NONE -c 'if !has("nvim-0.10") | cquit | endif' -c q
journey_begin

library="$HOME/Writing"
project="$library/My Poems"
draft="$project/Draft"

# editors/nvim/README.md, "Install", "Without a plugin manager": the server
# on the PATH, the plugin from the repository "cloned to ~/src/carrel" (a
# copy of its editors/nvim, so that helptags writes there and not into this
# checkout) linked into Neovim's packages, packadd and setup in init.lua,
# then :helptags ALL once.
install_carrel
mkdir -p "$HOME/src/carrel/editors"
cp -R "$repository/editors/nvim" "$HOME/src/carrel/editors/nvim"
mkdir -p "$HOME/.local/share/nvim/site/pack/carrel/opt"
ln -s "$HOME/src/carrel/editors/nvim" "$HOME/.local/share/nvim/site/pack/carrel/opt/carrel"
mkdir -p "$HOME/.config/nvim"
cat > "$HOME/.config/nvim/init.lua" <<'EOF'
vim.cmd.packadd('carrel')
require('carrel').setup({ libraries = { '~/Writing' } })
EOF
HOME="$HOME" nvim --headless -c 'helptags ALL' -c q </dev/null >/dev/null 2>&1
[ -f "$HOME/src/carrel/editors/nvim/doc/tags" ] || echo "# helptags made no tags file"
mkdir -p "$library"
start_editor "$library" nvim

# Back to the binder, whatever was open: what a writer does between steps.
# (`:Carrel` alone toggles; `open` goes to the binder when it is open.)
to_binder() {
  keys Escape
  type_text ':Carrel open'
  keys Enter
}

recover() {
  keys Escape Escape
  # A float left open (a picker, the keys) closes on q; the binder is then shown again.
  type_text ':lua for _, w in ipairs(vim.api.nvim_list_wins()) do'
  type_text ' if vim.api.nvim_win_get_config(w).relative ~= "" then vim.api.nvim_win_close(w, true) end end'
  keys Enter
  to_binder
}

onboarding() {
  wait_screen '~' || return
  type_text ':Carrel'
  keys Enter
  # The binder is 40 columns wide: the whole line fits.
  wait_screen 'No project yet: press P to make one'
}

# P, the name and Enter typed at once, as soon as the binder shows, while
# the server may still be counting: the type picker must come.
first_project() {
  keys P
  type_text 'My Poems'
  keys Enter
  wait_screen 'Project type' || return
  to_row 'Poetry'
  keys Enter
  wait_screen 'YOUR POETRY' || return
  wait_exists "$project/.carrel/project.json" && wait_exists "$draft"
}

# Move, "New folder…", its name, where to make it: the folder is made
# there and the file moved into it; nothing else is made.
move_with_new_folder() {
  ask_where_to_make_revisions || return
  # The folder the file is in, found in the picker as a writer finds it.
  type_text '/\V Writing › My Poems › Draft\$'
  keys Enter Enter
  wait_exists "$draft/Revisions/Ebb Tide.md" || return
  expect_only_folder 'Revisions' "$draft/Revisions"
}

# Name, Z to A puts Ebb Tide above Anchor; Binder order starts in name order.
sort() {
  to_binder
  to_row 'Anchor.md'
  keys s
  wait_screen 'Name, Z to A' || return
  type_text '/\VName, Z to A'
  keys Enter Enter
  wait_for_order 'Ebb Tide.md' 'Anchor.md' || return
  keys s
  wait_screen 'Binder order' || return
  type_text '/\VBinder order'
  keys Enter Enter
  wait_for_order 'Anchor.md' 'Ebb Tide.md'
}

delete_asking() {
  origin=$(ebb_tide)
  [ -n "$origin" ] || fail 'Ebb Tide.md is nowhere' || return
  ask_to_delete_ebb_tide 'Ebb Tide.md' || return
  # Neovim's own vim.ui.select: a numbered list.
  wait_screen 'Type number and <Enter>' || return
  type_text '2'
  keys Enter
  wait_exists "$project/Trash/Ebb Tide.md" && wait_gone "$origin"
}

delete_and_dont_ask_again() {
  ask_to_delete_ebb_tide 'Ebb Tide.md' || return
  wait_screen 'Type number and <Enter>' || return
  type_text '3'
  keys Enter
  wait_exists "$project/Trash/Ebb Tide.md"
}

empty_trash() {
  to_binder
  to_row '@ My Poems'
  keys E
  wait_screen 'in the Trash of “My Poems” forever?' || return
  wait_screen 'Type number and <Enter>' || return
  type_text '2'
  keys Enter
  wait_gone "$project/Trash/Anchor.md" && wait_gone "$project/Trash/Ebb Tide.md"
}

step 'onboarding: :Carrel in an empty library says how to begin' onboarding
step 'first project: P, a name and Enter at once, Poetry' first_project
step 'new folder: A on Draft' new_folder
step 'an empty name: refused in the server'"'"'s words; Esc says nothing' empty_name
step 'new file: a, its name, then the first words typed at once' new_file_and_first_words
step 'a second new file, typed at once too' second_file
step 'rename: r offers the name; the new one is kept' rename
step 'sort: Name, Z to A, then Binder order' sort
step 'reorder: K moves a file above its sibling' reorder
step 'target: T on the project, 500' target
step 'move to a new folder: m, “New folder…”, a name, where' move_with_new_folder
step 'delete, asked: d, Delete' delete_asking
step 'restore: u in the Trash puts it back' restore
step 'delete: d, “Delete and Don'"'"'t Ask Again”' delete_and_dont_ask_again
step 'delete without asking' delete_without_asking
step 'empty Trash: E, Delete' empty_trash
step 'an outside change shows in the binder' outside_change
journey_end

#!/usr/bin/env python3
"""Writes a synthetic library of about N entries (files and folders) to a folder.

A writer's ~/Writing with a few projects and one big clippings folder: the
projects stay small, so the binder's first view is the same size at 10k and
at 110k entries, and what grows is what the binder need not show at first.
`Letters`, at the top, holds 1,000 files: the folder timed expanding.
The seed is fixed, so every run and every editor sees the same tree.
"""
import json
import os
import random
import sys

WORDS = ["Chapter", "Scene", "Draft", "Notes", "Letter", "Poem", "Sonnet", "Essay", "Journal", "Outline",
         "Café", "Überblick", "Crème brûlée", "Résumé", "Naïve", "Kapitel", "Mémoire", "Été"]

PROJECTS = [
    ("Poems", "poetry", ["Draft", "Ready", "Set Aside", "Published", "Research", "Trash"]),
    ("Short Stories", "shortStory", ["Draft", "Ready", "Research", "Trash"]),
    ("The Novel", "novel", ["Novel", "Chapters", "Scenes", "Characters", "Research", "Trash"]),
    ("Notebook", "blank", ["Trash"]),
]


def touch(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def make(root, entries, seed=0xC0FFEE):
    rng = random.Random(seed)
    os.makedirs(root)
    made = 0
    pool = []  # folders that may receive more entries: (path, depth)
    for name, kind, folders in PROJECTS:
        project = os.path.join(root, name)
        os.makedirs(os.path.join(project, ".carrel"))
        touch(os.path.join(project, ".carrel", "project.json"), json.dumps({"type": kind, "version": 1}))
        made += 1
        for folder in folders:
            os.makedirs(os.path.join(project, folder))
            made += 1
            if folder != "Trash":
                for i in range(20):
                    touch(os.path.join(project, folder, f"{rng.choice(WORDS)} {i}.md"), f"{name} {folder} {i}\n")
                    made += 1
    for i in range(3):
        touch(os.path.join(root, f"Idea {i}.md"), f"idea {i}\n")
        made += 1
    # The folder every binder and tree plugin is timed expanding: a thousand children.
    letters = os.path.join(root, "Letters")
    os.makedirs(letters)
    made += 1
    for i in range(1000):
        touch(os.path.join(letters, f"Letter {i:04}.md"), f"letter {i}\n")
        made += 1
    clippings = os.path.join(root, "Clippings")
    os.makedirs(clippings)
    made += 1
    pool.append((clippings, 1))
    # About one folder in ten entries, at most five deep, the rest files.
    n = 0
    while made < entries:
        parent, depth = pool[rng.randrange(len(pool))]
        if rng.randrange(10) == 0 and depth < 5:
            path = os.path.join(parent, f"{rng.choice(WORDS)} {n}")
            os.mkdir(path)
            pool.append((path, depth + 1))
        else:
            touch(os.path.join(parent, f"{rng.choice(WORDS)} {n}.md"), f"clipping {n}\n")
        n += 1
        made += 1
    return made


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_library.py FOLDER ENTRIES")
    print(make(sys.argv[1], int(sys.argv[2])))

#!/usr/bin/env python3
"""Another program's burst: N new files in FOLDER, each written elsewhere and renamed in."""
import os
import sys

folder, n = sys.argv[1], int(sys.argv[2])
staging = folder + ".staging"
os.makedirs(staging, exist_ok=True)
for i in range(n):
    path = os.path.join(staging, f"Burst {i}.md")
    with open(path, "w") as f:
        f.write("burst\n")
    os.rename(path, os.path.join(folder, f"Burst {i}.md"))

#!/usr/bin/env python3
"""Runs a server command and relays its stdout, counting the bytes.

The plugins' logs differ (Vim and Emacs keep none a benchmark can read the
same way), so every editor runs the server through this relay in the change
session, and reads the running total from COUNT_FILE before and after each
outside change. stdin and stderr are the server's own: only its output is
relayed, so only what the client reads is counted.
"""
import os
import subprocess
import sys

count_file, command = sys.argv[1], sys.argv[2:]
server = subprocess.Popen(command, stdout=subprocess.PIPE, bufsize=0)
counter = os.open(count_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
total = 0
while True:
    chunk = os.read(server.stdout.fileno(), 1 << 16)
    if not chunk:
        break
    view = memoryview(chunk)
    while view:
        view = view[os.write(1, view):]
    total += len(chunk)
    # Fixed width, so a reader never sees half of a longer number over a shorter one.
    os.pwrite(counter, b"%20d\n" % total, 0)
sys.exit(server.wait())

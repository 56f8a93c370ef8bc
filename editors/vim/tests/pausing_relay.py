#!/usr/bin/env python3
"""Runs the server and relays its output, pausing inside some messages.

Usage: pausing_relay.py TEXT SECONDS SERVER [ARGS...]

Each message whose body holds TEXT reaches the editor in two parts, the
second SECONDS after the first, as a message does when the server writes a
long reply piece by piece on a loaded machine, or when the pipe fills while
the editor is busy. Every other message, and the editor's input, passes
as is. The Neovim, Emacs and VS Code suites use it too.
"""
import os
import subprocess
import sys
import time

text, pause, command = sys.argv[1].encode(), float(sys.argv[2]), sys.argv[3:]
server = subprocess.Popen(command, stdout=subprocess.PIPE, bufsize=0)
source = server.stdout.fileno()
held = b""


def write(data):
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


def read_more():
    global held
    chunk = os.read(source, 1 << 16)
    if not chunk:
        return False
    held += chunk
    return True


while True:
    end = held.find(b"\r\n\r\n")
    if end < 0:
        if not read_more():
            break
        continue
    length = 0
    for line in held[:end].split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    whole = end + 4 + length
    while len(held) < whole:
        if not read_more():
            break
    message, held = held[:whole], held[whole:]
    if text in message[end + 4:]:
        cut = end + 4 + length // 2
        write(message[:cut])
        time.sleep(pause)
        write(message[cut:])
    else:
        write(message)
    if len(held) == 0 and server.poll() is not None:
        break
write(held)
sys.exit(server.wait())

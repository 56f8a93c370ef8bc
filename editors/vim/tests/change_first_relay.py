#!/usr/bin/env python3
"""Runs the server and relays its messages, with a change told before each
command's answer and the command's own change late.

Usage: change_first_relay.py SECONDS SERVER [ARGS...]

Each answer to workspace/executeCommand reaches the editor right after a
carrel/didChange of its own making (no changes, no rows), as a change
another program made does when it is told while the command runs; the
first carrel/didChange after the answer, the command's own, comes SECONDS
later, as on a loaded machine. A client that takes a notification read
before the answer for the command's own goes on before the command's
change has arrived. Every other message passes as is. The Emacs and
VS Code suites use it too.
"""
import json
import os
import subprocess
import sys
import threading
import time

pause, command = float(sys.argv[1]), sys.argv[2:]
server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
commands = set()
commands_lock = threading.Lock()
unrelated = json.dumps({"jsonrpc": "2.0", "method": "carrel/didChange",
                        "params": {"changes": [], "updated": []}}).encode()


def frames(fd):
    """Yields (whole frame, parsed body or None) as they arrive on fd."""
    held = b""
    while True:
        end = held.find(b"\r\n\r\n")
        if end >= 0:
            length = 0
            for line in held[:end].split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            whole = end + 4 + length
            if len(held) >= whole:
                body = held[end + 4:whole]
                try:
                    message = json.loads(body)
                except ValueError:
                    message = None
                yield held[:whole], message if isinstance(message, dict) else None
                held = held[whole:]
                continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        held += chunk


def write(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def relay_input():
    """The editor's messages to the server, noting which ask for a command."""
    server_in = server.stdin.fileno()
    for frame, message in frames(0):
        if message and message.get("method") == "workspace/executeCommand" and "id" in message:
            with commands_lock:
                commands.add(json.dumps(message["id"]))
        try:
            write(server_in, frame)
        except OSError:
            return
    server.stdin.close()


threading.Thread(target=relay_input, daemon=True).start()
hold_next_change = False
for frame, message in frames(server.stdout.fileno()):
    message = message or {}
    if "method" not in message and "id" in message:
        with commands_lock:
            answers_command = json.dumps(message["id"]) in commands
            commands.discard(json.dumps(message["id"]))
        if answers_command:
            write(1, b"Content-Length: %d\r\n\r\n" % len(unrelated) + unrelated)
            hold_next_change = True
    elif hold_next_change and message.get("method") == "carrel/didChange":
        hold_next_change = False
        time.sleep(pause)
    write(1, frame)
sys.exit(server.wait())

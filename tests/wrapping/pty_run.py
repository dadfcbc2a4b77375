#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal COLUMNS wide and prints what the terminal showed.

    pty_run.py COLUMNS PROGRAM ARGS...

The child's terminal (stdin, stdout, stderr: one pty) is given a window COLUMNS wide and 40 lines
high before PROGRAM starts, as a terminal emulator does, so PROGRAM learns its width from the
terminal (TIOCGWINSZ), not from the environment. Prints the bytes read, exits with PROGRAM's exit
code. Standard library only.
"""
import fcntl
import os
import pty
import struct
import sys
import termios

columns, argv = int(sys.argv[1]), sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    os.execv(argv[0], argv)
seen = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    seen += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(seen)
sys.exit(os.waitstatus_to_exitcode(status))

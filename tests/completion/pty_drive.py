#!/usr/bin/env python3
"""Types into an interactive shell on a pseudo-terminal and prints what the terminal showed.

    pty_drive.py KEYS... -- SHELL ARGS...

Starts SHELL ARGS in a new pty (100x40), waits for the prompt `PROMPT> ` (the rc file the caller
gives the shell sets it), types KEYS (Python escapes: \\t is TAB), then turns the line into
`echo "LINE" __DONE__` (Ctrl-A, `echo "`, Ctrl-E, `" __DONE__`, Enter) and prints everything the
shell wrote until that echo's output: the candidates it listed, then `LINE __DONE__`, the line as
completion left it. Keys are plain characters, queued by the terminal in order, so each TAB's
completion finishes before the next key is read: nothing waits on time. Standard library only
(pty, os, select), so the completion tests need no package. Fails (exit 1) when the shell does not
get there within 60 s. With several KEYS, each is one case, in one session, and each transcript
ends with a line `=====CASE-END=====`.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

PROMPT = b"PROMPT> "
DONE = b"__DONE__"


def read_until(fd, needle, deadline, seen, at=0):
    while seen.find(needle, at) < 0:
        left = deadline - time.monotonic()
        if left <= 0:
            sys.stdout.buffer.write(seen)
            sys.exit("pty_drive: timed out waiting for %r" % needle)
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                sys.stdout.buffer.write(seen)
                sys.exit("pty_drive: the shell exited before %r" % needle)
            seen += chunk
    return seen


def main():
    split = sys.argv.index("--")
    cases = [k.encode().decode("unicode_escape").encode() for k in sys.argv[1:split]]
    command = sys.argv[split + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        os.execvp(command[0], command)
    deadline = time.monotonic() + 60 * len(cases)
    seen = read_until(fd, PROMPT, deadline, b"")
    for keys in cases:
        start = len(seen)
        os.write(fd, keys + b'\x01echo "\x05" __DO""NE__\r')
        seen = read_until(fd, b" " + DONE, deadline, seen, at=start)
        # The next prompt: the shell is done with this line.
        seen = read_until(fd, PROMPT, deadline, seen, at=seen.rindex(DONE))
        sys.stdout.buffer.write(seen[start:] + b"\n=====CASE-END=====\n")
    os.write(fd, b"exit\r")
    try:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    except OSError:
        pass


if __name__ == "__main__":
    main()

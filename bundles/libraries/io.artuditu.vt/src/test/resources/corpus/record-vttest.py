#!/usr/bin/env python3
"""Record vttest's screens, one corpus item per "Push <RETURN>" screen.

usage: record-vttest.py OUTDIR COLS ROWS MENU...

Runs Debian's vttest on a fresh PTY of COLS x ROWS, told that this is the screen size
(its argument ROWSxCOLS.COLS, so the "132-column" passes also draw at COLS), and walks
each MENU of the main menu by pressing RETURN at every "Push <RETURN>" prompt. Nothing
answers the terminal queries (menus 1, 2, 3 and 8 make none).

Each screen becomes vttest-COLSxROWS-mMENU-NN.bin: the bytes vttest wrote from the
start of the screen to its prompt. A screen starts at the step (bytes between two
RETURNs) that last erased the whole display (CSI 2 J), so a prompt that only adds a line
to the screen before it carries that screen's drawing too; the recording begins with the
step's first byte, which keeps the modes vttest set just before the erase. A screen
identical to one already written for the menu (the second, "132-column" pass of menu 8 at
the same width) is not written again.
"""
import fcntl, hashlib, os, pty, select, signal, struct, sys, termios

ERASE = b'\x1b[2J'


def main():
    outdir, cols, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    menus = [int(m) for m in sys.argv[4:]]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM='xterm-256color', LANG='C.UTF-8', LC_ALL='C.UTF-8')
        os.execvp('vttest', ['vttest', f'{rows}x{cols}.{cols}'])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))

    def quiet(t=0.4):
        """Everything the program writes until it has been silent for t seconds."""
        buf = bytearray()
        while True:
            r, _, _ = select.select([fd], [], [], t)
            if not r:
                return bytes(buf)
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return bytes(buf)
            if not chunk:
                return bytes(buf)
            buf += chunk

    seen = b''
    for _ in range(20):
        seen += quiet(0.5)
        if b'Enter choice number' in seen:
            break
    for m in menus:
        os.write(fd, f'{m}\r'.encode())
        steps = []
        digests = set()
        tries = 0
        while True:
            d = quiet()
            if b'Push <RETURN>' in d[-200:]:
                steps.append(d)
                start = len(steps) - 1
                while start > 0 and ERASE not in steps[start]:
                    start -= 1
                screen = b''.join(steps[start:])
                digest = hashlib.sha256(screen).digest()
                if digest not in digests:
                    digests.add(digest)
                    name = os.path.join(outdir, f'vttest-{cols}x{rows}-m{m}-{len(digests):02d}.bin')
                    with open(name, 'wb') as f:
                        f.write(screen)
                    print(f'{name}: {len(screen)} bytes', file=sys.stderr)
                os.write(fd, b'\r')
            elif b'Enter choice number' in d[-400:]:
                if not steps and tries < 3:
                    # vttest drops what was typed before its first menu was read; ask again.
                    tries += 1
                    os.write(fd, f'{m}\r'.encode())
                    continue
                break
            else:
                sys.exit(f'menu {m}: neither a prompt nor the menu after {len(steps)} screens')
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


main()

#!/usr/bin/env python3
"""Record what a program writes to a terminal of a fixed size, byte for byte.

usage: record.py OUT COLS ROWS [--keys KEYS] -- COMMAND...

Runs COMMAND on a fresh PTY of COLS x ROWS (TERM=xterm-256color, LANG=C.UTF-8) and
writes everything read from the PTY master to OUT. Nothing answers the program's queries
(DA, DSR), as with a terminal that ignores them. KEYS is a list of steps separated by
'|': a number waits that many seconds (the output keeps being recorded), anything
else is typed, with the escapes \\r and \\xHH. Steps of the form '!stop'
end the recording there and kill the program, so a full-screen program's screen is kept
as it was rather than what it leaves behind on exit.
"""
import fcntl, os, re, pty, select, signal, struct, sys, termios, time

def main():
    args = sys.argv[1:]
    out, cols, rows = args[0], int(args[1]), int(args[2])
    args = args[3:]
    keys = []
    if args and args[0] == '--keys':
        keys = args[1].split('|')
        args = args[2:]
    assert args[0] == '--'
    cmd = args[1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM='xterm-256color', LANG='C.UTF-8', LC_ALL='C.UTF-8',
                          COLUMNS=str(cols), LINES=str(rows))
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
    data = bytearray()

    def pump(seconds):
        end = time.time() + seconds
        while True:
            left = end - time.time()
            if left <= 0:
                return True
            r, _, _ = select.select([fd], [], [], left)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                data.extend(chunk)

    alive = pump(0.5)
    for k in keys:
        if not alive:
            break
        if k == '!stop':
            os.kill(pid, signal.SIGKILL)
            alive = False
            break
        try:
            pump_s = float(k)
            alive = pump(pump_s)
            continue
        except ValueError:
            pass
        typed = re.sub(r'\\x([0-9a-fA-F]{2})', lambda m: chr(int(m.group(1), 16)), k).replace('\\r', '\r')
        os.write(fd, typed.encode('utf-8'))
        alive = pump(0.3)
    if alive:
        alive = pump(5)
    if alive:
        os.kill(pid, signal.SIGKILL)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    with open(out, 'wb') as f:
        f.write(data)
    print(f'{out}: {len(data)} bytes', file=sys.stderr)

main()

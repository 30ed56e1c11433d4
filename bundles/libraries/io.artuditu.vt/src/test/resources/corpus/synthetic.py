#!/usr/bin/env python3
"""Write the synthetic corpus items: one byte script per emulator edge-case area.

usage: synthetic.py [OUTDIR]

Each item is a few hundred bytes of escape sequences for a 100 x 30 screen (the size
TmuxDiffTest declares for every syn-*.bin), written as syn-AREA.bin. The bytes are
replayed as they are (the test puts the pane in raw mode), so LF does not imply CR.
Each script ends by moving the cursor somewhere definite, so the cursor check
compares the state the area leaves behind, not an accident of the last line.
"""
import os, sys

E = '\x1b'
CSI = E + '['
COLS, ROWS = 100, 30


def cup(r, c):
    return f'{CSI}{r};{c}H'


def fill_to_last(r, ch='x'):
    """Puts the cursor on row r and writes the row's last cell, leaving the wrap pending."""
    return cup(r, COLS - 4) + ch * 5


ITEMS = {}

# Pending wrap: each control that arrives while the wrap is pending, one row each. Rows
# marked with a gap leave the next row empty, because xterm puts the '*' written after
# them at the start (or end) of the next row. TmuxDiffTest states xterm's result per row.
s = CSI + '2J'
r = 2
for i, (name, seq, gap) in enumerate([
        ('CUU', CSI + 'A', False), ('CR', '\r', False), ('LF', '\n', True), ('BS', '\b', False),
        ('CUB', CSI + 'D', False), ('CUB3', CSI + '3D', False), ('CUF', CSI + 'C', False),
        ('CHA', CSI + '50G', False), ('CHA1', CSI + 'G', False), ('HT', '\t', True),
        ('DECSC', E + '7' + cup(30, 1) + 'elsewhere' + E + '8', True),
        ('EL', CSI + 'K', False), ('ICH', CSI + '@', False), ('DCH', CSI + 'P', False), ('ECH', CSI + 'X', False),
        ('SGR', CSI + '1m', True), ('CSIs', CSI + 's' + cup(30, 1) + 'there' + CSI + 'u', True)]):
    s += cup(r, 1) + name + fill_to_last(r, 'ab'[i % 2]) + seq + '*' + CSI + '0m'
    r += 2 if gap else 1
s += cup(29, 1) + 'end' + cup(28, 10)
ITEMS['pending-wrap'] = s

# DECAWM off: text past the last column keeps overwriting it; a wide character that
# does not fit is not written; turning autowrap back on writes and wraps normally.
s = CSI + '2J' + CSI + '?7l'
s += cup(2, 90) + 'abcdefghijklmnopqrstuvwxyz'
s += cup(3, 99) + 'XY' + '\u4e2d'
s += cup(4, 100) + '\u4e2d'
s += cup(5, 98) + '\u4e2d\u6587'
s += cup(6, 95) + 'abc\u00e9\u00e8\u00ea\u00eb'
s += cup(7, 100) + 'q' + CSI + 'b'
s += CSI + '?7h' + cup(9, 96) + 'wraps here'
s += cup(12, 1) + 'end' + cup(12, 4)
ITEMS['decawm-off'] = s

# A wide character that does not fit in the last column, with autowrap on and off.
s = CSI + '2J'
s += cup(2, 100) + '\u4e2d' + 'after'
s += cup(5, 99) + 'x\u4e2d' + 'after'
s += cup(8, 99) + '\u4e2d\u6587'
s += cup(11, 100) + CSI + '41m' + '\u4e2d' + CSI + '0m'
s += CSI + '?7l' + cup(14, 100) + '\u4e2d' + 'z'
s += cup(15, 99) + '\u4e2d'
s += cup(16, 98) + '\u4e2d\u6587'
s += CSI + '?7h' + cup(20, 1) + 'end'
ITEMS['wide-last-column'] = s

# BS at the first column of a row continued by a soft wrap (xterm: the cursor stays).
s = CSI + '2J' + cup(2, 1) + 'w' * 100 + 'second'
s += '\r\b' + 'B'
s += cup(5, 1) + 'v' * 105 + '\r' + CSI + 'D' + 'C'
s += cup(8, 1) + 'u' * 100 + 'z' + '\b\b' + 'Y'
s += cup(12, 3)
ITEMS['bs-continuation'] = s

# vttest's autowrap screen, condensed: printable characters with controls between them
# at both margins, with autowrap on: NUL, BEL, ENQ, DEL and CR between the last column and
# the next character (BS, LF and VT there are in syn-pending-wrap: tmux differs on them).
s = CSI + '2J' + CSI + '3;21r' + CSI + '?6h'
for i in range(26):
    big, small = chr(ord('A') + i), chr(ord('a') + i)
    # Row 19 of the region is its bottom: each line scrolls the region by one.
    s += cup(19, 100) + small + ['', '\x00\x07', '\r', '\x05\x7f'][i % 4] + big + ['\r\n', '\r\n', '\n', '\r\n'][i % 4]
s += CSI + '?6l' + CSI + 'r' + cup(25, 1) + 'x' * 99 + '\x07' + 'y' + '\x00\x05' + 'z' + '\x0e\x0f' + '!'
s += cup(28, 1)
ITEMS['autowrap-mixed'] = s

# DEC special graphics and G0/G1 designation and invocation, DECSC/DECRC of the charsets.
s = CSI + '2J'
s += cup(1, 1) + E + '(0' + ''.join(chr(c) for c in range(0x5f, 0x7f)) + E + '(B' + ' ascii'
s += cup(2, 1) + E + ')0' + 'abc\x0e' + 'lqqk\x0f' + 'def\x0e' + 'x  x\x0f'
s += cup(3, 1) + '\x0e' + 'mqqj' + E + '7' + '\x0f' + E + '(B' + 'plain' + E + '8' + 'tuvw'
s += cup(4, 1) + E + '(0' + 'n' + E + '7' + E + '(B' + 'q' + E + '8' + 'q' + E + '(B'
s += cup(5, 1) + '\x0f' + E + '(0' + 'xq' + E + '(1' + 'q' + E + '(K' + 'q' + E + '(B' + 'q'
s += cup(6, 1) + E + '(0' + '`afg~' + E + '(B' + '#`'
s += cup(7, 1) + E + ')B' + '\x0e' + 'lqk' + '\x0f' + E + '(0' + 'lqk' + E + '(B'
s += cup(8, 1) + E + '(0' + '\u00e9q' + 'q' + E + '(B'
s += cup(10, 1) + 'end' + cup(10, 5)
ITEMS['charsets'] = s

# G2/G3: designation (ESC * 0, ESC + 0), locking shifts LS2/LS3 (ESC n, ESC o) and
# single shifts SS2/SS3 (ESC N, ESC O), and DECSC/DECRC keeping the invoked set. xterm
# honours all of them; tmux 3.3a ignores them (TmuxDiffTest names the rows).
s = CSI + '2J' + E + '*0' + E + '+0'
s += cup(1, 1) + 'a' + E + 'n' + 'lqk' + '\x0f' + 'b'
s += cup(2, 1) + 'c' + E + 'N' + 'qq'
s += cup(3, 1) + 'd' + E + 'O' + 'xx'
s += cup(4, 1) + E + 'o' + 'lqk' + '\x0f' + 'e'
s += cup(5, 1) + E + 'n' + E + '7' + '\x0f' + 'f' + E + '8' + 'q' + '\x0f'
s += cup(7, 1)
ITEMS['charsets-g2g3'] = s

# The British set (ESC ( A, ESC ) A): '#' is the pound sign. tmux 3.3a ignores the designation.
s = CSI + '2J'
s += cup(1, 1) + E + '(A' + '#x#' + E + '(B' + '#'
s += cup(2, 1) + E + ')A' + '\x0e' + '#' + '\x0f' + '#'
s += cup(3, 1) + E + '(0' + 'q' + E + '(A' + 'q#' + E + '(B'
s += cup(5, 1)
ITEMS['charset-british'] = s

# DECSTR (soft reset): designations back to ASCII, insert mode off. tmux 3.3a ignores DECSTR.
s = CSI + '2J' + cup(1, 1) + E + '(0' + 'q' + CSI + '!p' + 'q'
s += cup(2, 1) + 'abc' + CSI + '4h' + CSI + '!p' + cup(2, 1) + 'X'
s += cup(4, 1)
ITEMS['decstr'] = s

# DECALN, then text over it in a colour, a scroll region it resets, and RIS.
s = CSI + '2J' + CSI + '44m' + CSI + '5;10r' + E + '#8' + CSI + '0m'
s += cup(3, 3) + 'over DECALN' + CSI + '12;1H' + '\n' * 25 + 'scrolled'
ITEMS['decaln'] = s
s = CSI + '?7l' + CSI + '5;10r' + CSI + '?6h' + E + '(0' + CSI + '1;41m' + 'before' + CSI + '3g'
s += E + 'c' + 'after RIS' + '\tTab' + cup(100, 200) + 'x' * 3 + cup(2, 1) + 'qq'
ITEMS['ris'] = s

# Scroll regions with IL, DL, SU and SD, in and out of the region, and origin mode.
s = CSI + '2J'
for r in range(1, 31):
    s += cup(r, 1) + f'row {r:02d} ' + chr(0x40 + r) * 20
s += CSI + '5;15r'
s += cup(7, 1) + CSI + '2L' + 'IL2'
s += cup(9, 1) + CSI + '3M' + 'DL3'
s += CSI + '2S' + CSI + 'T'
s += CSI + '?6h' + cup(1, 1) + 'origin home' + cup(50, 5) + 'origin bottom' + CSI + '20A' + 'up'
s += CSI + '4;8r' + CSI + '44m' + CSI + '3S' + CSI + '1T' + CSI + '0m' + cup(2, 2) + CSI + '10L' + 'IL10'
s += CSI + '?6l' + CSI + 'r' + CSI + '25;28r' + cup(28, 1) + '\n\n' + 'scroll in region' + CSI + 'r'
s += cup(30, 100)
ITEMS['scroll-regions'] = s

# IL and DL with the cursor outside the scroll region: xterm ignores them; tmux 3.3a
# inserts or deletes lines between the cursor and the bottom of the screen.
s = CSI + '2J'
for r in range(1, 31):
    s += cup(r, 1) + f'row {r:02d}'
s += CSI + '10;20r' + cup(3, 1) + CSI + '2L' + cup(25, 1) + CSI + '2M' + CSI + 'r' + cup(1, 10)
ITEMS['il-dl-outside'] = s

# Tab stops: defaults, HTS, TBC 0 and 3, CHT and CBT, HT at and past the last stop.
s = CSI + '2J'
s += cup(1, 1) + '\ta\tb\tc'
s += cup(2, 4) + E + 'H' + cup(2, 15) + E + 'H' + cup(2, 1) + '\t1\t2\t3'
s += cup(3, 9) + CSI + 'g' + cup(3, 1) + '\tx\ty'
s += cup(4, 30) + CSI + '2Z' + 'cbt2'
s += CSI + '3g' + cup(5, 1) + '\tnone'
s += cup(7, 50) + E + 'H' + cup(7, 1) + '\t' + 'only' + '\t' + 'end' + CSI + 'Z' + CSI + 'Z' + 'B'
s += cup(8, 95) + '\t\tX' + cup(9, 1) + CSI + '0g' + '\tafter0g'
s += cup(10, 60) + CSI + '5Z' + 'five back'
s += cup(12, 3)
ITEMS['tab-stops'] = s

# CHT (CSI I), which tmux 3.3a does not implement, on the default stops.
s = CSI + '2J' + cup(1, 1) + CSI + '3I' + 'a' + cup(2, 1) + CSI + 'I' + 'b' + cup(3, 30) + CSI + '2I' + 'c'
s += cup(4, 95) + CSI + 'I' + 'd' + cup(5, 98) + CSI + '5I' + 'e' + cup(7, 1)
ITEMS['tab-cht'] = s

# Erase modes and the colours they leave: ED 0/1/2, EL 0/1/2, ECH, with a background
# colour, with other attributes set (erased cells keep only the background), on a
# pending wrap, over wide characters.
s = CSI + '2J'
for r in range(1, 31):
    s += cup(r, 1) + ('%02d' % r) + 'abcdefghij' * 9
s += CSI + '1;4;41m' + cup(2, 50) + CSI + 'K'
s += CSI + '42m' + cup(3, 50) + CSI + '1K'
s += CSI + '43m' + cup(4, 50) + CSI + '2K'
s += CSI + '44m' + cup(5, 10) + CSI + '5X' + CSI + '0X' + cup(5, 98) + CSI + '10X'
s += CSI + '45m' + cup(6, 100) + 'z' + CSI + 'K'
s += CSI + '46m' + cup(7, 100) + 'z' + CSI + '1K'
s += CSI + '0m' + cup(8, 1) + '\u4e2d\u6587\u4e2d' + cup(8, 2) + CSI + 'X' + cup(8, 5) + CSI + '1K'
s += CSI + '7m' + cup(10, 40) + CSI + '1J'
s += CSI + '0;48;5;22m' + cup(25, 40) + CSI + 'J'
s += CSI + '0;48;2;10;20;30m' + cup(28, 1) + 'rgb' + CSI + '2X' + CSI + '0m' + cup(29, 20) + CSI + 'K'
s += cup(15, 15)
ITEMS['erase'] = s
s = CSI + '2J' + 'x' * 300 + CSI + '48;5;100m' + CSI + '2J' + CSI + '0m' + cup(10, 10) + 'after ED2'
ITEMS['erase-ed2'] = s

# Combining marks at the right margin: on the last cell while the wrap is pending, on a
# wide character at the margin, at the start of a row, after a wrap.
s = CSI + '2J'
s += cup(2, 99) + 'ab\u0301' + 'c'
s += cup(4, 99) + '\u4e2d\u0301' + '!'
s += cup(6, 1) + '\u0301x'
s += cup(8, 100) + 'e' + '\u0300\u0323' + CSI + 'C' + '\u0302'
s += cup(10, 98) + 'e\u0301\u0302' + 'fg' + '\u0303'
s += CSI + '?7l' + cup(12, 100) + 'ab\u0304' + CSI + '?7h'
s += cup(14, 99) + '\u4e2d' + '\u0301'
s += cup(16, 5)
ITEMS['combining-margin'] = s

# Cursor movement clamping: huge counts, zero counts, movements in and out of a scroll
# region (CUU/CUD stop at its margins only from inside), CNL/CPL, VPA/HPA, CUP past the edge.
s = CSI + '2J' + CSI + '10;20r'
marks = [cup(15, 50) + CSI + '999A' + 'A', cup(15, 50) + CSI + '999B' + 'B',
         cup(5, 50) + CSI + '999A' + 'a', cup(25, 50) + CSI + '999B' + 'b',
         cup(5, 50) + CSI + '999B' + 'c', cup(25, 50) + CSI + '999A' + 'd',
         cup(3, 50) + CSI + '999C' + 'C', cup(3, 50) + CSI + '999D' + 'D',
         cup(4, 50) + CSI + '0C' + 'E' + CSI + '0D' + 'F',
         cup(15, 30) + CSI + '99E' + 'cnl', cup(15, 30) + CSI + '99F' + 'cpl',
         cup(1, 1) + CSI + '999d' + 'vpa', CSI + '999`' + 'hpa', cup(2, 1) + CSI + '0d' + CSI + '0G' + 'zero',
         CSI + '999;999H' + 'Z', CSI + '0;0H' + 'home',
         cup(27, 1) + CSI + '65535D' + CSI + '65535C' + 'W']
s += ''.join(marks) + CSI + 'r' + cup(17, 3)
ITEMS['cursor-clamp'] = s

# HPR (CSI a) and VPR (CSI e), which tmux 3.3a does not implement, clamped at the edges.
s = CSI + '2J' + cup(1, 10) + CSI + '5a' + 'x' + cup(3, 1) + CSI + '2e' + 'y'
s += cup(10, 95) + CSI + '99a' + 'z' + cup(20, 5) + CSI + '99e' + 'w' + cup(2, 1)
ITEMS['hpr-vpr'] = s

# Every SGR attribute the attribute check reads, alone and combined, in 16, 256 and RGB
# colours, and reset one at a time (22, 23, 24, 25, 27, 28, 29, 39, 49).
s = CSI + '2J' + cup(1, 1)
for a in ['1', '2', '3', '4', '4:2', '4:3', '5', '7', '8', '9', '1;2', '21']:
    s += CSI + a + 'm' + a + CSI + '0m '
s += cup(2, 1)
for c in range(16):
    s += CSI + f'{30 + c if c < 8 else 82 + c}m' + 'f' + CSI + f'{40 + c if c < 8 else 92 + c}m' + 'b' + CSI + '0m'
s += cup(3, 1)
for c in (0, 7, 16, 100, 231, 232, 255):
    s += CSI + f'38;5;{c}m' + 'F' + CSI + f'48;5;{c}m' + 'B' + CSI + '0m'
s += CSI + '38;2;255;0;128mR' + CSI + '48;2;0;64;255mG' + CSI + '38:2::1:2:3mC' + CSI + '0m'
s += cup(4, 1) + CSI + '1;2;3;4;5;7;8;9;31;42m' + 'all' + CSI + '22m' + 'b' + CSI + '23m' + 'i' + CSI + '24m' + 'u'
s += CSI + '25m' + 'k' + CSI + '27m' + 'r' + CSI + '28m' + 'h' + CSI + '29m' + 's' + CSI + '39m' + 'f' + CSI + '49m' + 'g'
s += CSI + '1;7;38;5;200;48;2;5;6;7m' + cup(5, 90) + CSI + 'K' + 'x' + CSI + '0m'
s += cup(7, 1)
ITEMS['sgr-attributes'] = s

# Overline (53, reset by 55) and the underline colour (58, reset by 59) in every form:
# 58;5;n, 58;2;r;g;b, 58:5:n, 58:2::r:g:b (empty colour space, what programs send) and
# 58:2:r:g:b; each reset, and 0. Then the pen with both (and a background) through every
# erase and insert: erased and inserted blanks take the background only, cells that move
# keep theirs. DECSC/DECRC keep both.
OV_UL = CSI + '58;5;2;53m'
PEN = CSI + '0;53;4;58;5;9;44m'
s = CSI + '2J' + cup(1, 1)
for a in ['53', '4;58;5;196', '58;2;1;2;3', '58:2::10:20:30', '58:2:40:50:60', '58:5:9', '4:3;58;5;12',
          '53;58;5;100', '58;2;1;2;3;53;1']:
    s += CSI + a + 'm' + 'x' + CSI + '0m '
s += cup(2, 1) + CSI + '1;4;53;58;2;255;0;0;31;42m' + 'all' + CSI + '55m' + 'o' + CSI + '59m' + 'u'
s += CSI + '24m' + 'n' + CSI + '53;58:5:3m' + 'p' + CSI + '0m' + 'q' + CSI + '53;58;5;4m' + 'r' + CSI + 'm' + 's'
# An underline colour without an underline, kept through SGR that do not touch it.
s += cup(3, 1) + CSI + '58;5;100m' + 'a' + CSI + '1m' + 'b' + CSI + '4m' + 'c' + CSI + '38;5;50;48;5;60m' + 'd'
s += CSI + 'm' + 'e'
# Wide characters, and a repeated character.
s += cup(4, 1) + CSI + '53;4;58;5;9m' + '\u4e2d\u6587' + CSI + '0m ' + CSI + '53;58;5;10m' + 'r' + CSI + '3b'
s += CSI + '0m'
for row, erase in [(5, cup(5, 4) + CSI + 'K'), (6, cup(6, 3) + CSI + '3X'), (7, cup(7, 3) + CSI + '2@'),
                   (8, cup(8, 3) + CSI + '2P'), (9, cup(9, 5) + CSI + '1K')]:
    s += cup(row, 1) + OV_UL + 'abcdefghij' + CSI + '0m' + PEN + erase + CSI + '0m'
# Inside a scroll region: IL, DL, SU, SD with the pen.
s += CSI + '11;16r'
for row in range(11, 17):
    s += cup(row, 1) + CSI + f'58;5;{row}m' + f'line {row}' + CSI + '0m'
s += PEN + cup(12, 1) + CSI + 'L' + cup(14, 1) + CSI + 'M' + CSI + 'S' + CSI + 'T' + CSI + '0m' + CSI + 'r'
# DECSC keeps the pen's overline and underline colour; DECRC brings them back.
s += cup(20, 3) + CSI + '53;58:2::7:8:9m' + E + '7' + CSI + '0m' + cup(20, 1) + 'n' + E + '8' + 's' + CSI + '0m'
# ED 0 with the pen: the rest of the row and whole rows below.
s += cup(22, 1) + OV_UL + 'abcdefghij' + CSI + '0m' + PEN + cup(22, 6) + CSI + 'J' + CSI + '0m'
s += cup(21, 7)
ITEMS['sgr-overline-underline-colour'] = s


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, text in ITEMS.items():
        path = os.path.join(out, f'syn-{name}.bin')
        with open(path, 'wb') as f:
            f.write(text.encode('utf-8'))
        print(f'{path}: {len(text.encode("utf-8"))} bytes', file=sys.stderr)


main()

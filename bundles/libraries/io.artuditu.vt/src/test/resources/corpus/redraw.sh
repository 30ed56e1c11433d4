#!/bin/sh
# An agent-CLI-like full-screen redraw loop: alternate screen, hidden cursor, a boxed
# panel repainted with CUP/ED/EL/SGR (16, 256 and true colours), a spinner, a status line
# in a scroll region, and a final frame left on the screen. Deterministic: no clock.
e=$(printf '\033')
printf '%s[?1049h%s[?25l' "$e" "$e"
i=0
while [ $i -lt 60 ]; do
  [ $((i % 20)) -eq 0 ] && printf '%s[H%s[2J' "$e" "$e"
  printf '%s[1;1H%s[1;37;44m Agent %-10s %s[0m%s[K' "$e" "$e" "step$i" "$e" "$e"
  printf '%s[3;5H+------------------------------------------+' "$e"
  r=4
  while [ $r -lt 12 ]; do
    printf '%s[%d;5H|%s[38;5;%dm %-40s %s[0m|' "$e" $r "$e" $(( (i + r) % 200 + 16 )) "line $r of frame $i" "$e"
    r=$((r + 1))
  done
  printf '%s[12;5H+------------------------------------------+' "$e"
  case $((i % 4)) in 0) s='|';; 1) s='/';; 2) s='-';; *) s='\';; esac
  printf '%s[14;3H%s[38;2;%d;%d;%dm%s%s[0m thinking (%d tokens)%s[K' "$e" "$e" $((i * 4)) 128 $((255 - i * 4)) "$s" "$e" $((i * 37)) "$e"
  printf '%s[16;24r%s[24;1H%s[2mlog %d: tool call ok%s[0m\n' "$e" "$e" "$e" $i "$e"
  printf '%s[r' "$e"
  i=$((i + 1))
done
printf '%s[20;1H%s[1;32mDone.%s[0m %s[4mall 60 frames%s[24m, %s[7minverse%s[27m %s[9mstrike%s[29m' "$e" "$e" "$e" "$e" "$e" "$e" "$e" "$e" "$e"
printf '%s[?25h' "$e"

#!/bin/sh
# CJK, emoji, combining marks and wide characters at the right edge, in the primary screen.
printf 'CJK: 日本語のテキスト 中文字符 한국어 텍스트\n'
printf 'Fullwidth: ＡＢＣ１２３ and halfwidth ｱｲｳ\n'
printf 'Emoji: 😀 🚀 🎉 ❤ ✅ ⌚ ☕ done\n'
printf 'Combining: e\314\201 a\314\210 n\314\203 cafe\314\201 Z\315\221\315\234\n'
printf 'Box: ┌──┐│ok│└──┘ ░▒▓█\n'
# a wide character that does not fit in column 80 wraps whole
printf '%079d中after\n' 0
printf '%078d中x\n' 0
# overwrite halves of wide characters
printf '中文中文\r\033[1Cx\033[2Cy\n'
printf 'Mixed 한글 and 😀 with \033[1;31mred 字\033[0m and \033[4m下線\033[0m\n'
printf 'Greek αβγ Cyrillic жзи Arabic سلام Hebrew שלום\n'

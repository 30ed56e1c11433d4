#!/bin/sh
# Re-records every corpus item on this machine. Needs python3, git, less, vim and vttest.
# The programs are recorded at 80x24, vttest at 80x24 and 100x30; the synthetic scripts
# (synthetic.py) are written, not recorded.
# The fixtures (a folder to list, a git repository, a text file) are made fresh in a temp
# folder with fixed names, contents and dates, so only tool versions change the bytes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rec="$here/record.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A folder for ls: files, folders, an executable, symlinks (one broken), fixed mtimes.
mkdir "$tmp/tree" && cd "$tmp/tree"
for n in $(seq 1 30); do printf 'data %s\n' "$n" > "file-$n.txt"; done
for n in alpha beta gamma delta; do mkdir "dir-$n"; done
printf '#!/bin/sh\n' > run.sh && chmod 755 run.sh
printf 'x' > archive.tar.gz && printf 'x' > image.png
ln -s file-1.txt link-ok && ln -s missing link-broken
mkdir sticky && chmod 1777 sticky
find . -exec touch -h -d '2024-01-02 03:04:05' {} +
python3 "$rec" "$here/ls-color.bin" 80 24 -- ls --color=always -la --time-style=long-iso .

# A small git repository with two merged branches and fixed identities and dates.
mkdir "$tmp/repo" && cd "$tmp/repo"
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.org GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.org
d=0
commit() { d=$((d + 1)); echo "$1" >> log.txt; git add log.txt;
  GIT_AUTHOR_DATE="2024-01-0$((d % 9 + 1))T10:00:00Z" GIT_COMMITTER_DATE="2024-01-0$((d % 9 + 1))T10:00:00Z" git commit -q -m "$1"; }
git init -q -b main .
commit "Initial commit"; commit "Add the parser"
git checkout -q -b feature; commit "Feature: wide characters"; commit "Feature: combining marks"
git checkout -q main; commit "Fix the tab stops"
GIT_AUTHOR_DATE=2024-01-08T10:00:00Z GIT_COMMITTER_DATE=2024-01-08T10:00:00Z git merge -q --no-ff -m "Merge feature" feature -X ours
git checkout -q -b topic HEAD~1; commit "Topic: scroll regions"
git checkout -q main; GIT_AUTHOR_DATE=2024-01-09T10:00:00Z GIT_COMMITTER_DATE=2024-01-09T10:00:00Z git merge -q --no-ff -m "Merge topic" topic -X ours
git tag v0.1
python3 "$rec" "$here/git-log-graph.bin" 80 24 -- git --no-pager log --graph --color=always --decorate --date=iso --all

# A text file for less and vim.
cd "$tmp"
seq 1 200 | sed 's/^/Line number /; s/$/: the quick brown fox jumps over the lazy dog/' > text.txt
python3 "$rec" "$here/less-paging.bin" 80 24 --keys ' | |b|/Line 1[0-9]7\r|1|!stop' -- less text.txt
python3 "$rec" "$here/less-quit.bin" 80 24 --keys ' | |q|1' -- less text.txt
python3 "$rec" "$here/vim-edit.bin" 80 24 --keys '2|:set number\r|40Gdd|Oinserted line 日本\x1b|/fox\r|:set hlsearch\r|1|!stop' -- vim -u NONE -N -i NONE text.txt

python3 "$rec" "$here/redraw-loop.bin" 80 24 -- sh "$here/redraw.sh"
python3 "$rec" "$here/unicode.bin" 80 24 -- sh "$here/unicode.sh"

# vttest's menus 1 (cursor movements), 2 (screen features), 3 (character sets) and
# 8 (VT102 insert/delete), one item per "Push <RETURN>" screen, at both sizes.
rm -f "$here"/vttest-*.bin
python3 "$here/record-vttest.py" "$here" 80 24 1 2 3 8
python3 "$here/record-vttest.py" "$here" 100 30 1 2 3 8
python3 "$here/synthetic.py" "$here"
ls -l "$here"/*.bin

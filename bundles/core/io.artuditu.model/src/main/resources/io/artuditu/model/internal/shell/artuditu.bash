# Artuditu shell integration for bash. Artuditu writes this file and rewrites it when it
# differs from the copy in its workspace bundle: edit ~/.bashrc instead.
#
# Artuditu starts an interactive bash pane as `bash --rcfile <this file> -i`, so bash reads
# this file where it would read ~/.bashrc. bash itself has already read the system file
# (/etc/bash.bashrc on Debian and Ubuntu) as it does for every interactive shell that is
# not --norc. This file reads ~/.bashrc exactly as bash would, and then adds the marks
# (OSC 133) that tell Artuditu where prompts, commands and their output are:
#   133;A  a prompt starts            133;B  the prompt ends, the command line starts
#   133;C  the command runs           133;D;<status>  the command finished with <status>
# and, at each prompt, the working directory (OSC 7). The user's PROMPT_COMMAND, PS0, PS1
# and DEBUG trap keep working; $? is preserved for them.

if [ -f ~/.bashrc ]; then
    . ~/.bashrc
fi

if [[ $- == *i* && -z ${__artu_installed-} ]]; then
    __artu_installed=1
    __artu_ran=0
    __artu_at_prompt=0

    # A command ran since the last prompt: start a fresh line if its output did not end with
    # one (so the finished mark and the prompt begin at column 0), then mark it finished.
    # $COLUMNS spaces wrap exactly when the cursor is not at column 0; the carriage return
    # and erase take the blanks back.
    __artu_precmd() {
        local s=$?
        __artu_at_prompt=0
        # The directory first: whoever waits for the finished mark reads the new cwd with it.
        __artu_osc7
        if [[ $__artu_ran == 1 ]]; then
            __artu_ran=0
            if [[ $COLUMNS =~ ^[1-9][0-9]*$ ]]; then
                printf '%*s\r\033[K' "$COLUMNS" ''
            fi
            printf '\033]133;D;%s\007' "$s"
        fi
        printf '\033]133;A\007'
        return "$s"
    }

    # The working directory (OSC 7), so the pane knows where the shell is. Bytes other than
    # unreserved URL characters are %-escaped.
    __artu_osc7() {
        local LC_ALL=C s=$PWD out= c i
        for (( i = 0; i < ${#s}; i++ )); do
            c=${s:i:1}
            case $c in
                [a-zA-Z0-9/._~-]) out+=$c ;;
                *) printf -v c '%%%02X' "'$c"; out+=$c ;;
            esac
        done
        printf '\033]7;file://%s%s\007' "${HOSTNAME-}" "$out"
    }

    # Runs last: keeps the end-of-prompt mark on PS1 (and the command mark on PS0) even when
    # the user's PROMPT_COMMAND rebuilt them, and opens the window for the DEBUG-trap mark.
    __artu_postcmd() {
        local s=$?
        if [[ $PS1 != *'133;B'* ]]; then
            PS1="${PS1}"'\[\033]133;B\007\]'
        fi
        if [[ -n ${__artu_ps0-} && $PS0 != *'133;C'* ]]; then
            PS0="${PS0-}${__artu_ps0}"
        fi
        __artu_at_prompt=1
        return "$s"
    }

    if [[ -z ${__ARTU_FORCE_DEBUG_TRAP-} ]] && (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then
        # bash 4.4 and later show PS0 after reading a command line and before running it. The
        # subscript is evaluated in this shell, so it sets the flag; the element is unset and
        # expands to nothing.
        __artu_ps0='\033]133;C\007${__artu_none[__artu_ran=1]}'
        PS0="${PS0-}${__artu_ps0}"
    else
        # Older bash: the DEBUG trap, but only for the first command after a prompt.
        __artu_user_debug=$(trap -p DEBUG)
        __artu_user_debug=${__artu_user_debug#trap -- }
        __artu_user_debug=${__artu_user_debug% DEBUG}
        eval "__artu_user_debug=${__artu_user_debug:-''}"
        __artu_debug() {
            if [[ $__artu_at_prompt == 1 && $BASH_COMMAND != __artu_* ]]; then
                __artu_at_prompt=0
                __artu_ran=1
                printf '\033]133;C\007'
            fi
        }
        trap '__artu_debug; eval "$__artu_user_debug"' DEBUG
    fi

    # PROMPT_COMMAND may be a string or, since bash 5.1, an array: ours run first and last.
    if [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == 'declare -a'* ]]; then
        PROMPT_COMMAND=(__artu_precmd "${PROMPT_COMMAND[@]}" __artu_postcmd)
    else
        PROMPT_COMMAND="__artu_precmd${PROMPT_COMMAND:+
$PROMPT_COMMAND}
__artu_postcmd"
    fi
    PS1="${PS1-}"'\[\033]133;B\007\]'
fi

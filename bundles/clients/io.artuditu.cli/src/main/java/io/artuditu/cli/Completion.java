package io.artuditu.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code artu completion bash|zsh}: a completion script for the installed contract's
 * commands and the hand-written ones. Two table functions, written once in the syntax both
 * shells share, answer "which words follow this command path" and "which flags does this
 * command take"; a small per-shell function walks the typed words through them. No JVM
 * runs on TAB.
 */
final class Completion {
    /** The hand-written commands' paths (dotted) and the words or flags after them. */
    private static final String[][] LOCAL = {
        {"server", "start stop status --foreground"},
        {"uhp", "schema"},
        {"wait", "event"},
        {"wait.event", "--where --timeout --after"},
        {"config.patch", "--file"},
        {"completion", "bash zsh"},
        {"help", "--all --scopes"},
        {"hook", "install uninstall claude codex gemini"},
        {"hook.install", "claude codex gemini"},
        {"hook.uninstall", "claude codex gemini"},
        {"hook.install.claude", "--settings --dry-run"},
        {"hook.install.codex", "--settings --dry-run"},
        {"hook.install.gemini", "--settings --dry-run"},
        {"hook.uninstall.claude", "--settings --dry-run"},
        {"hook.uninstall.codex", "--settings --dry-run"},
        {"hook.uninstall.gemini", "--settings --dry-run"},
        {"theme", "install import"},
        {"theme.install", "--help"},
        {"theme.import", "--from --id --name --scheme --print --help"},
    };

    private Completion() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1 || !args.get(0).equals("bash") && !args.get(0).equals("zsh")) {
            err.println("artu: usage: artu completion bash|zsh");
            return Artu.USAGE;
        }
        out.print(script(args.get(0)));
        return Artu.OK;
    }

    static String script(String shell) {
        List<String> keys = Commands.keys();
        Map<String, List<String>> next = new LinkedHashMap<>();
        List<String> top = new ArrayList<>(List.of("server", "call", "wait", "completion", "hook", "help"));
        next.put("", top);
        for (String k : keys) {
            String[] parts = k.split("\\.");
            String prefix = "";
            for (String part : parts) {
                List<String> words = next.computeIfAbsent(prefix, p -> new ArrayList<>());
                String w = part.replace('_', '-');
                if (!words.contains(w)) {
                    words.add(w);
                }
                prefix = prefix.isEmpty() ? part : prefix + "." + part;
            }
        }
        Map<String, String> flags = new LinkedHashMap<>();
        for (String k : keys) {
            Command c = Commands.command(k);
            java.util.Set<String> f = new java.util.LinkedHashSet<>();
            for (Command.Param p : c.params.values()) {
                f.add("--" + p.name.replace('_', '-'));
                for (String e : p.enumValues) {
                    f.add("--" + e.replace('_', '-'));
                }
            }
            for (String alias : c.flags.keySet()) {
                f.add("--" + alias.replace('_', '-'));
            }
            f.add("--json");
            f.add("--help");
            flags.put(k, String.join(" ", f));
        }
        for (String[] local : LOCAL) {
            if (local[1].startsWith("-")) {
                flags.merge(local[0], local[1], (a, b) -> a + " " + b);
            } else {
                List<String> words = next.computeIfAbsent(local[0], p -> new ArrayList<>());
                for (String w : local[1].split(" ")) {
                    if (!words.contains(w)) {
                        words.add(w);
                    }
                }
            }
        }
        StringBuilder s = new StringBuilder("# artu completion for ").append(shell)
                .append(": generated from the installed UHP contract by `artu completion ").append(shell).append("`\n");
        s.append("_artu_next() {\n    case \"$1\" in\n");
        for (Map.Entry<String, List<String>> e : next.entrySet()) {
            s.append("        '").append(e.getKey().replace('_', '-')).append("') _artu_reply='")
                    .append(String.join(" ", e.getValue())).append("' ;;\n");
        }
        s.append("        *) _artu_reply='' ;;\n    esac\n}\n");
        s.append("_artu_flags() {\n    case \"$1\" in\n");
        for (Map.Entry<String, String> e : flags.entrySet()) {
            s.append("        '").append(e.getKey().replace('_', '-')).append("') _artu_reply='").append(e.getValue())
                    .append("' ;;\n");
        }
        s.append("        *) _artu_reply='' ;;\n    esac\n}\n");
        // The command path: the typed words that extend a known path (arguments and flag values do not).
        s.append("_artu_path() {\n"
                + "    _artu_p=''\n"
                + "    local w c\n"
                + "    for w in \"$@\"; do\n"
                + "        case \"$w\" in -*) continue ;; esac\n"
                + "        c=\"${_artu_p:+$_artu_p.}$w\"\n"
                + "        _artu_next \"$c\"; [ -n \"$_artu_reply\" ] && { _artu_p=$c; continue; }\n"
                + "        _artu_flags \"$c\"; [ -n \"$_artu_reply\" ] && _artu_p=$c\n"
                + "    done\n"
                + "}\n"
                + "_artu_candidates() {\n"
                + "    case \"$1\" in\n"
                + "        -*) _artu_flags \"$_artu_p\" ;;\n"
                + "        *) _artu_next \"$_artu_p\" ;;\n"
                + "    esac\n"
                + "}\n");
        if (shell.equals("bash")) {
            s.append("_artu_bash() {\n"
                    + "    local cur=${COMP_WORDS[COMP_CWORD]}\n"
                    + "    _artu_path \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"\n"
                    + "    _artu_candidates \"$cur\"\n"
                    + "    COMPREPLY=($(compgen -W \"$_artu_reply\" -- \"$cur\"))\n"
                    + "}\n"
                    + "complete -F _artu_bash artu\n");
        } else {
            s.append("_artu_zsh() {\n"
                    + "    local cur=${words[CURRENT]} w\n"
                    + "    local -a m\n"
                    + "    _artu_path \"${(@)words[2,CURRENT-1]}\"\n"
                    + "    _artu_candidates \"$cur\"\n"
                    + "    for w in ${=_artu_reply}; do [[ $w == \"$cur\"* ]] && m+=(\"$w\"); done\n"
                    + "    compadd -- \"${m[@]}\"\n"
                    + "}\n"
                    + "compdef _artu_zsh artu\n");
        }
        return s.toString();
    }
}

package io.artuditu.model.internal;

import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a pane's shell is started so that it reports prompts and command ends (OSC 133)
 * without touching the user's rc files. {@link #prepare} gets the argv and environment
 * the model built and returns what to spawn.
 *
 * <ul>
 * <li><b>bash</b> (argv {@code [bash]} or {@code [bash, -i]}, by the executable's base name):
 * {@code bash --rcfile <home>/shell/bash/artuditu.bash -i}. That file reads {@code ~/.bashrc}
 * as bash would have (bash itself still reads the system file, {@code /etc/bash.bashrc},
 * which {@code --rcfile} does not replace) and then adds the hooks.</li>
 * <li><b>zsh</b> (argv {@code [zsh]} plus any of {@code -i}, {@code -l}, {@code --login}):
 * the same argv with {@code ZDOTDIR=<home>/shell/zsh}, whose {@code .zshenv}, {@code .zprofile},
 * {@code .zshrc} and {@code .zlogin} each read the user's file of that name from the user's
 * own ZDOTDIR (passed in {@code ARTUDITU_USER_ZDOTDIR} when the user had one) or
 * {@code $HOME}, and {@code .zshrc} adds the hooks.</li>
 * <li>Anything else (other shells, {@code bash -c …}, {@code bash --norc}, a login bash, any
 * program) runs as asked, with no marks: {@code shell} is null.</li>
 * </ul>
 *
 * <p>The scripts are resources of this bundle ({@code shell/*}); they are written to the home
 * atomically (temporary file, then rename) when missing or different, owner-only. If they
 * cannot be written the pane starts without marks rather than not at all.
 */
final class ShellIntegration {
    /** What to spawn; {@code shell} is "bash" or "zsh" when marks are injected, else null. */
    record Launch(List<String> command, Map<String, String> env, String shell) {
    }

    static final String BASH_RC = "artuditu.bash";
    /** The zsh startup files, by resource name (the file in the home starts with a dot). */
    static final List<String> ZSH_FILES = List.of("zshenv", "zprofile", "zshrc", "zlogin");
    /** The user's own ZDOTDIR, for our .zshenv to hand back. */
    static final String USER_ZDOTDIR_ENV = "ARTUDITU_USER_ZDOTDIR";

    private static final Set<String> BASH_ARGS = Set.of("-i");
    private static final Set<String> ZSH_ARGS = Set.of("-i", "-l", "--login");

    private ShellIntegration() {
    }

    static Launch prepare(List<String> command, Map<String, String> env, Path home) {
        return prepare(command, env, home, System.getenv());
    }

    /**
     * @param inherited the environment the PTY host adds {@code env} to (its own)
     */
    static Launch prepare(List<String> command, Map<String, String> env, Path home, Map<String, String> inherited) {
        if (command.isEmpty() || home == null) {
            return new Launch(command, env, null);
        }
        String shell = baseName(command.get(0));
        List<String> args = command.subList(1, command.size());
        try {
            if (shell.equals("bash") && BASH_ARGS.containsAll(args)) {
                Path rc = home.resolve("shell").resolve("bash").resolve(BASH_RC);
                install(rc, BASH_RC);
                return new Launch(List.of(command.get(0), "--rcfile", rc.toString(), "-i"), env, "bash");
            }
            if (shell.equals("zsh") && ZSH_ARGS.containsAll(args)) {
                Path dir = home.resolve("shell").resolve("zsh");
                for (String f : ZSH_FILES) {
                    install(dir.resolve("." + f), f);
                }
                Map<String, String> e = new HashMap<>(env);
                String userDir = env.containsKey("ZDOTDIR") ? env.get("ZDOTDIR") : inherited.get("ZDOTDIR");
                if (userDir != null) {
                    e.put(USER_ZDOTDIR_ENV, userDir);
                } else {
                    e.remove(USER_ZDOTDIR_ENV);
                }
                e.put("ZDOTDIR", dir.toString());
                return new Launch(command, e, "zsh");
            }
        } catch (IOException | UncheckedIOException e) {
            System.getLogger(ShellIntegration.class.getName()).log(System.Logger.Level.WARNING,
                    "shell integration files could not be written under " + home + "; the pane starts without marks", e);
        }
        return new Launch(command, env, null);
    }

    /** {@code /usr/bin/bash} → {@code bash}. */
    static String baseName(String program) {
        int slash = program.lastIndexOf('/');
        return slash < 0 ? program : program.substring(slash + 1);
    }

    /**
     * Removes what interrupted writes of the scripts left beside them (temporary files of
     * {@link AtomicFiles}), and nothing else in those folders; at start, before any pane
     * writes them again. A failure is logged: the scripts are rewritten when they differ anyway.
     */
    static void removeLeftovers(Path home) {
        List<Path> targets = new ArrayList<>();
        targets.add(home.resolve("shell").resolve("bash").resolve(BASH_RC));
        for (String f : ZSH_FILES) {
            targets.add(home.resolve("shell").resolve("zsh").resolve("." + f));
        }
        for (Path t : targets) {
            try {
                AtomicFiles.removeLeftovers(t);
            } catch (IOException e) {
                System.getLogger(ShellIntegration.class.getName()).log(System.Logger.Level.WARNING,
                        "cannot look for temporary files beside " + t + ": " + e.getMessage());
            }
        }
    }

    /** Writes the resource to {@code target} unless it already holds exactly that. */
    static void install(Path target, String resource) throws IOException {
        byte[] content = resource(resource);
        if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), content)) {
            return;
        }
        Path dir = target.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        AtomicFiles.write(target, content);
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = ShellIntegration.class.getResourceAsStream("shell/" + name)) {
            if (in == null) {
                throw new IOException("shell/" + name + " is missing from the workspace bundle");
            }
            return in.readAllBytes();
        }
    }
}

package io.artuditu.agents.internal.detect;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One agent manifest, validated by {@link ManifestReader} (the format is
 * {@code docs/agents/manifests.md}). Immutable; the collections keep the file's order.
 *
 * @param name the agent's kind, {@code [a-z0-9][a-z0-9._-]*}, at most 64 characters
 * @param displayName for people
 * @param source {@code builtin}, {@code managed} or {@code user}
 * @param path the file it came from (a resource name for built-ins)
 * @param processNames executable names (the process scan's {@code comm}/exe base names) that identify it
 * @param scripts script base names run through an interpreter ({@code node …/claude}) that identify it
 * @param launch the argv that starts it
 * @param startSession extra argv that pins a new session's id at launch ({@code {session}} is the id), empty when unsupported
 * @param resume the argv that resumes session {@code {session}}, empty when unsupported
 * @param fork the argv that forks session {@code {session}} into a new one, empty when unsupported
 * @param hooks hook event name → the state it means
 * @param rules screen rules in evaluation order: highest priority first, then file order
 *     (so the first rule that matches is the one that wins)
 * @param fallback the state of a recognised agent whose screen matches no rule
 */
public record AgentManifest(String name, String displayName, String source, String path, Set<String> processNames,
        Set<String> scripts, List<String> launch, List<String> startSession, List<String> resume, List<String> fork,
        Map<String, Status> hooks, List<Rule> rules, Status fallback) {

    /** The placeholder {@link #startSession()}, {@link #resume()} and {@link #fork()} carry for the session id. */
    public static final String SESSION = "{session}";

    public AgentManifest {
        processNames = Collections.unmodifiableSet(new LinkedHashSet<>(processNames));
        scripts = Collections.unmodifiableSet(new LinkedHashSet<>(scripts));
        launch = List.copyOf(launch);
        startSession = List.copyOf(startSession);
        resume = List.copyOf(resume);
        fork = List.copyOf(fork);
        hooks = Collections.unmodifiableMap(new LinkedHashMap<>(hooks));
        rules = List.copyOf(rules);
    }

    /**
     * The state a hook event means: the event's own entry, else, for an event qualified as
     * {@code Event:detail} ({@code Notification:idle_prompt}), the entry of {@code Event};
     * empty when neither is listed (the event means nothing by itself).
     */
    public Optional<Status> hookStatus(String event) {
        Status s = hooks.get(event);
        if (s == null) {
            int colon = event.indexOf(':');
            if (colon > 0) {
                s = hooks.get(event.substring(0, colon));
            }
        }
        return Optional.ofNullable(s);
    }

    /** {@code argv} with every {@value #SESSION} replaced by {@code sessionId}. */
    public static List<String> withSession(List<String> argv, String sessionId) {
        return argv.stream().map(a -> a.replace(SESSION, sessionId)).toList();
    }
}

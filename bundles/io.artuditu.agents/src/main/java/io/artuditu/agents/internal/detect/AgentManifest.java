package io.artuditu.agents.internal.detect;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One agent manifest, validated (docs/agents/manifests.md).
 *
 * @param name the agent's kind, {@code [a-z0-9][a-z0-9._-]*}
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
 * @param rules screen rules, in file order
 * @param fallback the state of a recognised agent whose screen matches no rule
 */
public record AgentManifest(String name, String displayName, String source, String path, Set<String> processNames,
        Set<String> scripts, List<String> launch, List<String> startSession, List<String> resume, List<String> fork,
        Map<String, Status> hooks, List<Rule> rules, Status fallback) {
}

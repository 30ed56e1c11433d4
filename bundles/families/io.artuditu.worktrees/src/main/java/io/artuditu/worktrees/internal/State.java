package io.artuditu.worktrees.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.home.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the family remembers across restarts and bundle updates, in one file under the
 * Artuditu home ({@code worktrees/state.json}), replaced atomically on every change:
 * <ul>
 * <li>the port block of each worktree (by canonical path): the block's first port, one of
 * {@link #BLOCKS} blocks of {@link #BLOCK} ports from {@link #FIRST_PORT}; no two worktrees
 * hold the same block;</li>
 * <li>the base branch a worktree was created from (by canonical path);</li>
 * <li>the approved setup-script hashes of each repository (by canonical common git dir),
 * at most {@link #MAX_APPROVALS} per repository, oldest dropped first.</li>
 * </ul>
 * Synchronized: read and written from the family's worker and the request threads.
 */
final class State {
    static final int FIRST_PORT = 41000;
    static final int BLOCK = 10;
    /** 41000 … 48990: 800 blocks, the last one 48990–48999. */
    static final int BLOCKS = 800;
    static final int MAX_APPROVALS = 32;
    /** Most repositories whose approvals are kept. */
    static final int MAX_REPOSITORIES = 256;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Map<String, Integer> ports = new TreeMap<>();
    private final Map<String, String> bases = new TreeMap<>();
    private final Map<String, LinkedHashSet<String>> approvals = new LinkedHashMap<>();

    State(Path file) {
        this.file = file;
        load();
    }

    private void load() {
        try {
            AtomicFiles.removeLeftovers(file);
            JsonNode root = JSON.readTree(Files.readAllBytes(file));
            root.path("ports").fields().forEachRemaining(e -> {
                int p = e.getValue().asInt(-1);
                if (validPort(p) && !ports.containsValue(p)) {
                    ports.put(e.getKey(), p);
                }
            });
            root.path("bases").fields().forEachRemaining(e -> bases.put(e.getKey(), e.getValue().asText()));
            root.path("approvals").fields().forEachRemaining(e -> {
                LinkedHashSet<String> s = new LinkedHashSet<>();
                e.getValue().forEach(h -> s.add(h.asText()));
                approvals.put(e.getKey(), s);
            });
        } catch (NoSuchFileException none) {
            // a fresh home
        } catch (IOException | RuntimeException e) {
            // unreadable: start empty and say so once; the next write replaces it
            System.getLogger(State.class.getName()).log(System.Logger.Level.WARNING,
                    "unreadable worktrees state " + file + ", starting empty", e);
        }
    }

    private static boolean validPort(int p) {
        return p >= FIRST_PORT && p < FIRST_PORT + BLOCKS * BLOCK && (p - FIRST_PORT) % BLOCK == 0;
    }

    /** The worktree's block, allocating the lowest free one (and saving) when it has none. */
    synchronized int port(String worktree) {
        Integer p = ports.get(worktree);
        if (p != null) {
            return p;
        }
        Set<Integer> taken = new java.util.HashSet<>(ports.values());
        for (int i = 0; i < BLOCKS; i++) {
            int candidate = FIRST_PORT + i * BLOCK;
            if (!taken.contains(candidate)) {
                ports.put(worktree, candidate);
                save();
                return candidate;
            }
        }
        throw new UhpException(ErrorCode.INVALID_REQUEST, "all " + BLOCKS + " port blocks are held; remove a worktree first",
                Map.of("field", "name", "reason", "no_port_block"));
    }

    /**
     * Releases the blocks and bases of worktrees whose folder is gone (removed outside
     * Artuditu); at most {@link #BLOCKS} checks. Called on the worker by list and create.
     */
    synchronized void forgetVanished() {
        List<String> gone = new ArrayList<>();
        for (String k : new java.util.TreeSet<>(ports.keySet())) {
            if (!Files.isDirectory(Path.of(k))) {
                gone.add(k);
            }
        }
        for (String k : bases.keySet()) {
            if (!ports.containsKey(k) && !Files.isDirectory(Path.of(k))) {
                gone.add(k);
            }
        }
        if (!gone.isEmpty()) {
            gone.forEach(k -> {
                ports.remove(k);
                bases.remove(k);
            });
            save();
        }
    }

    /** Whether a new worktree could get a block (checked before anything is made). */
    synchronized boolean hasFreeBlock() {
        return ports.size() < BLOCKS;
    }

    /** The worktree's block, or null when it has none yet. */
    synchronized Integer portIfAny(String worktree) {
        return ports.get(worktree);
    }

    synchronized String base(String worktree) {
        return bases.get(worktree);
    }

    synchronized void recordBase(String worktree, String base) {
        if (base == null) {
            bases.remove(worktree);
        } else {
            bases.put(worktree, base);
        }
        save();
    }

    /** Forgets a removed worktree: its port block and base. */
    synchronized void forget(String worktree) {
        boolean changed = ports.remove(worktree) != null;
        changed |= bases.remove(worktree) != null;
        if (changed) {
            save();
        }
    }

    synchronized boolean approved(String repository, String hash) {
        Set<String> s = approvals.get(repository);
        return s != null && s.contains(hash);
    }

    synchronized void approve(String repository, String hash) {
        LinkedHashSet<String> s = approvals.computeIfAbsent(repository, k -> new LinkedHashSet<>());
        s.remove(hash);
        s.add(hash);
        while (s.size() > MAX_APPROVALS) {
            s.remove(s.iterator().next());
        }
        approvals.remove(repository);
        approvals.put(repository, s);
        while (approvals.size() > MAX_REPOSITORIES) {
            approvals.remove(approvals.keySet().iterator().next());
        }
        save();
    }

    private void save() {
        ObjectNode root = JSON.createObjectNode().put("version", 1);
        ObjectNode p = root.putObject("ports");
        ports.forEach(p::put);
        ObjectNode b = root.putObject("bases");
        bases.forEach(b::put);
        ObjectNode a = root.putObject("approvals");
        approvals.forEach((repo, hashes) -> {
            ArrayNode arr = a.putArray(repo);
            hashes.forEach(arr::add);
        });
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    synchronized List<Integer> heldPorts() {
        return new ArrayList<>(ports.values());
    }
}

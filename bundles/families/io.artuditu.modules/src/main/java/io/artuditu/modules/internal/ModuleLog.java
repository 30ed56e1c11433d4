package io.artuditu.modules.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One module's recent log: at most {@link #MAX_ENTRIES} entries of at most
 * {@link #MAX_MESSAGE} characters; older ones fall off. Every entry also goes to the server
 * log. Thread safe.
 */
final class ModuleLog {
    static final int MAX_ENTRIES = 256;
    static final int MAX_MESSAGE = 4096;
    private static final Logger LOG = System.getLogger("io.artuditu.modules");

    private record Entry(long atMs, String level, String message) {
    }

    private final String module;
    private final Deque<Entry> entries = new ArrayDeque<>();

    ModuleLog(String module) {
        this.module = module;
    }

    void info(String message) {
        add("info", message);
    }

    void warn(String message) {
        add("warning", message);
    }

    void error(String message) {
        add("error", message);
    }

    synchronized void add(String level, String message) {
        String m = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "…" : message;
        if (entries.size() == MAX_ENTRIES) {
            entries.removeFirst();
        }
        entries.addLast(new Entry(System.currentTimeMillis(), level, m));
        LOG.log("error".equals(level) ? Level.WARNING : Level.INFO, "module " + module + ": " + m);
    }

    synchronized void writeTo(ArrayNode out, int limit) {
        int skip = Math.max(0, entries.size() - limit);
        for (Entry e : entries) {
            if (skip-- > 0) {
                continue;
            }
            out.addObject().put("at_ms", e.atMs()).put("level", e.level()).put("message", e.message());
        }
    }
}

package io.artuditu.worktrees.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** The {@code [worktrees]} config table as the family uses it (see worktrees-config.json). */
record Settings(String directory, List<String> copyIgnored, long copyMaxBytes, String setupScript, int setupTimeoutS) {
    Settings {
        copyIgnored = List.copyOf(copyIgnored);
    }

    static Settings of(ObjectNode v) {
        List<String> copy = new ArrayList<>();
        v.path("copy_ignored").forEach(n -> copy.add(n.asText()));
        return new Settings(v.path("directory").asText(""), copy, v.path("copy_max_bytes").asLong(1 << 20),
                v.path("setup_script").asText(".artuditu/worktree-setup.sh"), v.path("setup_timeout_s").asInt(300));
    }
}

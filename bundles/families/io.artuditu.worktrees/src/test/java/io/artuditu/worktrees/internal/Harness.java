package io.artuditu.worktrees.internal;

import io.artuditu.testkit.FamilyHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The worktrees family over the test kit's in-memory model (nothing spawns; the launches asked
 * for are recorded), called as the dispatcher calls it; the family's own events are kept as
 * {@code "<name> <data>"} lines.
 */
final class Harness extends FamilyHarness {
    final List<String> events = new ArrayList<>();
    final WorktreesFamily family;

    Harness(Path home) {
        family = new WorktreesFamily(this, home, new GitRunner(), (name, data) -> events.add(name + " " + data));
        register(family.methods());
    }
}

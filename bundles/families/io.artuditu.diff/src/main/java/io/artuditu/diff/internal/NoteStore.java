package io.artuditu.diff.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The notes of one repository (its working tree), kept in
 * {@code <home>/review/<first 16 hex of SHA-1 of the working tree's real path>/notes.json},
 * rewritten whole and atomically (a temporary file renamed over it) after every change. At
 * most {@link #MAX_NOTES} notes. Callers hold the store's monitor around a read-change-save.
 */
final class NoteStore {
    static final int MAX_NOTES = 2_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    final String root;
    final Path file;
    final Map<String, Note> notes = new LinkedHashMap<>();
    long next = 1;

    private NoteStore(String root, Path file) {
        this.root = root;
        this.file = file;
    }

    static Path fileFor(Path home, String root) {
        String h = Scan.digest(root.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
        return home.resolve("review").resolve(h).resolve("notes.json");
    }

    /** The stored notes of {@code root}, or none; a file that cannot be read is kept aside (notes.json.bad) and logged. */
    static NoteStore load(Path home, String root) {
        NoteStore s = new NoteStore(root, fileFor(home, root));
        if (!Files.isRegularFile(s.file)) {
            return s;
        }
        try {
            JsonNode o = JSON.readTree(s.file.toFile());
            s.next = Math.max(1, o.path("next").asLong(1));
            for (JsonNode n : o.path("notes")) {
                Note note = Note.fromStored(n);
                if (s.notes.size() < MAX_NOTES) {
                    s.notes.put(note.id, note);
                }
            }
        } catch (IOException | RuntimeException e) {
            System.getLogger(NoteStore.class.getName()).log(System.Logger.Level.WARNING,
                    "review notes at " + s.file + " cannot be read; kept aside as notes.json.bad", e);
            try {
                Files.move(s.file, s.file.resolveSibling("notes.json.bad"), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException ignored) {
                // left where it is; the next save replaces it
            }
        }
        return s;
    }

    String newId() {
        return "n" + next++;
    }

    List<Note> list() {
        return new ArrayList<>(notes.values());
    }

    /** Writes every note: a temporary file in the same folder, then renamed over notes.json. */
    void save() throws IOException {
        Files.createDirectories(file.getParent());
        ObjectNode o = JSON.createObjectNode().put("version", 1).put("root", root).put("next", next);
        ArrayNode a = o.putArray("notes");
        notes.values().forEach(n -> a.add(n.stored()));
        Path tmp = Files.createTempFile(file.getParent(), "notes", ".tmp");
        try {
            Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(o));
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}

package io.artuditu.agents.internal.detect;

import io.artuditu.agents.internal.detect.ManifestSet.Problem;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the three manifest layers into a list, each bad file a {@link Problem}.
 *
 * <p>Built-ins are the resources {@code agents/builtin/<name>.toml} named, one a line, by the
 * resource {@value #INDEX}: under OSGi a bundle's folders cannot be listed through its
 * class loader, so the index says what is there. A folder layer is its {@code *.toml}
 * files (not its sub-folders, not names starting with {@code .}), sorted by name, at most
 * {@value #MAX_FILES}; a symbolic link whose target lies outside the folder, or anything
 * that is not a regular file, is refused without being opened; a file over
 * {@value ManifestReader#MAX_BYTES} bytes is refused before it is parsed. Within one layer
 * a second manifest of a name already read is refused.
 */
final class ManifestLayers {
    static final String INDEX = "agents/builtin/index.txt";
    static final String BUILTIN_DIR = "agents/builtin/";
    /** Most manifest files one folder contributes. */
    static final int MAX_FILES = 64;

    private ManifestLayers() {
    }

    static void builtins(ClassLoader loader, List<AgentManifest> out, List<Problem> problems) {
        List<String> names = new ArrayList<>();
        try (InputStream in = loader.getResourceAsStream(INDEX)) {
            if (in == null) {
                problems.add(new Problem("builtin", INDEX, "the index of built-in manifests is missing"));
                return;
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null && names.size() < MAX_FILES; line = r.readLine()) {
                line = line.strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    names.add(line);
                }
            }
        } catch (IOException e) {
            problems.add(new Problem("builtin", INDEX, "cannot read the index: " + e.getMessage()));
            return;
        }
        Map<String, String> seen = new HashMap<>();
        for (String name : names) {
            String resource = BUILTIN_DIR + name + ".toml";
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in == null) {
                    problems.add(new Problem("builtin", resource, "listed in the index but missing"));
                    continue;
                }
                byte[] bytes = in.readNBytes(ManifestReader.MAX_BYTES + 1);
                add(ManifestReader.parse(bytes, "builtin", resource), seen, out);
            } catch (ManifestReader.Invalid e) {
                problems.add(new Problem("builtin", resource, e.getMessage()));
            } catch (IOException e) {
                problems.add(new Problem("builtin", resource, "cannot read: " + e.getMessage()));
            }
        }
    }

    static void folder(String source, Path dir, List<AgentManifest> out, List<Problem> problems) {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        Path real;
        List<Path> files = new ArrayList<>();
        try {
            real = dir.toRealPath();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(real, "*.toml")) {
                for (Path p : entries) {
                    if (!p.getFileName().toString().startsWith(".")) {
                        files.add(p);
                    }
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            problems.add(new Problem(source, dir.toString(), "cannot list the folder: " + e.getMessage()));
            return;
        }
        files.sort(null);
        if (files.size() > MAX_FILES) {
            problems.add(new Problem(source, files.get(MAX_FILES).toString(), "more than " + MAX_FILES
                    + " manifests in " + dir + ": this file and the " + (files.size() - MAX_FILES - 1)
                    + " after it are ignored"));
            files = files.subList(0, MAX_FILES);
        }
        Map<String, String> seen = new HashMap<>();
        for (Path file : files) {
            try {
                add(ManifestReader.parse(read(real, file), source, file.toString()), seen, out);
            } catch (ManifestReader.Invalid e) {
                problems.add(new Problem(source, file.toString(), e.getMessage()));
            }
        }
    }

    private static void add(AgentManifest m, Map<String, String> seen, List<AgentManifest> out)
            throws ManifestReader.Invalid {
        String first = seen.putIfAbsent(m.name(), m.path());
        if (first != null) {
            throw new ManifestReader.Invalid("manifest " + m.name() + " is already declared in this layer by " + first);
        }
        out.add(m);
    }

    /** The file's bytes, once it is known to be a regular file inside {@code folder} and small enough. */
    private static byte[] read(Path folder, Path file) throws ManifestReader.Invalid {
        try {
            Path target = file;
            if (Files.isSymbolicLink(file)) {
                target = file.toRealPath();
                if (!target.startsWith(folder)) {
                    throw new ManifestReader.Invalid("a symbolic link to " + target + ", outside " + folder);
                }
            }
            if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new ManifestReader.Invalid("not a regular file");
            }
            if (Files.size(target) > ManifestReader.MAX_BYTES) {
                throw new ManifestReader.Invalid("the file is larger than " + ManifestReader.MAX_BYTES + " bytes");
            }
            try (InputStream in = Files.newInputStream(target, LinkOption.NOFOLLOW_LINKS)) {
                // One byte more than allowed: a file that grew after the size check is still refused.
                return in.readNBytes(ManifestReader.MAX_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            throw new ManifestReader.Invalid("vanished while reading (or a dangling link)");
        } catch (IOException e) {
            throw new ManifestReader.Invalid("cannot read: " + e.getMessage());
        }
    }
}

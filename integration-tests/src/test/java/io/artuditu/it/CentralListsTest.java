package io.artuditu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Adding a method touches only its family's bundle (its contract row, handler and test) and
 * its page under {@code docs/protocol/}; adding a family bundle touches only the pom of its
 * role folder and the docs' indexes. These tests fail when a central, hand-kept list of
 * methods or of families comes back.
 *
 * <p>A file may name methods: clients call them (the TUI, the CLI's hand-written commands, the
 * benchmarks, modules), docs explain them, tests exercise them. What makes a file a list is
 * its breadth: one that names most of the contract's methods has to change with every new
 * method (the committed command index and the generated tables in {@code docs/cli.md} and
 * {@code docs/protocol/security.md} named all of them). Only {@code integration-tests/} may,
 * since it drives the whole contract (the spec's own examples). Likewise a build file may
 * depend on a family bundle it uses (the CLI on the theme format, the benchmarks on the
 * terminal); one that names most of them is a list of the families, which only
 * {@code bundles/core/pom.xml} and {@code bundles/families/pom.xml} are.
 */
class CentralListsTest {
    /** More than this share of the methods in one file is a list of methods. */
    static final double METHODS_LIST = 0.75;
    /** More than this share of the bundles carrying a contract in one build file is a list of families. */
    static final double FAMILIES_LIST = 0.5;
    static final Set<String> SKIPPED_FOLDERS = Set.of(".git", "target", "node_modules");
    static final long LARGEST_FILE = 4 << 20;

    @Test
    void noFileOutsideTheIntegrationTestsNamesMostOfTheMethods() throws IOException {
        Set<String> methods = Installed.CONTRACT.methods().keySet();
        Pattern any = names(methods, true);
        Map<String, Integer> lists = new TreeMap<>();
        for (Path f : files(Reactor.ROOT)) {
            Path rel = Reactor.ROOT.relativize(f);
            if (rel.startsWith("integration-tests")) {
                continue;
            }
            String text = text(f);
            if (text == null) {
                continue;
            }
            Set<String> named = new TreeSet<>();
            for (Matcher m = any.matcher(text); m.find();) {
                named.add(m.group(1));
            }
            if (named.size() > METHODS_LIST * methods.size()) {
                lists.put(rel.toString(), named.size());
            }
        }
        assertEquals(Map.of(), lists, "files naming more than " + (int) (METHODS_LIST * 100) + "% of the "
                + methods.size() + " methods: a list every new method would have to join (generate it at build time instead)");
    }

    @Test
    void noBuildFileButTheRolePomsNamesMostOfTheFamilyBundles() throws IOException {
        Set<String> bundles = new TreeSet<>();
        RuntimeBundles.withContract().forEach(b -> bundles.add(RuntimeBundles.bsn(b)));
        assertTrue(bundles.size() >= 8, "the runtime's bundles with a contract: " + bundles);
        Pattern any = names(bundles, false);
        Map<String, Set<String>> lists = new TreeMap<>();
        for (Path f : files(Reactor.ROOT)) {
            Path rel = Reactor.ROOT.relativize(f);
            if (!isBuildFile(rel) || rel.equals(Path.of("bundles/core/pom.xml")) || rel.equals(Path.of("bundles/families/pom.xml"))) {
                continue;
            }
            String text = text(f);
            Set<String> named = new TreeSet<>();
            for (Matcher m = any.matcher(text == null ? "" : text); m.find();) {
                named.add(m.group(1));
            }
            if (named.size() > FAMILIES_LIST * bundles.size()) {
                lists.put(rel.toString(), named);
            }
        }
        assertEquals(Map.of(), lists, "build files listing the family bundles: only bundles/core/pom.xml and "
                + "bundles/families/pom.xml do (the runtime, the CLI's generator and these tests take them from there)");
    }

    @Test
    void eachRoleFolderIsBuiltListedAndRunAsOne() throws IOException {
        Set<String> runtime = new TreeSet<>();
        RuntimeBundles.all().forEach(b -> runtime.add(RuntimeBundles.bsn(b)));
        for (String role : List.of("core", "families")) {
            Path folder = Reactor.ROOT.resolve("bundles").resolve(role);
            Set<String> folders;
            try (Stream<Path> all = Files.list(folder)) {
                folders = all.filter(p -> Files.isRegularFile(p.resolve("pom.xml"))).map(p -> p.getFileName().toString())
                        .collect(Collectors.toCollection(TreeSet::new));
            }
            String pom = Files.readString(folder.resolve("pom.xml"), StandardCharsets.UTF_8);
            assertEquals(folders, all(pom, "<module>([^<]+)</module>"), "bundles/" + role + "/pom.xml builds every folder");
            assertEquals(folders, all(pom.substring(pom.indexOf("<dependencies>")), "<artifactId>([^<]+)</artifactId>"),
                    "bundles/" + role + "/pom.xml depends on every bundle it builds, for those that take the role whole");
            Set<String> missing = new TreeSet<>(folders);
            missing.removeAll(runtime);
            assertEquals(Set.of(), missing, "every bundle of bundles/" + role + " is in the runtime");
        }
    }

    private static boolean isBuildFile(Path rel) {
        String name = rel.getFileName().toString();
        return name.equals("pom.xml") || name.endsWith(".bnd") || name.endsWith(".bndrun") || rel.equals(Path.of("artu"))
                || rel.equals(Path.of("run-tests")) || rel.startsWith(".ci") || rel.startsWith(".mvn");
    }

    /**
     * Any of {@code names} as a whole dotted name, not part of a longer one: {@code a.b} is not
     * in {@code x.a.b} nor in {@code a.b_c}, and with {@code andNoMore} not in {@code a.b.c}
     * either (a bundle's name is, in {@code a.b.jar}).
     */
    private static Pattern names(Set<String> names, boolean andNoMore) {
        String alternatives = names.stream().sorted((a, b) -> b.length() - a.length()).map(Pattern::quote)
                .collect(Collectors.joining("|"));
        return Pattern.compile("(?<![\\w.-])(" + alternatives + ")(?![\\w-])" + (andNoMore ? "(?!\\.\\w)" : ""));
    }

    private static Set<String> all(String text, String regex) {
        Set<String> out = new TreeSet<>();
        for (Matcher m = Pattern.compile(regex).matcher(text); m.find();) {
            out.add(m.group(1).trim());
        }
        return out;
    }

    /** Every file of the checkout but build output and version control, tracked or not. */
    private static List<Path> files(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                return !dir.equals(root) && SKIPPED_FOLDERS.contains(dir.getFileName().toString())
                        ? java.nio.file.FileVisitResult.SKIP_SUBTREE : java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                if (a.isRegularFile() && a.size() <= LARGEST_FILE) {
                    out.add(file);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    /** A file's text, or null when it is not UTF-8 text (an image, a jar). */
    private static String text(Path f) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(f)) {
            bytes = in.readAllBytes();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}

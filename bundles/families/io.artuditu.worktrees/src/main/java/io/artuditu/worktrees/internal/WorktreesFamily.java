package io.artuditu.worktrees.internal;

import static io.artuditu.uhp.api.UhpException.invalid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.TopologyEvent;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.config.ConfigSection;
import io.artuditu.uhp.api.config.SectionDocument;
import io.artuditu.uhp.api.events.EventBus;
import io.artuditu.uhp.api.home.SocketLocation;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The {@code worktrees} family and the {@code [worktrees]} config table: a repository's git
 * worktrees, each mapped to at most one workspace and holding a block of ten ports.
 *
 * <p>Threads: every git command (the real binary, {@link GitRunner}) and every file it
 * copies, walks or runs happens on one worker thread, {@code worktrees-git}, owned by this
 * component and stopped on deactivation; at most {@link #QUEUE} tasks wait behind the running
 * one and a request waits for its task at most {@link #WAIT_MS} (a create with a setup script
 * up to its timeout more). Topology changes ({@code worktree.open}) go through the model's
 * {@code change}, which runs them on the app loop; no git runs there.
 */
@Component(service = {UhpFamily.class, ConfigSection.class})
public final class WorktreesFamily implements UhpFamily, ConfigSection {
    static final String SECTION = "worktrees";
    static final long WAIT_MS = 300_000;
    static final int QUEUE = 32;
    /** Disk use: most entries and milliseconds one worktree's walk takes before it stops ({@code truncated}). */
    static final int DISK_MAX_ENTRIES = 100_000;
    static final long DISK_MAX_MS = 2_000;
    /** Disk use: most milliseconds all the walks of one worktree.list take together; later rows report truncated. */
    static final long DISK_LIST_MS = 10_000;
    /** Largest setup script read; larger is refused (reason too_large). */
    static final int MAX_SCRIPT = 64 * 1024;
    /** Setup script output kept (stdout and stderr each, the start). */
    static final int MAX_SETUP_OUTPUT = 16 * 1024;
    /** Metadata keys worktree.open sets on its workspace. */
    static final String META_GROUP = "worktree_group";
    static final String META_BASE = "worktree_base";
    static final String META_PORT = "worktree_port";
    static final String META_BRANCH = "worktree_branch";
    static final String PORT_ENV = "ARTUDITU_PORT";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
    private static final SectionDocument SECTION_DOC = SectionDocument.load(WorktreesFamily.class, "worktrees-config.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Workspaces model;
    private final GitRunner git;
    private final State state;
    private final BiConsumer<String, ObjectNode> publisher;
    private final ThreadPoolExecutor worker;
    private final FamilyContract contract;
    private volatile Settings settings = Settings.of(SECTION_DOC.defaults());

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus eventBus;

    @Activate
    public WorktreesFamily(BundleContext context, @Reference Workspaces model) {
        this(model, SocketLocation.home(context.getProperty(SocketLocation.HOME_PROPERTY), System.getenv()),
                new GitRunner(), null);
    }

    /** @param publisher where events go; null: the component's dynamic event bus reference */
    WorktreesFamily(Workspaces model, Path home, GitRunner git, BiConsumer<String, ObjectNode> publisher) {
        this.model = model;
        this.git = git;
        this.state = new State(home.resolve("worktrees").resolve("state.json"));
        this.publisher = publisher != null ? publisher : (name, data) -> {
            EventBus b = eventBus;
            if (b != null) {
                b.publish(name, data);
            }
        };
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "worktrees-git");
            t.setDaemon(true);
            return t;
        });
        this.contract = FamilyContract.load(WorktreesFamily.class, "protocol/uhp/v1/worktrees.json")
                .route("worktree.list", this::list)
                .route("worktree.create", this::create)
                .route("worktree.open", this::open)
                .route("worktree.remove", this::remove)
                .route("worktree.prune_merged", this::pruneMerged)
                .route("worktree.setup.approve", this::approve)
                .bind();
    }

    @Deactivate
    void deactivate() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String family() {
        return "worktrees";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    // ------------------------------------------------------------------ worktree.list

    ObjectNode list(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        ObjectNode out = onWorker(WAIT_MS, () -> {
            Repo repo = Repo.of(git, cwd);
            state.forgetVanished();
            ObjectNode r = JSON.createObjectNode();
            r.put("repository", repo.commonDir.toString()).put("group", repo.commonDir.toString())
                    .put("main", repo.main().path().toString());
            ArrayNode rows = r.putArray("worktrees");
            Map<Path, String> open = openWorkspaces(model.topology());
            long walksEnd = System.currentTimeMillis() + DISK_LIST_MS;
            Map<String, String> baseTips = new java.util.HashMap<>();
            for (Repo.Worktree w : repo.worktrees) {
                rows.add(row(repo, w, open, walksEnd, baseTips));
            }
            r.put("truncated", repo.truncated);
            return r;
        });
        ObjectNode r = call.newObject().put("type", "worktree_list").put("workspace", t.workspaceIndex())
                .put("workspace_id", t.workspaceId());
        r.setAll(out);
        return r;
    }

    /** One worktree as list reports it; on the worker. */
    private ObjectNode row(Repo repo, Repo.Worktree w, Map<Path, String> open, long walksEnd,
            Map<String, String> baseTips) throws IOException {
        String key = w.path().toString();
        ObjectNode o = JSON.createObjectNode().put("path", key).put("name", String.valueOf(w.path().getFileName()))
                .put("main", w.main()).put("branch", w.shortBranch()).put("head", w.head())
                .put("detached", w.detached()).put("locked", w.locked()).put("prunable", w.prunable());
        String base = w.main() ? null : baseOf(repo, w);
        o.put("base", base);
        o.put("base_recorded", state.base(key) != null);
        Boolean merged = null;
        if (!w.main() && w.branch() != null && base != null) {
            if (!baseTips.containsKey(base)) {
                baseTips.put(base, repo.commit(base)); // one rev-parse per base a list names
            }
            String baseTip = baseTips.get(base);
            if (baseTip != null && w.head() != null) {
                merged = repo.isAncestor(w.head(), baseTip);
            }
        }
        if (merged == null) {
            o.putNull("merged");
        } else {
            o.put("merged", merged);
        }
        boolean exists = Files.isDirectory(w.path());
        o.put("dirty", exists && repo.dirty(w));
        o.set("disk", exists ? disk(w.path(), Math.min(DISK_MAX_MS, walksEnd - System.currentTimeMillis()))
                : JSON.createObjectNode().put("bytes", 0).put("entries", 0)
                .put("truncated", false));
        o.put("workspace_id", open.get(w.path()));
        Integer port = state.portIfAny(key);
        if (port == null) {
            o.putNull("port");
        } else {
            o.put("port", port);
        }
        return o;
    }

    /** The recorded base, else the main checkout's branch (null when it is detached). */
    private String baseOf(Repo repo, Repo.Worktree w) {
        String b = state.base(w.path().toString());
        return b != null ? b : repo.mainBranch();
    }

    /** Bytes and entries under a folder, links not followed, stopped at the caps with {@code truncated}. */
    static ObjectNode disk(Path root, long budgetMs) {
        if (budgetMs <= 0) {
            return JSON.createObjectNode().put("bytes", 0).put("entries", 0).put("truncated", true);
        }
        long deadline = System.currentTimeMillis() + budgetMs;
        long[] bytes = {0};
        int[] entries = {0};
        boolean[] cut = {false};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                private FileVisitResult count(BasicFileAttributes a) {
                    entries[0]++;
                    if (a.isRegularFile()) {
                        bytes[0] += a.size();
                    }
                    if (entries[0] >= DISK_MAX_ENTRIES || System.currentTimeMillis() > deadline) {
                        cut[0] = true;
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                    return count(a);
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                    return count(a);
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            cut[0] = true;
        }
        return JSON.createObjectNode().put("bytes", bytes[0]).put("entries", entries[0]).put("truncated", cut[0]);
    }

    /** Canonical folder → id of the workspace open on it (the first one in API order). */
    private static Map<Path, String> openWorkspaces(Topology s) {
        Map<Path, String> out = new LinkedHashMap<>();
        for (Workspace w : s.workspaces()) {
            out.putIfAbsent(canonical(w.cwd()), w.id());
        }
        return out;
    }

    private static Path canonical(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException gone) {
            return p.toAbsolutePath().normalize();
        }
    }

    // ------------------------------------------------------------------ worktree.create

    ObjectNode create(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        ObjectNode p = call.params();
        String name = p.path("name").asText();
        checkName(name);
        String branch = p.hasNonNull("branch") ? p.get("branch").asText() : name;
        checkRefText("branch", branch);
        if (branch.contains("@{") || branch.equals("HEAD") || branch.equals("@")) {
            throw invalid("branch", "bad_branch_name", "not a branch name: " + quoted(branch));
        }
        String baseParam = p.hasNonNull("base") ? p.get("base").asText() : null;
        if (baseParam != null) {
            checkRefText("base", baseParam);
        }
        Path pathParam = null;
        if (p.hasNonNull("path")) {
            pathParam = Path.of(p.get("path").asText());
            if (!pathParam.isAbsolute()) {
                throw invalid("path", "not_absolute", "path must be absolute");
            }
            checkText("path", p.get("path").asText());
        }
        Settings cfg = settings;
        Path explicit = pathParam;
        long wait = WAIT_MS + cfg.setupTimeoutS() * 1000L;
        ObjectNode out = onWorker(wait, () -> createOnWorker(cwd, name, branch, baseParam, explicit, cfg));
        ObjectNode r = call.newObject().put("type", "worktree_create").put("workspace", t.workspaceIndex())
                .put("workspace_id", t.workspaceId());
        r.setAll(out);
        return r;
    }

    private ObjectNode createOnWorker(Path cwd, String name, String branch, String baseParam, Path explicit,
            Settings cfg) throws IOException {
        Repo repo = Repo.of(git, cwd);
        if (!repo.validBranchName(branch)) {
            throw invalid("branch", "bad_branch_name", "not a valid branch name: " + quoted(branch));
        }
        boolean exists = repo.localBranchExists(branch);
        Repo.Worktree holder = exists ? holderOf(repo, branch) : null;
        if (holder != null) {
            throw refuse("branch", "branch_checked_out", "branch " + quoted(branch) + " is already checked out in "
                    + holder.path(), Map.of("path", holder.path().toString()));
        }
        String base = baseParam != null ? baseParam : repo.mainBranch() != null ? repo.mainBranch() : "HEAD";
        if (!exists || baseParam != null) {
            if (repo.commit(base) == null) {
                throw UhpException.notFound("ref", base, "base", "no such commit or branch: " + quoted(base));
            }
        }
        Path target = explicit != null ? explicit : location(repo, name, cfg);
        Path real = canonicalTarget(target);
        Repo.Worktree inside = repo.containing(real);
        if (inside != null) {
            throw refuse("path", "inside_worktree", "the worktree location " + real + " is inside the worktree "
                    + inside.path(), Map.of("path", real.toString(), "worktree", inside.path().toString()));
        }
        for (Repo.Worktree w : repo.worktrees) {
            if (w.path().startsWith(real)) {
                throw refuse("path", "contains_worktree", "the worktree location " + real + " contains the worktree "
                        + w.path(), Map.of("path", real.toString(), "worktree", w.path().toString()));
            }
        }
        if (Files.exists(real, LinkOption.NOFOLLOW_LINKS)) {
            throw refuse("path", "exists", "the worktree location " + real + " already exists",
                    Map.of("path", real.toString()));
        }
        state.forgetVanished();
        if (!state.hasFreeBlock()) {
            throw refuse("name", "no_port_block", "all " + State.BLOCKS + " port blocks are held; remove a worktree first",
                    Map.of());
        }
        Path madeFrom = real.getParent();
        while (madeFrom.getParent() != null && !Files.exists(madeFrom.getParent())) {
            madeFrom = madeFrom.getParent();
        }
        boolean madeParents = !Files.exists(real.getParent());
        Files.createDirectories(real.getParent());
        Path mainDir = repo.main().path();
        GitRunner.Result r = exists
                ? git.run(mainDir, "worktree", "add", "--end-of-options", real.toString(), branch)
                : git.run(mainDir, "worktree", "add", "-b", branch, "--end-of-options", real.toString(), base);
        if (!r.ok()) {
            if (madeParents) {
                removeEmptyFolders(real.getParent(), madeFrom);
            }
            throw new UhpException(ErrorCode.INVALID_REQUEST, "git worktree add failed: " + oneLine(r.err()),
                    Map.of("field", "name", "reason", "git_failed", "stderr", oneLine(r.err())));
        }
        Path made = real.toRealPath();
        String key = made.toString();
        state.recordBase(key, base.equals("HEAD") ? null : base);
        int port = state.port(key);
        ObjectNode o = JSON.createObjectNode().put("path", key).put("name", name).put("branch", branch)
                .put("new_branch", !exists).put("base", base.equals("HEAD") ? null : base)
                .put("head", repo.commit(branch)).put("port", port).put("group", repo.commonDir.toString());
        copyIgnored(repo, mainDir, made, cfg, o);
        o.set("setup", setup(repo, made, base, port, cfg));
        publish("worktree.created", JSON.createObjectNode().put("repository", repo.commonDir.toString())
                .put("path", key).put("branch", branch).put("base", base.equals("HEAD") ? null : base).put("port", port));
        return o;
    }

    /** Removes the empty folders from {@code dir} up to and including {@code top} (what a failed create made). */
    private static void removeEmptyFolders(Path dir, Path top) {
        for (Path d = dir; d != null && d.startsWith(top); d = d.getParent()) {
            try {
                Files.deleteIfExists(d);
            } catch (IOException notEmpty) {
                return;
            }
        }
    }

    /** The worktree holding {@code branch}, or null. */
    private static Repo.Worktree holderOf(Repo repo, String branch) {
        for (Repo.Worktree w : repo.worktrees) {
            if (branch.equals(w.shortBranch())) {
                return w;
            }
        }
        return null;
    }

    /** Where the config puts worktree {@code name} of this repository. */
    static Path location(Repo repo, String name, Settings cfg) {
        Path main = repo.main().path();
        Path parent = main.getParent() != null ? main.getParent() : main;
        String repoName = String.valueOf(main.getFileName());
        String d = cfg.directory();
        if (d == null || d.isEmpty()) {
            return parent.resolve(repoName + "-worktrees").resolve(name);
        }
        Path dir = Path.of(d);
        return (dir.isAbsolute() ? dir : parent.resolve(dir)).resolve(repoName).resolve(name).normalize();
    }

    /** The canonical form of a path that may not exist yet: its nearest existing ancestor made real. */
    static Path canonicalTarget(Path p) throws IOException {
        Path abs = p.toAbsolutePath().normalize();
        Path existing = abs;
        List<String> rest = new ArrayList<>();
        while (existing != null && !Files.exists(existing)) {
            rest.add(0, existing.getFileName().toString());
            existing = existing.getParent();
        }
        Path out = existing == null ? Path.of("/") : existing.toRealPath();
        for (String part : rest) {
            out = out.resolve(part);
        }
        return out;
    }

    /** Copies the configured ignored files from the main checkout; reports copied and skipped. */
    private void copyIgnored(Repo repo, Path mainDir, Path into, Settings cfg, ObjectNode o) throws IOException {
        ArrayNode copied = o.putArray("copied");
        ArrayNode skipped = o.putArray("copy_skipped");
        for (String rel : cfg.copyIgnored()) {
            String why;
            try {
                why = copyOne(repo, mainDir, into, rel, cfg.copyMaxBytes());
            } catch (IOException e) {
                why = "unreadable"; // the worktree exists already: one file that cannot be copied is reported, not fatal
            }
            if (why == null) {
                copied.add(rel);
            } else {
                skipped.add(JSON.createObjectNode().put("path", rel).put("reason", why));
            }
        }
    }

    /** Copies one file; returns null when copied, else why not. */
    private String copyOne(Repo repo, Path mainDir, Path into, String rel, long max) throws IOException {
        if (!safeRelative(rel)) {
            return "bad_path";
        }
        Path src = mainDir.resolve(rel).normalize();
        if (!src.startsWith(mainDir) || !Files.exists(src, LinkOption.NOFOLLOW_LINKS)) {
            return "missing";
        }
        if (!Files.isRegularFile(src, LinkOption.NOFOLLOW_LINKS)) {
            return "not_a_regular_file";
        }
        if (!src.getParent().toRealPath().startsWith(mainDir)) {
            return "outside_repository";
        }
        if (Files.size(src) > max) {
            return "too_large";
        }
        if (!git.run(mainDir, "check-ignore", "-q", "--no-index", "--", rel).ok()) {
            return "not_ignored";
        }
        Path dst = into.resolve(rel).normalize();
        if (!dst.startsWith(into) || Files.exists(dst, LinkOption.NOFOLLOW_LINKS)) {
            return "exists";
        }
        Files.createDirectories(dst.getParent());
        if (!dst.getParent().toRealPath().startsWith(into)) {
            return "outside_repository";
        }
        Files.copy(src, dst, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        return null;
    }

    static boolean safeRelative(String rel) {
        if (rel.isEmpty() || rel.startsWith("/") || hasControl(rel)) {
            return false;
        }
        for (String part : rel.split("/")) {
            if (part.equals("..") || part.equals(".git")) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ the setup script

    /**
     * The setup script of a worktree: {@code none} when it has none, {@code needs_approval}
     * (with the hash) when that exact content was never approved for this repository, else
     * it runs — the bytes hashed, fed to {@code /bin/sh -s} — and reports how it ended.
     */
    private ObjectNode setup(Repo repo, Path worktree, String base, int port, Settings cfg)
            throws IOException {
        ObjectNode s = JSON.createObjectNode();
        Script script;
        try {
            script = script(worktree, cfg);
        } catch (UhpException | IOException tooLargeOrUnreadable) {
            // the worktree exists already: reported in the result, never run
            return s.put("state", "unreadable").putNull("hash").put("script", cfg.setupScript());
        }
        if (script == null) {
            return s.put("state", "none").putNull("hash").put("script", cfg.setupScript());
        }
        s.put("script", cfg.setupScript()).put("hash", script.hash());
        if (!state.approved(repo.commonDir.toString(), script.hash())) {
            return s.put("state", "needs_approval");
        }
        Map<String, String> env = new TreeMap<>();
        env.put(PORT_ENV, Integer.toString(port));
        env.put("ARTUDITU_WORKTREE_BASE", base == null ? "" : base);
        env.put("ARTUDITU_WORKTREE_MAIN", repo.main().path().toString());
        GitRunner.Result r = GitRunner.exec(List.of("/bin/sh", "-s"), worktree, env, cfg.setupTimeoutS() * 1000L,
                MAX_SETUP_OUTPUT, script.bytes());
        s.put("state", r.status() == -1 ? "timed_out" : r.ok() ? "succeeded" : "failed");
        s.put("exit_code", r.status());
        s.put("output", r.out() + r.err());
        s.put("output_truncated", r.truncated());
        return s;
    }

    record Script(byte[] bytes, String hash) {
    }

    /** The worktree's setup script, or null when there is none (a link or a folder is none). */
    static Script script(Path worktree, Settings cfg) throws IOException {
        if (!safeRelative(cfg.setupScript())) {
            return null;
        }
        Path f = worktree.resolve(cfg.setupScript()).normalize();
        if (!f.startsWith(worktree) || !Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (Files.size(f) > MAX_SCRIPT) {
            throw invalid("setup_script", "too_large", "the setup script " + f + " is over " + MAX_SCRIPT + " bytes");
        }
        byte[] b = Files.readAllBytes(f);
        return new Script(b, sha256(b));
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    ObjectNode approve(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        ObjectNode p = call.params();
        String hash = p.path("hash").asText();
        if (!HASH.matcher(hash).matches()) {
            throw invalid("hash", "malformed", "hash is 64 lowercase hex digits (SHA-256 of the script)");
        }
        String which = p.hasNonNull("worktree") ? p.get("worktree").asText() : null;
        boolean run = p.path("run").asBoolean(false);
        Settings cfg = settings;
        ObjectNode out = onWorker(WAIT_MS + cfg.setupTimeoutS() * 1000L, () -> {
            Repo repo = Repo.of(git, cwd);
            Repo.Worktree w = which != null ? find(repo, which, "worktree") : repo.containing(canonical(cwd));
            if (w == null) {
                w = repo.main();
            }
            Script s = script(w.path(), cfg);
            if (s == null) {
                throw invalid("hash", "no_script", "the worktree " + w.path() + " has no setup script " + cfg.setupScript());
            }
            if (!s.hash().equals(hash)) {
                throw refuse("hash", "hash_mismatch", "the setup script in " + w.path() + " has the hash " + s.hash()
                        + ", not the one approved (it changed, or another script was meant)", Map.of("current", s.hash()));
            }
            state.approve(repo.commonDir.toString(), hash);
            ObjectNode o = JSON.createObjectNode().put("repository", repo.commonDir.toString()).put("hash", hash)
                    .put("path", w.path().toString()).put("script", cfg.setupScript());
            if (run) {
                int port = state.port(w.path().toString());
                o.set("setup", setup(repo, w.path(), baseOf(repo, w), port, cfg));
            } else {
                o.putNull("setup");
            }
            return o;
        });
        ObjectNode r = call.newObject().put("type", "worktree_setup_approve").put("workspace", t.workspaceIndex())
                .put("workspace_id", t.workspaceId());
        r.setAll(out);
        return r;
    }

    // ------------------------------------------------------------------ worktree.open

    /** What open found on the worker. */
    record Found(Path path, String base, String branch, int port, String group, java.util.Set<Path> aliases) {
    }

    /** The result of open's change: the workspace and whether it was created. */
    record Opened(String workspaceId, boolean created) {
    }

    ObjectNode open(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        String which = which(call.params());
        Found f = onWorker(WAIT_MS, () -> {
            Repo repo = Repo.of(git, cwd);
            Repo.Worktree w = find(repo, which, which.startsWith("/") ? "path" : "name");
            if (!Files.isDirectory(w.path())) {
                throw refuse("name", "prunable", "the worktree folder " + w.path() + " is gone (git worktree prune)",
                        Map.of("path", w.path().toString()));
            }
            String base = w.main() ? null : baseOf(repo, w);
            // the workspace folders that are this worktree, resolved here so the change on the loop does no I/O
            java.util.Set<Path> aliases = new java.util.HashSet<>();
            aliases.add(w.path());
            for (Workspace ws : model.topology().workspaces()) {
                if (canonical(ws.cwd()).equals(w.path())) {
                    aliases.add(ws.cwd());
                }
            }
            return new Found(w.path(), base, w.shortBranch(), state.port(w.path().toString()), repo.commonDir.toString(),
                    java.util.Set.copyOf(aliases));
        });
        Opened o;
        try {
            o = model.change(call.ifRevision(), (s, sp) -> openChange(s, f, sp));
        } catch (IOException e) {
            throw new UhpException(ErrorCode.SPAWN_FAILED, "the worktree's shell could not be started: " + e.getMessage(),
                    Map.of("reason", "spawn_failed"));
        }
        Topology now = model.topology();
        Workspace opened = now.requireWorkspace(o.workspaceId());
        String pane = opened.tabs().stream().filter(x -> x.id().equals(opened.activeTab())).findFirst()
                .map(x -> x.focused()).orElse(null);
        return call.newObject().put("type", "worktree_open").put("workspace_id", o.workspaceId()).put("pane", pane)
                .put("workspace", now.workspaceIndex(o.workspaceId())).put("created", o.created())
                .put("path", f.path().toString()).put("branch", f.branch()).put("base", f.base()).put("port", f.port())
                .put("group", f.group());
    }

    /**
     * In one change on the app loop: focuses the workspace already open on the worktree
     * (matched by canonical folder, resolved on the worker), adding the worktree metadata it lacks, or opens a new
     * workspace there whose first pane has {@code ARTUDITU_PORT}, with that metadata.
     */
    static Change<Opened> openChange(Topology s, Found f, Spawner sp) throws IOException {
        Map<String, Object> meta = new TreeMap<>();
        meta.put(META_GROUP, trim(f.group()));
        meta.put(META_PORT, (long) f.port());
        if (f.base() != null) {
            meta.put(META_BASE, trim(f.base()));
        }
        if (f.branch() != null) {
            meta.put(META_BRANCH, trim(f.branch()));
        }
        for (Workspace w : s.workspaces()) {
            if (f.aliases().contains(w.cwd())) {
                Map<String, Object> merged = new TreeMap<>(w.metadata());
                merged.putAll(meta);
                Topology n = s;
                List<TopologyEvent> ev = new ArrayList<>();
                if (!merged.equals(w.metadata()) && merged.size() <= Topology.MAX_METADATA) {
                    Workspace r = new Workspace(w.id(), w.name(), w.cwd(), w.pinned(), w.tabs(), w.activeTab(), merged);
                    n = n.withWorkspace(n.workspaceIndex(w.id()), r);
                    ev.add(Lifecycle.workspaceMetadataChanged(w.id(), r.metadata()));
                }
                if (!w.id().equals(n.activeWorkspace())) {
                    n = n.next(n.workspaces(), w.id(), n.panes(), n.nextPane());
                    ev.add(Lifecycle.workspaceFocused(w.id()));
                }
                return new Change<>(n, ev, new Opened(w.id(), false));
            }
        }
        Spawner withPort = sp.with(new Spawner.Launch(List.of(), Map.of(PORT_ENV, Integer.toString(f.port())), 80, 24));
        Change<String> c = Lifecycle.of(sp).openWorkspace(s, f.path(), null, withPort);
        Topology n = c.state();
        Workspace w = n.requireWorkspace(c.result());
        Workspace r = new Workspace(w.id(), w.name(), w.cwd(), w.pinned(), w.tabs(), w.activeTab(), meta);
        n = n.withWorkspace(n.workspaceIndex(w.id()), r);
        return new Change<>(n, c.events(), new Opened(w.id(), true));
    }

    /** A metadata string value: at most {@link Topology#MAX_METADATA_VALUE} code points (the tail kept). */
    private static String trim(String v) {
        int n = v.codePointCount(0, v.length());
        if (n <= Topology.MAX_METADATA_VALUE) {
            return v;
        }
        return v.substring(v.offsetByCodePoints(0, n - Topology.MAX_METADATA_VALUE));
    }

    // ------------------------------------------------------------------ worktree.remove

    ObjectNode remove(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        ObjectNode p = call.params();
        String which = which(p);
        boolean force = p.path("force").asBoolean(false);
        boolean deleteBranch = p.path("delete_branch").asBoolean(false);
        boolean forceBranch = p.path("force_branch").asBoolean(false);
        if (forceBranch && !deleteBranch) {
            throw invalid("force_branch", "without_delete_branch", "force_branch only goes with delete_branch");
        }
        ObjectNode out = onWorker(WAIT_MS, () -> {
            Repo repo = Repo.of(git, cwd);
            Repo.Worktree w = find(repo, which, which.startsWith("/") ? "path" : "name");
            return removeOnWorker(repo, w, force, deleteBranch, forceBranch);
        });
        ObjectNode r = call.newObject().put("type", "worktree_remove").put("workspace", t.workspaceIndex())
                .put("workspace_id", t.workspaceId());
        r.setAll(out);
        return r;
    }

    /** Checks everything, then removes the worktree (and its branch when asked); on the worker. */
    private ObjectNode removeOnWorker(Repo repo, Repo.Worktree w, boolean force, boolean deleteBranch,
            boolean forceBranch) throws IOException {
        String field = "name";
        if (w.main()) {
            throw refuse(field, "main_worktree", "the main checkout " + w.path() + " is not removed",
                    Map.of("path", w.path().toString()));
        }
        String open = openWorkspaces(model.topology()).get(w.path());
        if (open != null) {
            throw refuse(field, "workspace_open", "workspace " + open + " is open on " + w.path()
                    + "; close it first (workspace.close)", Map.of("path", w.path().toString(), "workspace_id", open));
        }
        if (!force && repo.dirty(w)) {
            throw refuse(field, "dirty", "the worktree " + w.path() + " has uncommitted changes; force removes them",
                    Map.of("path", w.path().toString()));
        }
        if (w.locked() && !force) {
            throw refuse(field, "locked", "the worktree " + w.path() + " is locked; force removes it",
                    Map.of("path", w.path().toString()));
        }
        String branch = w.shortBranch();
        boolean deleting = deleteBranch && branch != null;
        if (deleting && !forceBranch && !repo.mergedSomewhere(branch)) {
            throw refuse("delete_branch", "unmerged_branch", "branch " + quoted(branch)
                    + " has commits no other branch or remote-tracking branch holds; force_branch deletes it anyway",
                    Map.of("path", w.path().toString(), "branch", branch));
        }
        List<String> args = new ArrayList<>(List.of("worktree", "remove"));
        if (force) {
            args.add("--force");
            if (w.locked()) {
                args.add("--force");
            }
        }
        args.add("--end-of-options");
        args.add(w.path().toString());
        GitRunner.Result r = git.run(repo.main().path(), new java.util.HashMap<>(), GitRunner.TIMEOUT_MS,
                args.toArray(String[]::new));
        if (!r.ok()) {
            throw new UhpException(ErrorCode.INVALID_REQUEST, "git worktree remove failed: " + oneLine(r.err()),
                    Map.of("field", field, "reason", "git_failed", "stderr", oneLine(r.err())));
        }
        boolean branchDeleted = false;
        if (deleting) {
            GitRunner.Result d = git.run(repo.main().path(), "branch", "-D", "--end-of-options", branch);
            branchDeleted = d.ok();
        }
        state.forget(w.path().toString());
        publish("worktree.removed", JSON.createObjectNode().put("repository", repo.commonDir.toString())
                .put("path", w.path().toString()).put("branch", branch).put("branch_deleted", branchDeleted));
        return JSON.createObjectNode().put("path", w.path().toString()).put("branch", branch)
                .put("branch_deleted", branchDeleted);
    }

    // ------------------------------------------------------------------ worktree.prune_merged

    ObjectNode pruneMerged(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        boolean confirm = call.params().path("confirm").asBoolean(false);
        boolean deleteBranches = call.params().path("delete_branches").asBoolean(true);
        ObjectNode out = onWorker(WAIT_MS, () -> {
            Repo repo = Repo.of(git, cwd);
            Map<Path, String> open = openWorkspaces(model.topology());
            ArrayNode candidates = JSON.createArrayNode();
            ArrayNode kept = JSON.createArrayNode();
            List<Repo.Worktree> chosen = new ArrayList<>();
            for (Repo.Worktree w : repo.worktrees) {
                if (w.main() || w.branch() == null) {
                    continue;
                }
                String base = baseOf(repo, w);
                String baseTip = base == null ? null : repo.commit(base);
                Boolean merged = baseTip == null || w.head() == null ? null : repo.isAncestor(w.head(), baseTip);
                if (!Boolean.TRUE.equals(merged)) {
                    continue;
                }
                ObjectNode row = JSON.createObjectNode().put("path", w.path().toString()).put("branch", w.shortBranch())
                        .put("base", base);
                String why = open.containsKey(w.path()) ? "workspace_open" : w.locked() ? "locked"
                        : repo.dirty(w) ? "dirty" : null;
                if (why != null) {
                    kept.add(row.put("reason", why));
                } else {
                    candidates.add(row);
                    chosen.add(w);
                }
            }
            ArrayNode removed = JSON.createArrayNode();
            if (confirm) {
                for (Repo.Worktree w : chosen) {
                    try {
                        removed.add(removeOnWorker(repo, w, false, deleteBranches, false));
                    } catch (UhpException e) {
                        kept.add(JSON.createObjectNode().put("path", w.path().toString()).put("branch", w.shortBranch())
                                .put("base", baseOf(repo, w)).put("reason",
                                        String.valueOf(e.details().getOrDefault("reason", "refused"))));
                    }
                }
            }
            ObjectNode o = JSON.createObjectNode().put("confirmed", confirm);
            o.set("candidates", candidates);
            o.set("kept", kept);
            o.set("removed", removed);
            return o;
        });
        ObjectNode r = call.newObject().put("type", "worktree_prune_merged").put("workspace", t.workspaceIndex())
                .put("workspace_id", t.workspaceId());
        r.setAll(out);
        return r;
    }

    // ------------------------------------------------------------------ shared checks

    /** The worktree the params name: exactly one of {@code name} and {@code path}. */
    private static String which(ObjectNode p) {
        boolean name = p.hasNonNull("name");
        boolean path = p.hasNonNull("path");
        if (name == path) {
            throw invalid(name ? "path" : "name", name ? "conflict" : "missing", "give exactly one of name and path");
        }
        String v = p.get(name ? "name" : "path").asText();
        checkText(name ? "name" : "path", v);
        if (path && !v.startsWith("/")) {
            throw invalid("path", "not_absolute", "path must be absolute");
        }
        if (name && v.startsWith("/")) {
            throw invalid("name", "bad_name", "a name is a branch or folder name; an absolute folder goes in path");
        }
        return v;
    }

    /** A worktree of the repository by path (absolute) or name (branch, else folder name). */
    private static Repo.Worktree find(Repo repo, String which, String field) {
        Repo.Worktree w;
        if (which.startsWith("/")) {
            Path real;
            try {
                real = canonicalTarget(Path.of(which));
            } catch (IOException | RuntimeException e) {
                real = Path.of(which).toAbsolutePath().normalize();
            }
            w = repo.at(real);
        } else {
            w = repo.named(which);
        }
        if (w == null) {
            throw UhpException.notFound("worktree", which, field, "no worktree " + quoted(which) + " in "
                    + repo.commonDir);
        }
        return w;
    }

    static void checkName(String name) {
        checkText("name", name);
        if (!NAME.matcher(name).matches() || name.contains("..") || name.endsWith(".lock") || name.endsWith(".")) {
            throw invalid("name", "bad_name", "a worktree name is 1–64 of A–Z a–z 0–9 . _ -, starting with a letter or"
                    + " digit, without '..' and not ending in '.' or '.lock': " + quoted(name));
        }
    }

    private static void checkRefText(String field, String v) {
        checkText(field, v);
        if (v.isEmpty() || v.startsWith("-") || v.contains("..") || v.length() > 200) {
            throw invalid(field, "bad_ref", field + " is not a usable ref name: " + quoted(v));
        }
    }

    private static void checkText(String field, String v) {
        if (hasControl(v)) {
            throw invalid(field, "control_characters", field + " must not contain control characters");
        }
    }

    static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
                return true;
            }
        }
        return false;
    }

    private static UhpException refuse(String field, String reason, String message, Map<String, Object> extra) {
        Map<String, Object> d = new LinkedHashMap<>(invalid(field, reason, message).details());
        d.putAll(extra);
        return new UhpException(ErrorCode.INVALID_REQUEST, message, d);
    }

    private static String quoted(String s) {
        String v = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        return "'" + v.replaceAll("\\p{Cntrl}", "?") + "'";
    }

    private static String oneLine(String s) {
        String v = s.trim().replaceAll("\\p{Cntrl}+", " ");
        return v.length() > 500 ? v.substring(0, 500) + "…" : v;
    }

    // ------------------------------------------------------------------ the worker, events

    private <T> T onWorker(long waitMs, Callable<T> task) {
        Future<T> f;
        try {
            f = worker.submit(task);
        } catch (RejectedExecutionException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the worktrees worker has " + QUEUE
                    + " requests waiting (or is stopping); try again", Map.of("reason", "busy"));
        }
        try {
            return f.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new UhpException(ErrorCode.TIMEOUT, "the worktree operation did not finish in " + waitMs / 1000
                    + " s; it goes on in the background", Map.of("reason", "worker_timeout"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UhpException(ErrorCode.SHUTTING_DOWN, "interrupted while waiting for the worktrees worker");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new IllegalStateException(c);
        }
    }

    private void publish(String event, ObjectNode data) {
        publisher.accept(event, data);
    }

    // ------------------------------------------------------------------ the config table

    @Override
    public String name() {
        return SECTION;
    }

    @Override
    public JsonNode schema() {
        return SECTION_DOC.schema();
    }

    @Override
    public ObjectNode defaults() {
        return SECTION_DOC.defaults();
    }

    /** Takes effect with the next request. */
    @Override
    public void apply(ObjectNode values) {
        settings = Settings.of(values);
    }

    Settings settings() {
        return settings;
    }
}

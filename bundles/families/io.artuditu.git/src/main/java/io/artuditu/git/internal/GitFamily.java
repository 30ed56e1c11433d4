package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.git.api.GitOpResult;
import io.artuditu.git.api.GitOperations;
import io.artuditu.model.Workspaces;
import io.artuditu.model.topology.Change;
import io.artuditu.model.topology.Lifecycle;
import io.artuditu.model.topology.Spawner;
import io.artuditu.model.topology.Tab;
import io.artuditu.model.topology.TabKind;
import io.artuditu.model.topology.Target;
import io.artuditu.model.topology.Topology;
import io.artuditu.model.topology.Workspace;
import io.artuditu.uhp.api.Call;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.schema.FamilyContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.internal.util.CleanupService;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.WindowCacheConfig;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * The git family. Reads: {@code git.status}, {@code git.branches}, {@code git.log} read the
 * repository containing the workspace's folder with JGit, on the calling connection's thread
 * (never the app loop), opening it for the one call; {@code git.open} adds or focuses the
 * workspace's Git dashboard tab in one change on the app loop, which runs no git. Writes
 * ({@code git.stage} … {@code git.remote.add}) go to the engine service {@link GitOperations}
 * ({@link GitEngine}), which runs the git binary on its own threads; {@code git.op.get} and
 * {@code git.op.list} read its table of operations.
 */
@Component(service = UhpFamily.class)
public final class GitFamily implements UhpFamily {
    private final Workspaces model;
    private final GitOperations ops;
    private final FamilyContract contract;
    /** JGit's cleanup (its executors), run when this component goes rather than at JVM exit. */
    private final CleanupService jgitCleanup;

    @Activate
    public GitFamily(@Reference Workspaces model, @Reference GitOperations ops) {
        this.model = model;
        this.ops = ops;
        // JGit is embedded, so its own DS component does not run: without this OSGi-mode instance
        // (created before JGit's first use) it would add a JVM shutdown hook that pins this
        // bundle's class loader after every update. Likewise no JMX bean for the block cache.
        this.jgitCleanup = new CleanupService();
        WindowCacheConfig cache = new WindowCacheConfig();
        cache.setExposeStatsViaJmx(false);
        cache.install();
        this.contract = FamilyContract.load(GitFamily.class, "protocol/uhp/v1/git.json")
                .route("git.status", this::status)
                .route("git.branches", this::branches)
                .route("git.log", this::log)
                .route("git.open", this::open)
                .route("git.stage", c -> write(c, "stage"))
                .route("git.unstage", c -> write(c, "unstage"))
                .route("git.discard", c -> write(c, "discard"))
                .route("git.commit", c -> write(c, "commit"))
                .route("git.checkout", c -> write(c, "checkout"))
                .route("git.branch.create", c -> write(c, "branch.create"))
                .route("git.branch.delete", c -> write(c, "branch.delete"))
                .route("git.branch.rename", c -> write(c, "branch.rename"))
                .route("git.fetch", c -> write(c, "fetch"))
                .route("git.pull", c -> write(c, "pull"))
                .route("git.push", c -> write(c, "push"))
                .route("git.remote.add", c -> write(c, "remote.add"))
                .route("git.op.get", this::opGet)
                .route("git.op.list", this::opList)
                .bind();
    }

    /** Stops what JGit started: its work queue's thread and the file-store attribute executors. */
    @Deactivate
    void deactivate() {
        Git.shutdown();
        try {
            Method shutDown = CleanupService.class.getDeclaredMethod("shutDown");
            shutDown.setAccessible(true);
            shutDown.invoke(jgitCleanup);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.getLogger(GitFamily.class.getName()).log(System.Logger.Level.WARNING, "JGit cleanup failed", e);
        }
    }

    @Override
    public String family() {
        return "git";
    }

    @Override
    public FamilyContract contract() {
        return contract;
    }

    /** A repository read: what it adds to a result naming the workspace and the working tree. */
    @FunctionalInterface
    interface Read {
        void into(Repository repo, ObjectNode result) throws IOException, GitAPIException;
    }

    private static ObjectNode read(Call call, String type, Read read) {
        Target t = call.target(Target.class);
        ObjectNode r = call.newObject().put("type", type).put("workspace", t.workspaceIndex())
                .put("workspace_id", t.workspaceId());
        try (Repository repo = Repos.open(t.workspace().cwd())) {
            r.put("root", repo.getWorkTree().getAbsolutePath());
            read.into(repo, r);
        } catch (IOException e) {
            // a repository that cannot be read (corrupt, vanished mid-read): internal_error, logged
            throw new UncheckedIOException("git read failed in " + t.workspace().cwd(), e);
        } catch (GitAPIException e) {
            throw new IllegalStateException("git read failed in " + t.workspace().cwd(), e);
        }
        return r;
    }

    ObjectNode status(Call call) {
        return read(call, "git_status", GitStatus::read);
    }

    ObjectNode branches(Call call) {
        return read(call, "git_branches", (repo, r) -> GitBranches.read(repo, r));
    }

    ObjectNode log(Call call) {
        ObjectNode p = call.params();
        String ref = p.hasNonNull("ref") ? p.get("ref").textValue() : null;
        int limit = p.path("limit").asInt(GitLog.DEFAULT_LIMIT);
        int skip = p.path("skip").asInt(0);
        return read(call, "git_log", (repo, r) -> GitLog.read(repo, ref, skip, limit, r));
    }

    /** A write: the engine validates, runs (or starts) it; the result is the operation. */
    ObjectNode write(Call call, String kind) {
        Target t = call.target(Target.class);
        ObjectNode p = call.params().deepCopy();
        p.remove("workspace");
        p.remove("workspace_id");
        GitOpResult r = ops.submit(t.workspace().cwd(), kind, p);
        ObjectNode out = call.newObject().put("type", "git_op");
        out.setAll(GitEngine.json(r));
        return out;
    }

    ObjectNode opGet(Call call) {
        String id = call.params().path("op").asText();
        GitOpResult r = ops.get(id).orElseThrow(() -> UhpException.notFound("git_op", id, "op",
                "no git operation " + id + " (unknown, or older than the " + GitEngine.MAX_ENDED + " remembered)"));
        ObjectNode out = call.newObject().put("type", "git_op");
        out.setAll(GitEngine.json(r));
        return out;
    }

    ObjectNode opList(Call call) {
        ObjectNode out = call.newObject().put("type", "git_ops");
        var rows = out.putArray("ops");
        ops.recent().forEach(r -> rows.add(GitEngine.json(r)));
        return out;
    }

    /** The answer of git.open: the tab's id and whether this call added it. */
    record Opened(String tabId, boolean created) {
    }

    ObjectNode open(Call call) {
        Target t = call.target(Target.class);
        Path cwd = t.workspace().cwd();
        // a dashboard for a folder with no repository would show nothing: refused, nothing changed
        Repos.open(cwd).close();
        String wsId = t.workspaceId();
        Opened o;
        try {
            o = model.change(call.ifRevision(), (s, sp) -> open(s, wsId, Lifecycle.of(sp), sp));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a dashboard spawns nothing; never expected
        }
        Topology now = model.topology();
        Workspace w = now.requireWorkspace(wsId);
        return call.newObject().put("type", "git_open").put("workspace", now.workspaceIndex(wsId))
                .put("workspace_id", wsId).put("tab", w.tabIndex(o.tabId()) + 1).put("tab_id", o.tabId())
                .put("created", o.created());
    }

    /**
     * Makes the workspace's first Git dashboard its active tab, or adds one at the end when it
     * has none ({@link Lifecycle#newTab}: a dashboard spawns nothing). Which workspace is active
     * does not change, as with {@code tab.new} and {@code tab.focus}.
     */
    static Change<Opened> open(Topology s, String wsId, Lifecycle lifecycle, Spawner sp) throws IOException {
        Workspace w = s.requireWorkspace(wsId);
        for (Tab tab : w.tabs()) {
            if (tab.kind() == TabKind.GIT) {
                if (tab.id().equals(w.activeTab())) {
                    return new Change<>(s, List.of(), new Opened(tab.id(), false));
                }
                return new Change<>(s.withWorkspace(s.workspaceIndex(wsId), w.withTabs(w.tabs(), tab.id())),
                        List.of(Lifecycle.tabFocused(wsId, tab.id())),
                        new Opened(tab.id(), false));
            }
        }
        Change<String> c = lifecycle.newTab(s, wsId, TabKind.GIT, null, sp);
        return new Change<>(c.state(), c.events(), new Opened(c.result(), true));
    }
}

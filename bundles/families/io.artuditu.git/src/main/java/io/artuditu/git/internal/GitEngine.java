package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.git.api.GitOpResult;
import io.artuditu.git.api.GitOpResult.State;
import io.artuditu.git.api.GitOperations;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.events.EventBus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eclipse.jgit.lib.Repository;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The git write engine ({@link GitOperations}): validates a request on the caller's thread,
 * takes the worktree root's one writer slot, runs the plan's git processes on a
 * {@code git-op} thread, and waits for it at most the grace window.
 *
 * <p>Bounds: at most {@link #MAX_RUNNING} operations run at once (one per root; more are
 * refused), the {@link #MAX_ENDED} most recent ended ones are remembered. Threads: up to
 * {@link #MAX_RUNNING} {@code git-op} threads, an idle one ends after 30 s. On deactivation
 * the running operations' git processes are killed (SIGTERM, SIGKILL after 1 s; git removes
 * its lock files on SIGTERM) and the threads are joined (≤ 3 s): nothing outlives the bundle.
 */
@Component(service = GitOperations.class)
public final class GitEngine implements GitOperations {
    /** How long {@link #submit} waits for an operation before answering {@code running}. */
    static final long GRACE_MS = 2_000;
    /** Most operations running at once (over all roots). */
    static final int MAX_RUNNING = 8;
    /** Ended operations remembered for {@link #get}. */
    static final int MAX_ENDED = 64;

    private final GitProcess.Limits limits;
    private final long graceMillis;
    private final Supplier<EventBus> bus;
    private final ThreadPoolExecutor executor;
    private final AtomicLong ids = new AtomicLong();
    /** Guarded by this: the running operation of each root, and every remembered one by id (oldest first). */
    private final Map<Path, Op> writers = new HashMap<>();
    private final LinkedHashMap<String, Op> ops = new LinkedHashMap<>();
    private boolean closed;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile EventBus eventBus;

    @Activate
    public GitEngine() {
        this(GitProcess.Limits.DEFAULT, GRACE_MS, null);
    }

    /**
     * @param limits      each git process's silence and total limits and output cap
     * @param graceMillis how long submit waits before answering running
     * @param bus         the event bus; null: the component's dynamic reference
     */
    GitEngine(GitProcess.Limits limits, long graceMillis, Supplier<EventBus> bus) {
        this.limits = limits;
        this.graceMillis = graceMillis;
        this.bus = bus != null ? bus : () -> eventBus;
        this.executor = new ThreadPoolExecutor(0, MAX_RUNNING, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "git-op");
            t.setDaemon(true);
            return t;
        });
    }

    @Deactivate
    void deactivate() {
        synchronized (this) {
            closed = true;
        }
        executor.shutdownNow();
        try {
            executor.awaitTermination(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One operation; its fields after {@code done} are guarded by this engine. */
    private static final class Op {
        final String id;
        final String kind;
        final Path root;
        final CountDownLatch done = new CountDownLatch(1);
        State state = State.RUNNING;
        Integer exitCode;
        String message;
        UhpException refusal;

        Op(String id, String kind, Path root) {
            this.id = id;
            this.kind = kind;
            this.root = root;
        }
    }

    @Override
    public GitOpResult submit(Path folder, String kind, ObjectNode params) {
        if (!KINDS.contains(kind)) {
            throw UhpException.invalid("kind", "unknown_kind", "no git operation " + kind);
        }
        Path root;
        GitRequests.Plan plan;
        try (Repository repo = Repos.open(folder)) {
            try {
                root = repo.getWorkTree().toPath().toRealPath();
            } catch (IOException e) {
                throw UhpException.notFound("directory", repo.getWorkTree().toString(), null,
                        "the working tree " + repo.getWorkTree() + " cannot be read: " + e.getMessage());
            }
            plan = GitRequests.plan(kind, params, repo, new GitPaths(folder, root));
        }
        Op op;
        synchronized (this) {
            if (closed) {
                plan.cleanup();
                throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the git family is stopping");
            }
            Op running = writers.get(root);
            if (running != null) {
                plan.cleanup();
                throw busy(running, "git_operation_running", "git." + running.kind + " (" + running.id
                        + ") is running in " + root + "; retry when its git.op event says it ended");
            }
            if (writers.size() >= MAX_RUNNING) {
                plan.cleanup();
                throw busy(writers.values().iterator().next(), "too_many_operations",
                        MAX_RUNNING + " git operations are running; retry when one ended");
            }
            op = new Op("op-" + ids.incrementAndGet(), kind, root);
            writers.put(root, op);
            ops.put(op.id, op);
            trim();
        }
        publish(op);
        try {
            executor.execute(() -> run(op, plan));
        } catch (RejectedExecutionException e) {
            finish(op, plan, State.FAILED, null, "the git family is stopping", null);
            throw new UhpException(ErrorCode.METHOD_UNAVAILABLE, "the git family is stopping");
        }
        try {
            op.done.await(graceMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (op.refusal != null) {
                throw op.refusal;
            }
            return result(op);
        }
    }

    private static UhpException busy(Op running, String reason, String message) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("reason", reason);
        d.put("op", running.id);
        d.put("kind", running.kind);
        d.put("root", running.root.toString());
        return new UhpException(ErrorCode.AUTHORITY_CONFLICT, message, d);
    }

    /** Drops the oldest ended operations beyond {@link #MAX_ENDED}; running ones stay. */
    private void trim() {
        int ended = ops.size() - writers.size();
        for (Iterator<Op> it = ops.values().iterator(); it.hasNext() && ended > MAX_ENDED; ) {
            if (it.next().state != State.RUNNING) {
                it.remove();
                ended--;
            }
        }
    }

    /** On a git-op thread: the plan's steps in order, stopping at the first that fails. */
    private void run(Op op, GitRequests.Plan plan) {
        String output = "";
        try {
            for (GitRequests.Step step : plan.steps()) {
                GitProcess.Outcome o = GitProcess.run(op.root, step.args(), step.literalPathspecs(), limits);
                output = o.output();
                if (o.killed() != null) {
                    String why = switch (o.killed()) {
                        case "silence" -> "killed: no output for " + limits.silenceMillis() / 1000.0 + " s";
                        case "total" -> "killed: running for " + limits.totalMillis() / 1000.0 + " s";
                        default -> "killed: the git family stopped";
                    };
                    finish(op, plan, State.FAILED, null, why + (output.isEmpty() ? "" : "\n" + output), null);
                    return;
                }
                if (!o.ok()) {
                    UhpException refusal = null;
                    if (step.refusal() != null) {
                        Map<String, Object> d = new LinkedHashMap<>();
                        d.put("field", "patch");
                        d.put("reason", step.refusal());
                        d.put("git", message(output));
                        refusal = new UhpException(ErrorCode.INVALID_REQUEST,
                                "the patch does not apply; nothing changed: " + message(output), d);
                    }
                    finish(op, plan, State.FAILED, o.exitCode(), output, refusal);
                    return;
                }
            }
            finish(op, plan, State.SUCCEEDED, 0, output, null);
        } catch (IOException | RuntimeException e) {
            finish(op, plan, State.FAILED, null, "git could not be run: " + e.getMessage(), null);
        }
    }

    private void finish(Op op, GitRequests.Plan plan, State state, Integer exitCode, String output, UhpException refusal) {
        plan.cleanup();
        synchronized (this) {
            op.state = state;
            op.exitCode = exitCode;
            op.message = message(output);
            op.refusal = refusal;
            writers.remove(op.root, op);
            trim();
        }
        op.done.countDown();
        publish(op);
    }

    private void publish(Op op) {
        EventBus b = bus.get();
        if (b == null) {
            return;
        }
        GitOpResult r;
        synchronized (this) {
            r = result(op);
        }
        try {
            b.publish("git.op", json(r));
        } catch (RuntimeException e) {
            System.getLogger(GitEngine.class.getName()).log(System.Logger.Level.WARNING, "git.op not published", e);
        }
    }

    private static GitOpResult result(Op op) {
        return new GitOpResult(op.id, op.kind, op.root.toString(), op.state, op.exitCode, op.message);
    }

    /** An operation as the wire carries it (the result of the write methods, the event's data). */
    static ObjectNode json(GitOpResult r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("op", r.op()).put("kind", r.kind()).put("root", r.root()).put("state", r.state().wire());
        if (r.exitCode() == null) {
            n.putNull("exit_code");
        } else {
            n.put("exit_code", r.exitCode());
        }
        if (r.message() == null) {
            n.putNull("message");
        } else {
            n.put("message", r.message());
        }
        return n;
    }

    /**
     * The end of git's output, safe for a terminal: line feeds and tabs kept, every other
     * control character as {@code \xNN}, trailing white space dropped, at most
     * {@link GitOpResult#MAX_MESSAGE} units (the last ones, after a leading {@code …}).
     */
    static String message(String output) {
        if (output == null) {
            return null;
        }
        StringBuilder b = new StringBuilder(output.length());
        for (int i = 0; i < output.length(); i++) {
            char c = output.charAt(i);
            if (c == '\n' || c == '\t') {
                b.append(c);
            } else if (c == '\r') {
                continue;
            } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
        String s = b.toString().strip();
        if (s.length() > GitOpResult.MAX_MESSAGE) {
            int from = s.length() - (GitOpResult.MAX_MESSAGE - 1);
            if (Character.isLowSurrogate(s.charAt(from))) {
                from++;
            }
            s = "…" + s.substring(from);
        }
        return s;
    }

    @Override
    public synchronized Optional<GitOpResult> get(String op) {
        Op o = ops.get(op);
        return o == null ? Optional.empty() : Optional.of(result(o));
    }

    @Override
    public synchronized List<GitOpResult> recent() {
        List<GitOpResult> all = new ArrayList<>();
        ops.values().forEach(o -> all.add(result(o)));
        java.util.Collections.reverse(all);
        return all;
    }
}

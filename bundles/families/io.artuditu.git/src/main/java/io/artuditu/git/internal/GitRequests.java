package io.artuditu.git.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.artuditu.uhp.api.ErrorCode;
import io.artuditu.uhp.api.UhpException;
import io.artuditu.uhp.api.paths.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryState;

/**
 * Turns one write request into the git command lines that carry it out, after checking all of
 * it: params, paths (the workspace path rule), branch names ({@link Repository#isValidRefName}),
 * remote names (named only, existing), remote URLs (an allowlist of transports), the
 * repository's state. Nothing here starts a process; a refusal is an {@link UhpException}.
 * Only a commit message or a patch is written, to a temporary file the plan removes.
 */
final class GitRequests {
    /** Most paths one request names. */
    static final int MAX_PATHS = 1000;
    /** Longest commit message, in UTF-8 bytes. */
    static final int MAX_MESSAGE_BYTES = 64 * 1024;
    /** Longest branch, remote or ref name, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = 255;
    /** Longest remote URL, in UTF-8 bytes. */
    static final int MAX_URL_BYTES = 2048;

    /**
     * One git command line.
     *
     * @param args             the arguments after the global options
     * @param literalPathspecs whether paths follow (then {@code --literal-pathspecs}: no pathspec magic)
     * @param refusal          when not null, a non-zero exit of this step refuses the request
     *                         ({@code invalid_request} with this reason) instead of failing it
     */
    record Step(List<String> args, boolean literalPathspecs, String refusal) {
        Step(String... args) {
            this(List.of(args), false, null);
        }
    }

    /** What a request runs, in order, and the temporary files it owns. */
    record Plan(String kind, List<Step> steps, List<Path> temps) {
        void cleanup() {
            for (Path t : temps) {
                try {
                    Files.deleteIfExists(t);
                } catch (IOException e) {
                    // a temporary file in the system's temporary folder: the system cleans it
                }
            }
        }
    }

    private static final Pattern REMOTE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern HOST_URL = Pattern.compile("(https|git|ssh)://([A-Za-z0-9._~%!$&'()*+,;=-]+@)?"
            + "([A-Za-z0-9][A-Za-z0-9.-]*|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?(/\\S*)?");
    private static final Pattern SCP_LIKE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:[^:\\s][^\\s]*"
            + "|[A-Za-z0-9_][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:");

    private GitRequests() {
    }

    /**
     * The plan of {@code kind} with {@code params} (already checked against the contract's
     * schema by the dispatcher; checked again here where the schema cannot say it).
     */
    static Plan plan(String kind, ObjectNode params, Repository repo, GitPaths paths) {
        List<Path> temps = new ArrayList<>();
        try {
            List<Step> steps = switch (kind) {
                case "stage", "unstage", "discard" -> pathsOrPatch(kind, params, repo, paths, temps);
                case "commit" -> commit(params, repo, temps);
                case "checkout" -> checkout(params, repo);
                case "branch.create" -> List.of(branchCreate(params, repo));
                case "branch.delete" -> List.of(branchDelete(params, repo));
                case "branch.rename" -> List.of(branchRename(params, repo));
                case "fetch" -> List.of(fetch(params, repo));
                case "pull" -> List.of(pull(params, repo));
                case "push" -> List.of(push(params, repo));
                case "remote.add" -> List.of(remoteAdd(params, repo));
                default -> throw invalid("kind", "unknown_kind", "no git operation " + kind);
            };
            return new Plan(kind, steps, temps);
        } catch (RuntimeException e) {
            new Plan(kind, List.of(), temps).cleanup();
            throw e;
        }
    }

    // ------------------------------------------------------------------ stage, unstage, discard

    private static List<Step> pathsOrPatch(String kind, ObjectNode p, Repository repo, GitPaths rule, List<Path> temps) {
        boolean hasPaths = p.has("paths");
        boolean hasPatch = p.has("patch");
        if (hasPaths == hasPatch) {
            throw invalid(hasPaths ? "patch" : "paths", "paths_or_patch", "git." + kind + " takes exactly one of paths and patch");
        }
        if (hasPatch) {
            String patch = text(p, "patch");
            if (patch.isEmpty()) {
                throw invalid("patch", "empty", "patch is empty");
            }
            Path file = temp(temps, "patch", patch);
            List<String> apply = new ArrayList<>(List.of("apply"));
            switch (kind) {
                case "stage" -> apply.add("--cached");
                case "unstage" -> apply.addAll(List.of("--cached", "--reverse"));
                default -> apply.add("--reverse");
            }
            List<String> check = new ArrayList<>(apply);
            check.add("--check");
            check.add(file.toString());
            apply.add(file.toString());
            return List.of(new Step(List.copyOf(check), false, "patch_does_not_apply"), new Step(List.copyOf(apply), false, null));
        }
        JsonNode list = p.get("paths");
        if (!list.isArray() || list.isEmpty()) {
            throw invalid("paths", "empty", "paths names no path");
        }
        if (list.size() > MAX_PATHS) {
            throw invalid("paths", "too_many", "paths names more than " + MAX_PATHS + " paths");
        }
        List<String> rel = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            if (!item.isTextual()) {
                throw invalid("paths[" + i + "]", "not_a_string", "paths[" + i + "] is not a string");
            }
            rel.add(rule.relative("paths[" + i + "]", item.textValue()));
        }
        List<String> args = new ArrayList<>();
        switch (kind) {
            case "stage" -> args.addAll(List.of("add", "-A"));
            case "unstage" -> {
                if (head(repo) != null) {
                    args.addAll(List.of("reset", "-q"));
                } else {
                    // nothing committed yet: unstaging is taking the paths out of the index
                    args.addAll(List.of("rm", "--cached", "-r", "-q", "--ignore-unmatch"));
                }
            }
            default -> args.addAll(List.of("checkout", "-q"));
        }
        args.add("--");
        args.addAll(rel);
        return List.of(new Step(List.copyOf(args), true, null));
    }

    // ------------------------------------------------------------------ commit

    private static List<Step> commit(ObjectNode p, Repository repo, List<Path> temps) {
        String message = text(p, "message");
        if (message.isBlank()) {
            throw invalid("message", "empty", "message is empty");
        }
        if (message.getBytes(StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES) {
            throw invalid("message", "too_long", "message is longer than " + MAX_MESSAGE_BYTES + " bytes");
        }
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
                throw invalid("message", "control_character", "message holds a control character (U+"
                        + String.format("%04X", (int) c) + ") at " + i);
            }
        }
        boolean amend = p.path("amend").asBoolean(false);
        if (amend && head(repo) == null) {
            throw invalid("amend", "no_commit", "there is no commit to amend");
        }
        Path file = temp(temps, "message", message);
        List<String> args = new ArrayList<>(List.of("commit", "-q", "-F", file.toString()));
        if (amend) {
            args.add("--amend");
        }
        if (p.path("allow_empty").asBoolean(false)) {
            args.add("--allow-empty");
        }
        return List.of(new Step(List.copyOf(args), false, null));
    }

    // ------------------------------------------------------------------ checkout and branches

    private static List<Step> checkout(ObjectNode p, Repository repo) {
        String branch = p.has("branch") ? branchName(p, "branch") : null;
        String ref = p.has("ref") ? text(p, "ref") : null;
        boolean create = p.path("create").asBoolean(false);
        if (branch == null && ref == null) {
            throw invalid("branch", "branch_or_ref", "git.checkout takes a branch or a ref");
        }
        if (create && branch == null) {
            throw invalid("create", "needs_branch", "create needs the new branch's name in branch");
        }
        if (branch != null && ref != null && !create) {
            throw invalid("ref", "needs_create", "branch with ref is for creating a branch at ref: set create");
        }
        requireSafe(repo, "git.checkout");
        if (branch == null) {
            return List.of(new Step("switch", "-q", "--detach", commit(repo, "ref", ref).name()));
        }
        if (create) {
            if (exists(repo, Constants.R_HEADS + branch)) {
                throw invalid("branch", "exists", "a branch " + branch + " exists already");
            }
            if (ref != null) {
                return List.of(new Step("switch", "-q", "-c", branch, commit(repo, "ref", ref).name()));
            }
            return List.of(new Step("switch", "-q", "-c", branch));
        }
        if (!exists(repo, Constants.R_HEADS + branch) && !remoteBranchExists(repo, branch)) {
            throw UhpException.notFound("branch", branch, "branch", "no branch " + branch);
        }
        return List.of(new Step("switch", "-q", branch));
    }

    private static Step branchCreate(ObjectNode p, Repository repo) {
        String name = branchName(p, "name");
        if (exists(repo, Constants.R_HEADS + name)) {
            throw invalid("name", "exists", "a branch " + name + " exists already");
        }
        if (p.has("start_point")) {
            String sp = text(p, "start_point");
            commit(repo, "start_point", sp);
            return new Step("branch", "--", name, sp);
        }
        if (head(repo) == null) {
            throw invalid("start_point", "no_commit", "there is no commit yet to start a branch at");
        }
        return new Step("branch", "--", name);
    }

    private static Step branchDelete(ObjectNode p, Repository repo) {
        String name = branchName(p, "name");
        if (!exists(repo, Constants.R_HEADS + name)) {
            throw UhpException.notFound("branch", name, "name", "no branch " + name);
        }
        if (name.equals(currentBranch(repo))) {
            throw invalid("name", "current_branch", "branch " + name + " is checked out here");
        }
        return new Step("branch", p.path("force").asBoolean(false) ? "-D" : "-d", "--", name);
    }

    private static Step branchRename(ObjectNode p, Repository repo) {
        String from = branchName(p, "from");
        String to = branchName(p, "to");
        if (!exists(repo, Constants.R_HEADS + from) && !from.equals(currentBranch(repo))) {
            throw UhpException.notFound("branch", from, "from", "no branch " + from);
        }
        if (exists(repo, Constants.R_HEADS + to)) {
            throw invalid("to", "exists", "a branch " + to + " exists already");
        }
        return new Step("branch", "-m", "--", from, to);
    }

    // ------------------------------------------------------------------ remotes

    private static Step fetch(ObjectNode p, Repository repo) {
        List<String> a = new ArrayList<>(List.of("fetch"));
        if (p.has("remote")) {
            a.add(remote(p, repo));
        }
        return new Step(List.copyOf(a), false, null);
    }

    private static Step pull(ObjectNode p, Repository repo) {
        String remote = p.has("remote") ? remote(p, repo) : null;
        String branch = p.has("branch") ? branchName(p, "branch") : null;
        if (branch != null && remote == null) {
            throw invalid("remote", "needs_remote", "branch needs the remote it is on");
        }
        requireSafe(repo, "git.pull");
        List<String> a = new ArrayList<>(List.of("pull"));
        if (p.path("ff_only").asBoolean(true)) {
            a.add("--ff-only");
        } else {
            a.addAll(List.of("--no-rebase", "--no-edit"));
        }
        if (remote != null) {
            a.add(remote);
        }
        if (branch != null) {
            a.add(branch);
        }
        return new Step(List.copyOf(a), false, null);
    }

    private static Step push(ObjectNode p, Repository repo) {
        String remote = p.has("remote") ? remote(p, repo) : null;
        String branch = p.has("branch") ? branchName(p, "branch") : null;
        if (branch != null && remote == null) {
            throw invalid("remote", "needs_remote", "branch needs the remote to push it to");
        }
        if (branch != null && !exists(repo, Constants.R_HEADS + branch)) {
            throw UhpException.notFound("branch", branch, "branch", "no branch " + branch);
        }
        List<String> a = new ArrayList<>(List.of("push"));
        if (p.path("set_upstream").asBoolean(false)) {
            a.add("--set-upstream");
        }
        if (remote != null) {
            a.add(remote);
        }
        if (branch != null) {
            a.add(branch);
        }
        return new Step(List.copyOf(a), false, null);
    }

    private static Step remoteAdd(ObjectNode p, Repository repo) {
        String name = text(p, "name");
        checkRemoteName("name", name);
        if (repo.getConfig().getSubsections("remote").contains(name)) {
            throw invalid("name", "exists", "a remote " + name + " exists already");
        }
        String url = text(p, "url");
        String why = urlRefusal(url);
        if (why != null) {
            throw invalid("url", "transport_not_allowed", "url " + WorkspacePath.quoted(url) + " is refused: " + why);
        }
        return new Step("remote", "add", "--", name, url);
    }

    /**
     * Why {@code url} is refused, or null when it is allowed: {@code https://}, {@code ssh://},
     * {@code git://} with a host, scp-like {@code user@host:path}, or an absolute local path.
     * Any {@code <helper>::…} form, anything starting with {@code -}, other schemes, relative
     * paths and control characters or white space outside a local path are refused.
     */
    static String urlRefusal(String url) {
        if (url.isEmpty()) {
            return "it is empty";
        }
        if (url.getBytes(StandardCharsets.UTF_8).length > MAX_URL_BYTES) {
            return "it is longer than " + MAX_URL_BYTES + " bytes";
        }
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
                return "it holds a control character";
            }
        }
        if (url.startsWith("-")) {
            return "it starts with -";
        }
        if (url.contains("::")) {
            return "a <transport>::<address> form runs a remote helper";
        }
        if (url.startsWith("/")) {
            return null; // a local path (git's local transport)
        }
        if (url.contains("://")) {
            return HOST_URL.matcher(url).matches() ? null : "only https://, ssh:// and git:// URLs with a host are allowed";
        }
        if (SCP_LIKE.matcher(url).matches()) {
            return null;
        }
        return "only https://, ssh://, git://, user@host:path and absolute local paths are allowed";
    }

    /** A remote named by a request: a name only, that the repository's config has. */
    private static String remote(ObjectNode p, Repository repo) {
        String name = text(p, "remote");
        checkRemoteName("remote", name);
        if (!repo.getConfig().getSubsections("remote").contains(name)) {
            throw UhpException.notFound("remote", name, "remote", "no remote " + name + " in this repository");
        }
        return name;
    }

    /** Refuses what is not a plain remote name, before anything else looks at it. */
    private static void checkRemoteName(String field, String name) {
        if (name.contains(":")) {
            throw invalid(field, "not_a_remote_name", field + " must name a remote; a URL or <transport>::… is refused"
                    + " (add a remote with git.remote.add)");
        }
        if (name.startsWith("-")) {
            throw invalid(field, "not_a_remote_name", field + " starts with -");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES || !REMOTE_NAME.matcher(name).matches()
                || !Repository.isValidRefName(Constants.R_REMOTES + name + "/HEAD")) {
            throw invalid(field, "not_a_remote_name", field + " " + WorkspacePath.quoted(name) + " is not a valid remote name");
        }
    }

    // ------------------------------------------------------------------ helpers

    private static String branchName(ObjectNode p, String field) {
        String name = text(p, field);
        if (name.isEmpty() || name.startsWith("-") || name.equals("HEAD")
                || name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES
                || !Repository.isValidRefName(Constants.R_HEADS + name)) {
            throw invalid(field, "invalid_branch_name", field + " " + WorkspacePath.quoted(name) + " is not a valid branch name");
        }
        return name;
    }

    /** The commit {@code rev} names; not_found or invalid_request otherwise. */
    private static ObjectId commit(Repository repo, String field, String rev) {
        if (rev.isEmpty() || rev.startsWith("-") || rev.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw invalid(field, "malformed", field + " " + WorkspacePath.quoted(rev) + " is not a revision");
        }
        WorkspacePath.checkControls(field, rev, rev);
        ObjectId id;
        try {
            id = repo.resolve(rev + "^{commit}");
        } catch (IOException | RuntimeException e) {
            throw invalid(field, "malformed", field + " " + WorkspacePath.quoted(rev) + " is not a commit: " + e.getMessage());
        }
        if (id == null) {
            throw UhpException.notFound("ref", rev, field, "no commit " + rev);
        }
        return id;
    }

    private static void requireSafe(Repository repo, String method) {
        RepositoryState s = repo.getRepositoryState();
        if (s != RepositoryState.SAFE) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("field", "workspace");
            d.put("reason", "operation_in_progress");
            d.put("state", GitStatus.state(s));
            throw new UhpException(ErrorCode.INVALID_REQUEST, method + " is refused while a " + GitStatus.state(s)
                    + " is in progress; finish or abort it first", d);
        }
    }

    private static ObjectId head(Repository repo) {
        try {
            return repo.resolve(Constants.HEAD + "^{commit}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String currentBranch(Repository repo) {
        try {
            String full = repo.getFullBranch();
            return full != null && full.startsWith(Constants.R_HEADS) ? full.substring(Constants.R_HEADS.length()) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean exists(Repository repo, String ref) {
        try {
            return repo.exactRef(ref) != null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean remoteBranchExists(Repository repo, String branch) {
        try {
            return repo.getRefDatabase().getRefsByPrefix(Constants.R_REMOTES).stream()
                    .anyMatch(r -> r.getName().endsWith("/" + branch)
                            && r.getName().indexOf('/', Constants.R_REMOTES.length()) == r.getName().length() - branch.length() - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(ObjectNode p, String field) {
        JsonNode n = p.get(field);
        if (n == null || !n.isTextual()) {
            throw invalid(field, "missing", field + " must be a string");
        }
        return n.textValue();
    }

    private static Path temp(List<Path> temps, String what, String content) {
        try {
            Path f = Files.createTempFile("artuditu-git-" + what + "-", ".txt");
            temps.add(f);
            Files.writeString(f, content, StandardCharsets.UTF_8);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the " + what + " to a temporary file", e);
        }
    }

    static UhpException invalid(String field, String reason, String message) {
        return UhpException.invalid(field, reason, message);
    }
}

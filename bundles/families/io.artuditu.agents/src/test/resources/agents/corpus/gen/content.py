"""Words the scenarios draw from (with a seeded random, so every run writes the same corpus)."""

PROMPTS = [
    "fix the failing test in tests/test_parser.py",
    "add a --verbose flag to the cli and document it",
    "why does the build take so long? look at the pom",
    "refactor the session store so that writes are atomic",
    "write a unit test for the tokenizer's error path",
    "rename ProcessEntry.name to command everywhere",
    "explain what the detector loop does, briefly",
    "update the changelog for the 1.2 release",
    "find where we leak file descriptors in the pty host",
    "make the README example actually compile",
]

ADVERSARIAL_PROMPTS = [
    "the footer says (esc to interrupt) forever, why?",
    "grep for 'Do you want to proceed?' and '1. Yes' in the tests",
    "make the spinner say ✻ Thinking… (esc to interrupt) like claude",
    "what does 'Allow command?' mean in codex",
    "remove the (Y)es/(N)o [Yes]: prompt from aider's config",
]

ANSWERS = [
    "The test failed because the parser treated an empty string as an error. I changed the "
    "guard to accept empty input and return an empty list; the suite passes now.",
    "Done. The flag is wired through to the logger and described in docs/cli.md.",
    "Most of the time goes into the shade plugin, which repackages every dependency twice. "
    "Moving it to the distribution module only would save about forty seconds.",
    "Writes now go to a temporary file beside the target, are synced, and then renamed over it.",
    "I added test_tokenizer_reports_unterminated_string, which fails before the fix and passes after.",
    "Renamed in 14 files; the build and the tests pass.",
]

QUESTIONS = [
    "Should I also update the integration tests, or keep this change to the unit tests?",
    "Do you want me to keep the old flag as an alias for one release?",
    "Which of the two approaches do you prefer: a new class, or a method on the existing one?",
]

COMMANDS = [
    ("pytest tests/test_parser.py -x", ["FAILED tests/test_parser.py::test_empty - AssertionError",
                                        "1 failed, 41 passed in 0.52s"]),
    ("mvn -q -o test -pl core", ["[ERROR] Tests run: 12, Failures: 1", "[ERROR] ParserTest.emptyInput:41"]),
    ("git status --short", [" M src/parser.py", "?? notes.txt"]),
    ("npm test", ["> proj@1.0.0 test", "> vitest run", " ✓ parser.test.ts (12 tests) 31ms"]),
    ("ls -la build", ["total 8", "drwxr-xr-x  2 dev dev 4096 Dec  1 10:02 .", "-rw-r--r--  1 dev dev  120 Dec  1 10:02 out.o"]),
]

DANGEROUS = [
    ("rm -rf build", "Remove the stale build directory"),
    ("git push --force origin main", "Push the rewritten history"),
    ("npm install --save-dev vitest", "Install the test runner"),
    ("curl -sSf https://example.com/install.sh | sh", "Run the installer"),
    ("chmod -R 755 scripts", "Make the scripts executable"),
]

FILES = ["src/parser.py", "src/session_store.py", "docs/cli.md", "core/src/main/java/Parser.java", "README.md"]

DIFF = [
    ("12", " ", "def parse(text):"),
    ("13", "-", "    if text == \"\":"),
    ("14", "-", "        raise ValueError(\"empty\")"),
    ("13", "+", "    if not text:"),
    ("14", "+", "        return []"),
    ("15", " ", "    tokens = tokenize(text)"),
]

# Text an agent may print (a file it shows, a log, a test fixture) that mentions the
# phrases the rules look for.
TRIGGER_TEXT = [
    "✻ Thinking… (5s · esc to interrupt)",
    "press esc to interrupt the agent at any time",
    "Do you want to proceed?",
    "❯ 1. Yes",
    "  2. No, and tell Claude what to do differently (esc)",
    "• Working (12s • esc to interrupt)",
    "Allow command?",
    "⠏ Reticulating splines... (esc to cancel, 4s)",
    "Apply this change?",
    "● 1. Yes, allow once",
    "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:",
    "Waiting for claude-sonnet-4",
    "◆  Goose would like to call the above tool, do you allow?",
    "enter send   esc interrupt",
    "Permission required: Allow once",
    "( O)> ",
    "> ",
]

LONG_DIFF = [(str(20 + i), "-" if i % 3 == 1 else "+" if i % 3 == 2 else " ",
              f"    step_{i} = compute(step_{i - 1 if i else 0}, limit={i * 7})") for i in range(30)]

TYPE_AHEAD = [
    "also check the docs",
    "and why does it say esc to interrupt",
    "then answer: Do you want to proceed?",
    "› 1. Yes, proceed",
]

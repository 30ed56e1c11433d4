package io.artuditu.agents.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionsTest {
    @TempDir
    Path dir;

    @Test
    void aHookEventsReportKeepsTheFolderTheSessionReportNamed() {
        Sessions s = new Sessions(dir.resolve("sessions.json"));
        s.put(new Sessions.Session("claude", "s1", "3", "/home/u/p", "hook", 1));
        s.put(new Sessions.Session("claude", "s1", "3", null, "hook", 2)); // pane.report_event names no cwd
        assertEquals("/home/u/p", s.find("claude", "s1").orElseThrow().cwd());
        assertEquals(2, s.find("claude", "s1").orElseThrow().updatedMillis());
        assertEquals("/home/u/p", new Sessions(dir.resolve("sessions.json")).find("claude", "s1").orElseThrow().cwd());
    }

    @Test
    void aRepeatReportIsNotWrittenAgainButANewFolderIs() throws Exception {
        Path file = dir.resolve("sessions.json");
        Sessions s = new Sessions(file);
        s.put(new Sessions.Session("claude", "s1", "3", "/p", "hook", 1));
        FileTime old = FileTime.fromMillis(0);
        Files.setLastModifiedTime(file, old);
        for (int i = 2; i < 10; i++) {
            s.put(new Sessions.Session("claude", "s1", "3", i % 2 == 0 ? "/p" : null, "hook", i));
        }
        assertEquals(old, Files.getLastModifiedTime(file), "every hook event reports the session; the file stays as it was");
        s.put(new Sessions.Session("claude", "s1", "3", "/q", "hook", 11));
        assertNotEquals(old, Files.getLastModifiedTime(file));
        assertEquals("/q", new Sessions(file).find("claude", "s1").orElseThrow().cwd());
    }

    @Test
    void atStartWhatAnInterruptedWriteLeftGoesAndNothingElseDoes() throws Exception {
        Path file = dir.resolve("sessions.json");
        new Sessions(file).put(new Sessions.Session("claude", "s1", "3", "/p", "hook", 1));
        Path leftover = Files.writeString(dir.resolve(".sessions.json.2718.tmp"), "{\"sessi");
        Path kept = Files.writeString(dir.resolve(".sessions.json.2718.tmp~"), "an editor's");
        assertEquals("/p", new Sessions(file).find("claude", "s1").orElseThrow().cwd());
        assertFalse(Files.exists(leftover));
        assertTrue(Files.exists(kept));
    }
}

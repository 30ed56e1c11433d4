package io.artuditu.dispatcher.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader's two ways of reading an envelope agree: whatever the token-stream reading
 * takes gives the same request as the tree reading, and everything else goes to the tree
 * reading (so errors keep their messages). Its UTF-8 check agrees with the JDK's decoder.
 */
class RequestReaderTest {
    private final RequestReader reader = new RequestReader();

    private static final List<String> LINES = List.of(
            "{\"id\":\"r\",\"method\":\"ping\",\"params\":{}}",
            "{\"id\":\"r\",\"method\":\"ping\"}",
            "{\"method\":\"ping\",\"id\":\"é\",\"params\":{\"a\":[1,2,{\"b\":null}],\"c\":1.5}}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"x\":1},\"auth\":\"tok\",\"if_revision\":7}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":9223372036854775807}",
            "  {\"id\":\"r\",\"method\":\"m\"}  ",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":[1.0,-0.0,-0,2.5e0,0.25,1e-300],\"b\":{\"c\":1E+2}}}",
            // everything below is refused, or taken only by the tree reading
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":1e400}}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":{\"b\":[0,1e-400]}}}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":1e9999999999}}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":5.0}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":-0.0}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":1e19}",
            "\uFEFF{\"id\":\"r\",\"method\":\"m\"}",
            "\u0000{\"id\":\"r\",\"method\":\"m\"}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"if_revision\":3}}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"if_revision\":3},\"if_revision\":4}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":-1}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":1.0}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":92233720368547758070}",
            "{\"id\":\"r\",\"method\":\"m\",\"if_revision\":null}",
            "{\"id\":\"r\",\"method\":\"m\",\"auth\":null}",
            "{\"id\":\"r\",\"method\":\"m\",\"auth\":5}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":[]}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":null}",
            "{\"id\":\"r\",\"method\":\"\"}",
            "{\"id\":\"\",\"method\":\"m\"}",
            "{\"id\":\"" + "x".repeat(io.artuditu.uhp.api.Limits.MAX_ID_BYTES + 1) + "\",\"method\":\"m\"}",
            "{\"id\":\"r\",\"method\":\"" + "x".repeat(io.artuditu.uhp.api.Limits.MAX_ID_BYTES + 1) + "\"}",
            "{\"id\":1,\"method\":\"m\"}",
            "{\"method\":\"m\"}",
            "{\"id\":\"r\"}",
            "{\"id\":\"r\",\"id\":\"s\",\"method\":\"m\"}",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":1,\"a\":2}}",
            "{\"id\":\"r\",\"method\":\"m\",\"extra\":true}",
            "{\"id\":\"r\",\"method\":\"m\"} {}",
            "{\"id\":\"r\",\"method\":\"m\"",
            "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}}",
            "[1,2]",
            "\"str\"",
            "",
            "   ",
            "nul");

    @Test
    void theTokenReadingTakesOnlyWhatTheTreeReadingTakesAndReadsItTheSame() throws Exception {
        List<String> taken = new java.util.ArrayList<>();
        for (String line : LINES) {
            byte[] b = ("xx" + line).getBytes(StandardCharsets.UTF_8);
            RequestReader.Request plain = reader.readPlain(b, 2, b.length - 2);
            RequestReader.Request tree;
            try {
                tree = reader.readTree(b, 2, b.length - 2);
            } catch (RequestReader.Rejected r) {
                assertNull(plain, "the token reading took a request the tree reading refuses: " + line);
                continue;
            }
            if (plain != null) {
                taken.add(line);
                assertEquals(tree, plain, line);
            }
            assertEquals(tree, reader.read(b, 2, b.length - 2), line);
        }
        assertEquals(LINES.subList(0, 7), taken, "the well-formed requests are read without a tree");
    }

    @Test
    void refusalsKeepTheTreeReadingsMessages() {
        for (String line : LINES) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            String viaRead = message(() -> reader.read(b, 0, b.length));
            String viaTree = message(() -> reader.readTree(b, 0, b.length));
            assertEquals(viaTree, viaRead, line);
        }
        byte[] big = "{\"id\":\"r\",\"method\":\"m\",\"params\":{\"a\":1}}".getBytes(StandardCharsets.UTF_8);
        assertNotNull(message(() -> reader.read(big, 0, io.artuditu.uhp.api.Limits.MAX_REQUEST_BYTES + 1)));
    }

    private interface Read {
        RequestReader.Request run() throws RequestReader.Rejected;
    }

    private static String message(Read r) {
        try {
            r.run();
            return null;
        } catch (RequestReader.Rejected e) {
            return e.id + "|" + e.error.code() + "|" + e.error.getMessage() + "|" + e.error.details();
        } catch (IndexOutOfBoundsException e) {
            return "out of bounds";
        }
    }

    @Test
    void theUtf8CheckAgreesWithTheJdkDecoder() {
        Random rnd = new Random(16);
        byte[][] edges = {
            {(byte) 0xc0, (byte) 0x80}, {(byte) 0xc2, (byte) 0x80}, {(byte) 0xe0, (byte) 0x9f, (byte) 0xbf},
            {(byte) 0xe0, (byte) 0xa0, (byte) 0x80}, {(byte) 0xed, (byte) 0x9f, (byte) 0xbf},
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xef, (byte) 0xbf, (byte) 0xbf},
            {(byte) 0xf0, (byte) 0x8f, (byte) 0xbf, (byte) 0xbf}, {(byte) 0xf0, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xf4, (byte) 0x8f, (byte) 0xbf, (byte) 0xbf}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0x80},
            {(byte) 0xff}, {'a', (byte) 0xc3, (byte) 0xa9, 'b'}, {},
        };
        for (byte[] e : edges) {
            assertEquals(jdkValid(e), RequestReader.validUtf8(e, 0, e.length), java.util.Arrays.toString(e));
        }
        byte[] pool = {0x00, 0x41, 0x7f, (byte) 0x80, (byte) 0x8f, (byte) 0x90, (byte) 0x9f, (byte) 0xa0, (byte) 0xbf,
            (byte) 0xc0, (byte) 0xc1, (byte) 0xc2, (byte) 0xdf, (byte) 0xe0, (byte) 0xed, (byte) 0xef, (byte) 0xf0,
            (byte) 0xf4, (byte) 0xf5, (byte) 0xff};
        for (int n = 0; n < 200_000; n++) {
            byte[] b = new byte[1 + rnd.nextInt(6)];
            for (int i = 0; i < b.length; i++) {
                b[i] = pool[rnd.nextInt(pool.length)];
            }
            assertEquals(jdkValid(b), RequestReader.validUtf8(b, 0, b.length), java.util.Arrays.toString(b));
        }
    }

    private static boolean jdkValid(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}

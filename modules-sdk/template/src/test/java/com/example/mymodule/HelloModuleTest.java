package com.example.mymodule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.artuditu.sdk.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;

class HelloModuleTest {
    private static String wire(List<Segment> segments) {
        return segments.toString();
    }

    @Test
    void theWidgetSaysHelloAndRunsGreetWhenClicked() {
        assertEquals("[{\"type\":\"symbol\",\"symbol\":\"◆\",\"tone\":\"accent\"}, {\"type\":\"spacer\",\"width\":1}, "
                + "{\"type\":\"text\",\"text\":\"hello\",\"action\":\"greet\"}]", wire(HelloModule.content(0)));
    }

    @Test
    void theWidgetCountsTheGreetings() {
        assertEquals("hello ×3", HelloModule.content(3).get(2).toJson().get("text").asText());
    }
}

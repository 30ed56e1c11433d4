package io.artuditu.themes;

/** Theme file text for tests. */
final class Palettes {
    private Palettes() {
    }

    /** A plain terminal palette with the given id and background; nothing else. */
    static String plain(String id, String background) {
        return """
                id = "%s"
                name = "Test %s"
                variant = "dark"

                [colors]
                foreground = "#c0c0c0"
                background = "%s"
                black = "#000000"
                red = "#cc0000"
                green = "#00cc00"
                yellow = "#cccc00"
                blue = "#0000cc"
                magenta = "#cc00cc"
                cyan = "#00cccc"
                white = "#cccccc"
                bright_black = "#555555"
                bright_red = "#ff5555"
                bright_green = "#55ff55"
                bright_yellow = "#ffff55"
                bright_blue = "#5555ff"
                bright_magenta = "#ff55ff"
                bright_cyan = "#55ffff"
                bright_white = "#ffffff"
                """.formatted(id, id, background);
    }
}

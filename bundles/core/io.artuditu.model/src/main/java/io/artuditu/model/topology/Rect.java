package io.artuditu.model.topology;

/** A rectangle of the normalized area, in integer units; right and bottom are exclusive. */
public record Rect(int x, int y, int width, int height) {
    public int right() {
        return x + width;
    }

    public int bottom() {
        return y + height;
    }
}

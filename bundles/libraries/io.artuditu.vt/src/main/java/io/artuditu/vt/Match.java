package io.artuditu.vt;

/**
 * Where {@link Terminal#search} found the text. Lines are numbered across the retained text:
 * {@code 0 .. historySize() - 1} are scrollback lines, oldest first, and
 * {@code historySize() + r} is screen row {@code r}. Columns count cells, so a wide character
 * spans two. A match may start on one line and end on a later one when the text wrapped.
 *
 * @param line line of the first matched cell
 * @param col column of the first matched cell
 * @param endLine line of the last matched cell
 * @param endCol column just past the last matched cell (exclusive)
 */
public record Match(int line, int col, int endLine, int endCol) {
}

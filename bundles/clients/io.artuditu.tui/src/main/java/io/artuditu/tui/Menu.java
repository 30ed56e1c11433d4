package io.artuditu.tui;

import io.artuditu.tui.ModuleUi.Entry;
import io.artuditu.tui.ModuleUi.Invoke;
import java.util.List;

/**
 * A dock row's right-click menu: a framed box next to where it was opened, one entry a
 * line (a divider as a rule, a destructive entry in the error colour), the selected one
 * highlighted. Up and Down move over the entries, Enter runs one, Escape closes; a click on
 * an entry runs it, anywhere else closes the menu. UI thread only.
 */
final class Menu {
    enum Result { STAY, CLOSE, RUN }

    final String owner;
    final List<Entry> entries;
    final String rowValue;
    private final int anchorX;
    private final int anchorY;
    int selected;
    /** Where the last paint put it: the box, and the first entry shown. */
    int x;
    int y;
    int w;
    int h;
    private int first;

    Menu(String owner, List<Entry> entries, String rowValue, int anchorX, int anchorY) {
        this.owner = owner;
        this.entries = entries;
        this.rowValue = rowValue;
        this.anchorX = anchorX;
        this.anchorY = anchorY;
        selected = next(-1, 1);
    }

    /** The next selectable entry from {@code i} in direction {@code dir}, wrapping; -1 when none is. */
    private int next(int i, int dir) {
        int n = entries.size();
        for (int k = 1; k <= n; k++) {
            int j = Math.floorMod(i + dir * k, n);
            if (!entries.get(j).divider()) {
                return j;
            }
        }
        return -1;
    }

    Result key(Input.Key k) {
        switch (k.name()) {
            case "up" -> selected = next(selected, -1);
            case "down", "tab" -> selected = next(selected, 1);
            case "enter" -> {
                return selected >= 0 ? Result.RUN : Result.CLOSE;
            }
            case "esc" -> {
                return Result.CLOSE;
            }
            default -> {
                if (k.isChar("q") || k.ctrl() && "c".equals(k.ch())) {
                    return Result.CLOSE;
                }
            }
        }
        return Result.STAY;
    }

    boolean contains(int px, int py) {
        return px >= x && py >= y && px < x + w && py < y + h;
    }

    /** The entry at (px, py), or -1 (a divider, the frame, outside). */
    int entryAt(int px, int py) {
        if (!contains(px, py) || px == x || px == x + w - 1) {
            return -1;
        }
        int i = first + py - y - 1;
        return py > y && py < y + h - 1 && i < entries.size() && !entries.get(i).divider() ? i : -1;
    }

    /** What running entry {@code i} asks for: its action, with its own value or else the row's. */
    Invoke invoke(int i) {
        Entry e = entries.get(i);
        return Invoke.row(owner, e.action(), e.value() != null ? e.value() : rowValue);
    }

    void paint(Canvas c, Theme theme) {
        int inner = 0;
        for (Entry e : entries) {
            inner = Math.max(inner, Canvas.width(e.title()));
        }
        w = Math.min(c.cols, Math.max(8, inner + 4));
        h = Math.min(Math.max(3, c.rows - 2), entries.size() + 2);
        int visible = h - 2;
        x = anchorX + 1 + w <= c.cols ? anchorX + 1 : Math.max(0, anchorX - w);
        y = anchorY + h <= c.rows - 1 ? anchorY : Math.max(0, c.rows - 1 - h);
        if (selected >= 0) {
            first = Math.max(0, Math.min(first, selected));
            first = Math.max(first, selected - visible + 1);
        }
        String rule = "─".repeat(Math.max(0, w - 2));
        c.text(x, y, "┌" + rule + "┐", theme.menuBox, w);
        c.text(x, y + h - 1, "└" + rule + "┘", theme.menuBox, w);
        for (int r = 0; r < visible; r++) {
            int i = first + r;
            int ry = y + 1 + r;
            if (i >= entries.size()) {
                break;
            }
            Entry e = entries.get(i);
            if (e.divider()) {
                c.text(x, ry, "├" + rule + "┤", theme.menuBox, w);
                continue;
            }
            long st = i == selected ? (e.destructive() ? theme.menuSelectedDestructive : theme.menuSelected)
                    : e.destructive() ? theme.menuDestructive : theme.menuItem;
            c.put(x, ry, "│", 1, theme.menuBox);
            c.fill(x + 1, ry, w - 2, 1, Canvas.BLANK, st);
            c.text(x + 2, ry, Canvas.clip(e.title(), w - 4), st, w - 4);
            c.put(x + w - 1, ry, "│", 1, theme.menuBox);
        }
    }
}

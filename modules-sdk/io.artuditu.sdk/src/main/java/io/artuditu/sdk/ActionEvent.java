package io.artuditu.sdk;

/**
 * What started an action: the same values a script action finds in its environment.
 *
 * @param actionId   the action id ({@code ARTUDITU_MODULE_ACTION_ID})
 * @param rowValue   the clicked dock row's or menu entry's value, or null ({@code ARTUDITU_MODULE_ROW_VALUE})
 * @param barId      the clicked widget, or null ({@code ARTUDITU_MODULE_BAR_ID})
 * @param barSegment the clicked segment's index in the widget's content, or -1 ({@code ARTUDITU_MODULE_BAR_SEGMENT})
 * @param barValue   the clicked segment's value, or null ({@code ARTUDITU_MODULE_BAR_VALUE})
 */
public record ActionEvent(String actionId, String rowValue, String barId, int barSegment, String barValue) {
}

package io.artuditu.uhp.platform;

/**
 * A method claimed by two families: the one that answers and the one set aside.
 *
 * @param method       the contested method name
 * @param winnerBundle bundle whose family answers
 * @param loserBundle  bundle whose claim is ignored while the winner is present
 */
public record ClaimConflict(String method, String winnerBundle, String loserBundle) {
}

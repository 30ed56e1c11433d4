package io.artuditu.terminal.internal.pane;

/**
 * A wake-up a screen watcher hands to a waiting request thread: {@link #signal} never blocks
 * (it runs on the notifier thread), {@link #await} returns early when signalled since the
 * last await. The waiter re-reads the screen after every wake-up, so a lost or spurious one
 * costs nothing.
 */
final class Signal implements Runnable {
    private boolean raised;

    @Override
    public synchronized void run() {
        raised = true;
        notifyAll();
    }

    /** Waits until signalled or {@code millis} passed; clears the signal. */
    synchronized void await(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (!raised) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        raised = false;
    }
}

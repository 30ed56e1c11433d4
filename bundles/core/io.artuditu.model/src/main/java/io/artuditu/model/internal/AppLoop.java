package io.artuditu.model.internal;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one writer thread of the model ({@code app-loop}). Changes are queued (at most
 * {@value #QUEUE} waiting; past that a caller is refused rather than queued without bound)
 * and run one at a time; the caller waits for the result.
 */
final class AppLoop implements AutoCloseable {
    static final int QUEUE = 1024;
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE), r -> {
                Thread t = new Thread(r, "app-loop");
                t.setDaemon(true);
                return t;
            });
    private volatile Thread thread;

    <T> T call(Callable<T> change) throws Exception {
        if (Thread.currentThread() == thread) {
            return change.call(); // already on the loop (a change that triggers another)
        }
        Future<T> f;
        try {
            f = executor.submit(() -> {
                thread = Thread.currentThread();
                return change.call();
            });
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the model is busy (" + QUEUE + " changes waiting) or stopped", e);
        }
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }

    /** Runs a change later, without waiting (used from PTY threads). */
    void post(Runnable change) {
        try {
            executor.execute(() -> {
                thread = Thread.currentThread();
                change.run();
            });
        } catch (RejectedExecutionException e) {
            System.getLogger(AppLoop.class.getName()).log(System.Logger.Level.WARNING, "app loop refused a change", e);
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

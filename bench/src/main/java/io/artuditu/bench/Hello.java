package io.artuditu.bench;

/** The baseline for whole-process timings: a JVM that starts, prints one line and exits. */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        System.out.println("hello");
    }
}

package io.artuditu.pty.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The one libc call the JDK does not offer: kill(2) with any signal. */
interface LibC extends Library {
    int kill(int pid, int signal);

    /** Loaded on first use, after {@link NativeLibs#install} has pointed JNA at its folder. */
    final class Holder {
        static final LibC INSTANCE = Native.load("c", LibC.class);

        private Holder() {
        }
    }
}

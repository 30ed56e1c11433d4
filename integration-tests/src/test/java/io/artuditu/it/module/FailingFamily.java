package io.artuditu.it.module;

import io.artuditu.uhp.api.UhpFamily;
import io.artuditu.uhp.api.UhpMethod;
import java.util.List;

/** A module family that cannot even be built: its component fails to activate. Packed by {@code TestModule}. */
public final class FailingFamily implements UhpFamily {
    public FailingFamily() {
        throw new IllegalStateException("deliberately broken: no backend");
    }

    @Override
    public String family() {
        return "it.failing";
    }

    @Override
    public List<UhpMethod> methods() {
        return List.of();
    }
}

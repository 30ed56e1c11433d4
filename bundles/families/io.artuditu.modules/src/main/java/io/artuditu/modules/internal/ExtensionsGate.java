package io.artuditu.modules.internal;

import io.artuditu.uhp.api.UhpFamily;
import java.util.Collection;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.hooks.service.EventListenerHook;
import org.osgi.framework.hooks.service.FindHook;
import org.osgi.framework.hooks.service.ListenerHook.ListenerInfo;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * A module adds UHP methods only with the {@code extensions} scope: a {@link UhpFamily}
 * registered by a module bundle whose manifest does not hold it is hidden from every other
 * bundle (the dispatcher never sees it), and the module lists why in {@code problems}.
 * Framework service hooks, so nothing about the dispatcher changes; they answer from a map
 * the module manager keeps, without taking its lock.
 */
@Component(service = {EventListenerHook.class, FindHook.class})
public final class ExtensionsGate implements EventListenerHook, FindHook {
    private final Modules modules;

    @Activate
    public ExtensionsGate(@Reference Modules modules) {
        this.modules = modules;
    }

    private boolean hidden(ServiceReference<?> ref, Bundle asking) {
        Bundle owner = ref.getBundle();
        if (owner == null || asking == null || asking.getBundleId() == owner.getBundleId() || asking.getBundleId() == 0) {
            return false;
        }
        Object classes = ref.getProperty("objectClass");
        if (!(classes instanceof String[] names) || !java.util.Arrays.asList(names).contains(UhpFamily.class.getName())) {
            return false;
        }
        return modules.familyRefused(owner.getBundleId());
    }

    @Override
    public void event(ServiceEvent event, Map<BundleContext, Collection<ListenerInfo>> listeners) {
        ServiceReference<?> ref = event.getServiceReference();
        listeners.keySet().removeIf(ctx -> hidden(ref, ctx.getBundle()));
    }

    @Override
    public void find(BundleContext context, String name, String filter, boolean allServices,
            Collection<ServiceReference<?>> references) {
        references.removeIf(ref -> hidden(ref, context.getBundle()));
    }
}

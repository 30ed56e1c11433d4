package io.artuditu.uhp.api;

import io.artuditu.uhp.api.schema.FamilyContract;
import java.util.List;

/**
 * A method family: the whiteboard service a bundle registers to add methods. The
 * dispatcher reads {@link #methods()} and {@link #problems()} once when the service
 * appears and forgets them when it goes away, so a family's route table is fixed for its
 * service's lifetime.
 *
 * <p>A family normally reads its contract from a file in its own bundle and binds its
 * handlers to it in one place, then only says which contract it is:
 * <pre>
 * private final FamilyContract contract = FamilyContract.load(EchoFamily.class, "protocol/example.echo.json")
 *         .route("example.echo", this::echo)
 *         .bind();
 *
 * public FamilyContract contract() { return contract; }
 * </pre>
 * {@link #family()}, {@link #methods()} and {@link #problems()} then come from it.
 *
 * <p>When two families claim one method name, the service with the higher
 * {@code service.ranking} wins, then the one registered first (lower
 * {@code service.id}); the loser is listed under {@code conflicts} in
 * {@code uhp.capabilities} and logged. When the winner goes away the loser takes over.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface UhpFamily {
    /**
     * The family name, as in the spec's table ({@code discovery}, {@code pane}, …). The
     * default is the name the {@linkplain #contract() contract} file declares.
     *
     * @throws IllegalStateException by default when the family has no contract
     */
    default String family() {
        FamilyContract c = contract();
        if (c == null) {
            throw new IllegalStateException(getClass().getName() + " has no contract and does not name its family");
        }
        return c.family();
    }

    /**
     * The route table: one entry per method. The default is the {@linkplain #contract()
     * bound contract}'s {@link FamilyContract#routes() routes}, empty without a contract.
     */
    default List<UhpMethod> methods() {
        FamilyContract c = contract();
        return c == null ? List.of() : c.routes();
    }

    /**
     * The family's contract, bound to its handlers ({@link FamilyContract#bind()}), or null
     * for a family that builds its {@link UhpMethod}s itself. The dispatcher assembles the
     * installed contract from these.
     */
    default FamilyContract contract() {
        return null;
    }

    /**
     * What the family could not offer and why: contract rows left out, routes without a
     * row, rows without a route. {@code uhp.capabilities} lists them under {@code failures}.
     * The default is the contract's {@link FamilyContract#problems() problems}.
     */
    default List<FamilyContract.Problem> problems() {
        FamilyContract c = contract();
        return c == null ? List.of() : c.problems();
    }
}

/**
 * The UHP contract as data: each family's file ({@link io.artuditu.uhp.api.schema.FamilyContract},
 * read from the bundle that serves the family), the whole contract assembled from them
 * with the envelope ({@link io.artuditu.uhp.api.schema.UhpContract}), and the small
 * validator that checks params and results against their schemas.
 *
 * <p>2.0.0: the contract is no longer one set of files in the API bundle;
 * {@code UhpContract.standard()} is gone ({@code UhpContract.assemble},
 * {@code UhpContract.fromClassPath} and {@code FamilyContract.load} replace it).
 *
 * <p>2.1.0: {@code JsonSchema} also enforces {@code maxProperties} and {@code propertyNames},
 * and names a document's keys bare when validated from an empty root.
 *
 * <p>2.2.0: {@code UhpContract.familiesOnClassPath} gives each family file found on a class
 * path with its bundle (what {@code fromClassPath} assembles, and the CLI's generated files read).
 */
@Export
@Version("2.2.0")
package io.artuditu.uhp.api.schema;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * The UHP contract as data: the JSON Schemas under {@code protocol/uhp/v1} in this
 * bundle, and the small validator that checks params and results against them.
 */
@Export
@Version("1.3.0")
package io.artuditu.uhp.api.schema;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

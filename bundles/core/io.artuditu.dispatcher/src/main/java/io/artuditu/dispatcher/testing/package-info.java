/**
 * A module author's test harness: the server's own dispatcher, without a server, for unit
 * tests of a method family. See {@link io.artuditu.dispatcher.testing.FamilyHarness}.
 */
@Export
@Version("1.0.0")
package io.artuditu.dispatcher.testing;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

package io.artuditu.cli;

import io.artuditu.uhp.api.schema.UhpContract;

/**
 * The installed contract: the envelope with the family files of every bundle jar on the
 * CLI's class path (its manifest's {@code Class-Path} names them; each names its files in
 * an {@code Artuditu-Contract} header). Read on first use only, by {@code --help} and
 * {@code uhp schema}: the one-shot commands map arguments with the generated command index
 * and never parse the contract.
 */
final class Contract {
    private Contract() {
    }

    private static final class Holder {
        static final UhpContract INSTALLED = UhpContract.fromClassPath(Contract.class.getClassLoader());
    }

    static UhpContract installed() {
        return Holder.INSTALLED;
    }
}

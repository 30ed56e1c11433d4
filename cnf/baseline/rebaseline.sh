#!/bin/sh
# cnf/baseline/rebaseline.sh VERSION
# Makes the API bundle as it is built now the baseline that later builds are checked against
# (cnf/README.md, "API baseline"). VERSION names the baseline and must be new: Maven keeps a
# copy of each baseline it has read in ~/.m2, so a rewritten one would not be seen.
set -eu
[ $# -eq 1 ] || { echo "usage: cnf/baseline/rebaseline.sh VERSION   (for example 2.1.0)" >&2; exit 2; }
version=$1
root=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
dir="$root/cnf/baseline/io/artuditu/baseline/io.artuditu.uhp.api/$version"
[ ! -e "$dir" ] || { echo "baseline $version exists already; pick a new version" >&2; exit 2; }
(cd "$root" && mvn -o -q -B package -DskipTests -pl bundles/api/io.artuditu.uhp.api)
jar=$(ls "$root"/bundles/api/io.artuditu.uhp.api/target/io.artuditu.uhp.api-*.jar)
old=$(sed -n 's:.*<artuditu.api.baseline>\(.*\)</artuditu.api.baseline>.*:\1:p' "$root/bundles/api/io.artuditu.uhp.api/pom.xml")
mkdir -p "$dir"
cp "$jar" "$dir/io.artuditu.uhp.api-$version.jar"
sed "s:<version>$old</version>:<version>$version</version>:" \
    "$root/cnf/baseline/io/artuditu/baseline/io.artuditu.uhp.api/$old/io.artuditu.uhp.api-$old.pom" \
    >"$dir/io.artuditu.uhp.api-$version.pom"
sed -i "s:<artuditu.api.baseline>$old</artuditu.api.baseline>:<artuditu.api.baseline>$version</artuditu.api.baseline>:" \
    "$root/bundles/api/io.artuditu.uhp.api/pom.xml"
git -C "$root" rm -q -r "cnf/baseline/io/artuditu/baseline/io.artuditu.uhp.api/$old"
git -C "$root" add "$dir" "$root/bundles/api/io.artuditu.uhp.api/pom.xml"
echo "baseline is now $version (was $old); commit cnf/baseline and bundles/api/io.artuditu.uhp.api/pom.xml"

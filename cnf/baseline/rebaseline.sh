#!/bin/sh
# cnf/baseline/rebaseline.sh BUNDLE-DIR VERSION
# Makes a baselined bundle as it is built now the baseline that later builds are checked
# against (cnf/README.md, "API baseline"). BUNDLE-DIR is the bundle's folder, one of
#   bundles/api/io.artuditu.uhp.api   modules-sdk/io.artuditu.sdk   bundles/core/io.artuditu.model
# VERSION names the baseline and must be new: Maven keeps a copy of each baseline it has read
# in ~/.m2, so a rewritten one would not be seen.
set -eu
[ $# -eq 2 ] || { echo "usage: cnf/baseline/rebaseline.sh BUNDLE-DIR VERSION   (for example bundles/api/io.artuditu.uhp.api 2.1.0)" >&2; exit 2; }
root=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
module=${1%/}
version=$2
bsn=$(basename "$module")
pom="$root/$module/pom.xml"
[ -f "$pom" ] || { echo "no pom at $module/pom.xml" >&2; exit 2; }
# The property that names the baseline, e.g. <artuditu.api.baseline>2.0.0</artuditu.api.baseline>.
prop=$(sed -n 's:.*<\(artuditu\.[a-z]*\.baseline\)>.*:\1:p' "$pom" | head -n 1)
[ -n "$prop" ] || { echo "$module/pom.xml declares no artuditu.*.baseline property: it is not baselined" >&2; exit 2; }
old=$(sed -n "s:.*<$prop>\(.*\)</$prop>.*:\1:p" "$pom")
base="$root/cnf/baseline/io/artuditu/baseline/$bsn"
dir="$base/$version"
[ ! -e "$dir" ] || { echo "baseline $bsn $version exists already; pick a new version" >&2; exit 2; }
(cd "$root" && mvn -o -q -B package -DskipTests -pl "$module" -am)
jar=$(ls "$root/$module"/target/"$bsn"-*.jar | grep -v -e '-sources' -e '-tests' | head -n 1)
mkdir -p "$dir"
cp "$jar" "$dir/$bsn-$version.jar"
sed "s:<version>$old</version>:<version>$version</version>:" "$base/$old/$bsn-$old.pom" >"$dir/$bsn-$version.pom"
sed -i "s:<$prop>$old</$prop>:<$prop>$version</$prop>:" "$pom"
git -C "$root" rm -q -r "cnf/baseline/io/artuditu/baseline/$bsn/$old"
git -C "$root" add "$dir" "$pom"
echo "$bsn baseline is now $version (was $old); commit cnf/baseline and $module/pom.xml"

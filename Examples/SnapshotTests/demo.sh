#!/usr/bin/env bash
# The snapshot-testing workflow on this package, as CI runs it (see docs/snapshot-testing.md):
#   1. the first run records the references and fails, saying that it recorded them;
#   2. the second run compares against them and passes;
#   3. a changed tree (the badge's red made a little darker) fails with the observed
#      difference, and leaves reference, actual and difference images in $SNAPSHOT_ARTIFACTS.
# It works on a copy in a temporary folder without the committed references, so the source
# tree is left as it was; the build folder is this package's own .build, so that later runs
# build only what changed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/Package.swift" "$here/Sources" "$here/Tests" "$work/"
rm -rf "$work/Tests/BadgeTests/__Snapshots__"
sed -i "s|path: \"../..\"|path: \"$repo\"|" "$work/Package.swift"
export SNAPSHOT_ARTIFACTS="$work/artifacts"
run() { swift test --package-path "$work" --scratch-path "$here/.build" >"$work/log" 2>&1; }
fail() { echo "demo: $*" >&2; tail -n 40 "$work/log" >&2; exit 1; }

echo "demo: 1. first run: records the references and fails"
if run; then fail "the first run passed: a recording must fail"; fi
grep -q "no reference was found; recorded one at" "$work/log" || fail "the first run did not say it recorded"
find "$work/Tests/BadgeTests/__Snapshots__" -type f | sed "s|$work/||" | sort

echo "demo: 2. second run: compares and passes"
run || fail "the second run failed"

echo "demo: 3. a changed tree: fails with what it observed, and artifacts"
sed -i 's/red: 0.9, green: 0.1/red: 0.8, green: 0.1/' "$work/Sources/Badge/Badge.swift"
if run; then fail "the changed tree passed"; fi
grep -m 1 "largest channel difference" "$work/log" || fail "the failure does not say what it observed"
for kind in reference actual difference; do
    [[ -f "$SNAPSHOT_ARTIFACTS/BadgeTests/badge.1.$kind.png" ]] || fail "no $kind image in $SNAPSHOT_ARTIFACTS"
done
ls "$SNAPSHOT_ARTIFACTS/BadgeTests" | sort
echo "demo: the workflow behaves"

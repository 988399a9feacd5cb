#!/bin/sh
# Test launcher on the cgroup v2 guest (preset vm-v2 puts it before every test command, and
# tests that start verdict themselves put it before verdict: $VERDICT_LAUNCHER): runs the
# command in a cgroup of its own, as verdict must be run on v2 (a cgroup shared with other
# processes cannot enable controllers for children, and verdict refuses it). The leaf is made
# beneath $VERDICT_TEST_CGROUP, a cgroup without processes whose subtree_control already
# enables memory, pids and cpu (tests/vm/guest.sh prepares it). Leaves are left behind:
# the guest is thrown away after the run.
#
# usage: own-cgroup.sh COMMAND [ARG...]
set -eu
base=${VERDICT_TEST_CGROUP:?"set VERDICT_TEST_CGROUP (tests/vm/guest.sh does)"}
leaf=$base/test-$$
mkdir "$leaf"
echo $$ >"$leaf/cgroup.procs"
exec "$@"

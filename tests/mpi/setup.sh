# Sourced by the MPI test scripts, after `set -euo pipefail`, with GONU NP first in "$@": sets gonu,
# np, a work folder removed on exit, and mpirun (loopback, as root where the tests run as root);
# the rule flags are left in "$@".
gonu=$1 np=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Open MPI's session directory under the work folder: tests run in parallel would otherwise race
# to create the same one under /tmp.
export TMPDIR=$work
mpirun=(mpirun --oversubscribe -np "$np")
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)

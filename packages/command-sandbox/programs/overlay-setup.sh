# The overlay setup where Perl cannot do it (see src/capture/overlay-launch.ts), run by `sh -c`
# under `unshare --user --map-root-user --mount`. Arguments: mount, the lower, upper and work
# folders, the overlay's target, the lower view (empty for none), then the next program's argv.
# Before the overlay covers the workspace, the real workspace is bound at the lower view: git
# folders are bound from there, so git's own state is written to the host, not captured.
# "userxattr" is what an unprivileged overlay needs.
[ -z "$6" ] || "$1" --rbind "$2" "$6" || exit 125; "$1" -t overlay clawsmith-capture -o "lowerdir=$2,upperdir=$3,workdir=$4,userxattr" "$5" || exit 125; shift 6; exec "$@"

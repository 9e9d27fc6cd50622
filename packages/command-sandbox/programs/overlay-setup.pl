# The overlay setup in one process instead of three (unshare, sh, mount); see
# src/capture/overlay-launch.ts. It makes the user and mount namespaces (unshare(2)), maps the
# caller's uid and gid to root in it, makes every mount private (as `unshare --mount` does),
# binds the real workspace at the lower view when one is given, mounts the overlay (mount(2)) and
# becomes bubblewrap. Exit 125 on any failure, like the shell variant.
#
# Arguments: unshare(2)'s and mount(2)'s system call numbers, uid, gid, the lower, upper and work
# folders, the overlay's target, the lower view (empty for none), then the next program's argv.
# Flags: CLONE_NEWUSER 0x10000000, CLONE_NEWNS 0x00020000, MS_REC 0x4000, MS_PRIVATE 0x40000,
# MS_BIND 0x1000.
my ($nr_unshare, $nr_mount, $uid, $gid, $lower, $upper, $work, $target, $view, @next) = @ARGV;
my $fail = sub { print STDERR "$_[0]: $!\n"; exit 125 };
syscall($nr_unshare, 0x10000000 | 0x00020000) == 0 or $fail->("unshare");
for (["/proc/self/setgroups", "deny"], ["/proc/self/uid_map", "0 $uid 1"], ["/proc/self/gid_map", "0 $gid 1"]) {
  open(my $file, ">", $_->[0]) or $fail->($_->[0]);
  print $file $_->[1] or $fail->($_->[0]);
  close($file) or $fail->($_->[0]);
}
my ($none, $root) = ("none", "/");
syscall($nr_mount, $none, $root, 0, 0x4000 | 0x40000, 0) == 0 or $fail->("mount --make-rprivate /");
length($view) == 0 or syscall($nr_mount, $lower, $view, 0, 0x1000 | 0x4000, 0) == 0 or $fail->("mount --rbind");
my ($source, $type, $options) = ("clawsmith-capture", "overlay", "lowerdir=$lower,upperdir=$upper,workdir=$work,userxattr");
syscall($nr_mount, $source, $target, $type, 0, $options) == 0 or $fail->("mount -t overlay");
exec { $next[0] } @next or $fail->("exec $next[0]");

# A network namespace prepared ahead (see src/network/prepared-network-namespace.ts). Started before
# any command asks for it, it makes a user and network namespace of its own with loopback up and
# creates the proxy's listening socket there (127.0.0.1, the proxy port). Then it says "ready" on
# its control socket (descriptor 3) and waits. When a command takes it, the control socket brings
# the relay's socket and the command's token, and the launch (the cgroups to join, working folder,
# the seccomp filter's file, whether stdin is /dev/null, the program, its arguments and its
# environment). It joins the cgroups, hands the listening socket with a pidfd of its own process to
# the relay (programs/network-relay.pl), naming the command by its token, exactly as the bridge
# does from inside a sandbox, and becomes the program (bubblewrap, which then shares this network
# namespace instead of making one). The relay stops when the pidfd says it ended. When nobody takes
# it, it ends with clawsmith without running anything.
#
# Arguments: the argument that marks a launch for this namespace, port, uid, gid, the system call numbers of unshare, prctl, sendmsg and pidfd_open.
# Exit 125 on any failure (once taken, the message goes to the command's output).
#
# It runs after programs/proxy-port-handoff.pl (the listening socket and the handoff). Numbers
# instead of `use Socket` and POSIX: CLONE_NEWUSER 0x10000000,
# CLONE_NEWNET 0x40000000; AF_INET 2, SOCK_DGRAM 2; SIOCGIFFLAGS 0x8913, SIOCSIFFLAGS 0x8914 with a
# struct ifreq of the name (16 bytes) and the flags (a short, 24 bytes in all); IFF_UP 1;
# PR_SET_PDEATHSIG 1 with SIGKILL 9. The launch is a length (8 hex digits) and NUL-separated fields.
my ($only, $port, $uid, $gid, $nr_unshare, $nr_prctl, $nr_sendmsg, $nr_pidfd_open) = @ARGV;
my $fail = sub { print STDERR "clawsmith network namespace: $_[0]: $!\n"; exit 125 };
open(my $control, "+<&", 3) or $fail->("the control socket");
# Descriptors this process inherited (other than 0-2 and the control socket) must not reach the
# command: each is closed through a handle opened on it (no POSIX module: loading it costs more
# than all the rest).
my $close_descriptor = sub { my $handle; open($handle, "<&=", $_[0]) and close($handle) };
opendir(my $descriptors, "/proc/self/fd") or $fail->("listing /proc/self/fd");
for my $fd (grep { /\A\d+\z/ && $_ > 2 } readdir($descriptors)) {
  $close_descriptor->($fd) unless $fd == fileno($control) || $fd == fileno($descriptors);
}
closedir($descriptors);
my $write_file = sub {
  open(my $file, ">", $_[0]) or $fail->("opening $_[0]");
  print $file $_[1] or $fail->("writing $_[0]");
  close($file) or $fail->("writing $_[0]");
};
syscall($nr_unshare, 0x10000000 | 0x40000000) == 0 or $fail->("unshare (user and network namespace)");
$write_file->("/proc/self/uid_map", "$uid $uid 1\n");
$write_file->("/proc/self/setgroups", "deny");
$write_file->("/proc/self/gid_map", "$gid $gid 1\n");
syscall($nr_prctl, 1, 9, 0, 0, 0) == 0 or $fail->("PR_SET_PDEATHSIG");
getppid() == 1 and $fail->("clawsmith ended");
socket(my $interfaces, 2, 2, 0) or $fail->("socket for loopback");
my $request = pack("a16 x8", "lo");
ioctl($interfaces, 0x8913, $request) or $fail->("reading loopback's flags");
my ($flags) = unpack("x16 s", $request);
$request = pack("a16 s x6", "lo", $flags | 1);
ioctl($interfaces, 0x8914, $request) or $fail->("bringing loopback up");
close($interfaces);
my ($listener, $pidfd) = listen_for_proxy($port, $nr_pidfd_open, $fail);
syswrite($control, "ready\n") or $fail->("saying ready");

my $read_exactly = sub {
  my ($length) = @_;
  my $text = "";
  while (length($text) < $length) { sysread($control, $text, $length - length($text), length($text)) or exit 0 }
  return $text;
};
my $length = hex($read_exactly->(8));
my ($path, $token, $joins, @rest) = split(/\0/, $read_exactly->($length), -1);
my @processes_files = splice(@rest, 0, $joins);
my ($cwd, $filter, $stdin, $arguments) = splice(@rest, 0, 4);
my @command = splice(@rest, 0, $arguments);
close($control);
# The launch names bubblewrap's first argument for this namespace (which bubblewrap itself would
# refuse, so the same launch started anywhere else fails): it is taken out here, its first
# occurrence only (before it come only programs and absolute paths).
my ($marker) = grep { $command[$_] eq $only } 0 .. $#command;
defined($marker) or $fail->("the launch is not one for a prepared network namespace");
splice(@command, $marker, 1);
$write_file->($_, "$$\n") for @processes_files;
# The command's connections wait in the listener's backlog until the relay accepts them.
hand_to_relay($path, $token, $listener, $pidfd, $nr_sendmsg, $fail);
close($listener);
$close_descriptor->($pidfd);
if ($stdin eq "null") { open(STDIN, "<", "/dev/null") or $fail->("stdin from /dev/null") }
# The filter on descriptor 3 for bubblewrap, open across exec (F_SETFD 2 with no flags: Perl opens
# its files close-on-exec). Every descriptor above 2 is closed by now, so the file gets 3.
my $program;
if ($filter ne "") {
  open($program, "<", $filter) or $fail->("opening the seccomp filter $filter");
  fileno($program) == 3 or $fail->("the seccomp filter is not on descriptor 3");
  fcntl($program, 2, 0) or $fail->("the seccomp filter on descriptor 3");
}
chdir($cwd) or $fail->("chdir $cwd");
%ENV = ();
for (@rest) { my ($name, $value) = split(/=/, $_, 2); $ENV{$name} = $value }
exec { $command[0] } @command or $fail->("exec $command[0]");

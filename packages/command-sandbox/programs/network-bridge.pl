# The network bridge (see src/network/network-bridge.ts). Inside the sandbox, the command's
# network namespace has only loopback. The bridge creates the proxy's listening socket there
# (127.0.0.1, the proxy port) and hands that socket, with a pidfd of its own process, to the relay
# outside the sandbox (programs/network-relay.pl) through the Unix socket bound into the sandbox,
# naming the command by its token. Then it loads the Unix socket filter on itself and becomes the
# command. Nothing of it stays inside: the relay accepts the command's connections on the handed
# socket from outside, and stops when the pidfd says the command's process ended. The listening
# socket exists before the command starts, so its first connection cannot find the port closed.
#
# Arguments: socket path, the command's token (32 hex digits), port, the system call numbers of
# prctl, sendmsg and pidfd_open, the filter program in hex, the command's LC_ALL ("=" and its
# value, or "-" for none), then the command's argv. Exit 125 on any failure before the command
# runs. Perl reads no code from the environment here: PERL5LIB, PERL5OPT and PERL5DB are
# forbidden names of the command environment.
#
# The sandbox starts it with LC_ALL=C: Perl then loads no locale files, a third of its start-up
# on a loaded machine. The command gets its own LC_ALL back (or none) before it runs.
#
# It runs after programs/proxy-port-handoff.pl (the listening socket and the handoff, and the
# numbers they use instead of `use Socket`). prctl options: PR_SET_SECCOMP 22 (mode 2, a filter),
# PR_SET_NO_NEW_PRIVS 38.
my ($path, $token, $port, $nr_prctl, $nr_sendmsg, $nr_pidfd_open, $filter_hex, $locale, @command) = @ARGV;
my $fail = sub { print STDERR "clawsmith network bridge: $_[0]: $!\n"; exit 125 };
my ($listener, $pidfd) = listen_for_proxy($port, $nr_pidfd_open, $fail);
hand_to_relay($path, $token, $listener, $pidfd, $nr_sendmsg, $fail);
close($listener);
syscall($nr_prctl, 38, 1, 0, 0, 0) == 0 or $fail->("PR_SET_NO_NEW_PRIVS");
my $filter = pack("H*", $filter_hex);
my $program = pack("S x6 P", length($filter) / 8, $filter);
syscall($nr_prctl, 22, 2, $program) == 0 or $fail->("loading the Unix socket filter");
if ($locale eq "-") { delete $ENV{LC_ALL} } else { $ENV{LC_ALL} = substr($locale, 1) }
exec { $command[0] } @command or $fail->("exec $command[0]");

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
# Numbers instead of `use Socket`: loading the module costs more than the whole bridge start.
# AF_UNIX 1, AF_INET 2, SOCK_STREAM 1, SOL_SOCKET 1, SO_REUSEADDR 2, SCM_RIGHTS 1; sockaddr_in is
# family, port (network order), address; sockaddr_un is family and path. A struct msghdr (LP64) is
# name, name length, iovec, iovec count, control, control length, flags; two descriptors' control
# message is CMSG_LEN(8) = CMSG_SPACE(8) = 24 bytes. prctl options: PR_SET_SECCOMP 22 (mode 2, a
# filter), PR_SET_NO_NEW_PRIVS 38. A pidfd is close-on-exec from birth; Perl's own sockets are too.
my ($path, $token, $port, $nr_prctl, $nr_sendmsg, $nr_pidfd_open, $filter_hex, $locale, @command) = @ARGV;
my $fail = sub { print STDERR "clawsmith network bridge: $_[0]: $!\n"; exit 125 };
socket(my $listener, 2, 1, 0) or $fail->("socket");
setsockopt($listener, 1, 2, 1);
bind($listener, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) or $fail->("bind 127.0.0.1:$port");
listen($listener, 128) or $fail->("listen");
my $pidfd = syscall($nr_pidfd_open, $$ + 0, 0);
$pidfd >= 0 or $fail->("pidfd_open (the relay needs Linux 5.3 or later)");
socket(my $relay, 1, 1, 0) or $fail->("socket to the relay");
connect($relay, pack("S a108", 1, $path)) or $fail->("connect to the relay at $path");
my $said = "$token\n";
my $vector = pack("P Q", $said, 33);
my $control = pack("Q i i i i", 24, 1, 1, fileno($listener), $pidfd);
my $message = pack("Q L x4 P Q P Q i x4", 0, 0, $vector, 1, $control, 24, 0);
syscall($nr_sendmsg, fileno($relay), $message, 0) == 33 or $fail->("handing the proxy port to the relay");
close($relay);
close($listener);
syscall($nr_prctl, 38, 1, 0, 0, 0) == 0 or $fail->("PR_SET_NO_NEW_PRIVS");
my $filter = pack("H*", $filter_hex);
my $program = pack("S x6 P", length($filter) / 8, $filter);
syscall($nr_prctl, 22, 2, $program) == 0 or $fail->("loading the Unix socket filter");
if ($locale eq "-") { delete $ENV{LC_ALL} } else { $ENV{LC_ALL} = substr($locale, 1) }
exec { $command[0] } @command or $fail->("exec $command[0]");

# The network bridge (see src/network/network-bridge.ts). Inside the sandbox, the command's
# network namespace has only loopback. The bridge listens on a loopback port there and hands each
# connection it accepts, as a file descriptor (SCM_RIGHTS), to the relay outside the sandbox
# (programs/network-relay.pl) through the Unix socket bound into the sandbox. It copies no byte
# itself: the relay holds the command's connection and the upstream one and splices between them.
# It runs as one Perl process started before the command, and it is the only process that may use
# a Unix socket: after forking it, the same process loads the Unix socket filter on itself and
# becomes the command, so the command cannot reach the relay's socket (or any other) except
# through the bridge's port. The bridge makes itself non-dumpable, so the command (same user, no
# capabilities) can neither ptrace it nor take its descriptors or memory through /proc.
#
# Arguments: socket path, the command's token (32 hex digits, sent to the relay first), port,
# prctl's and sendmsg's system call numbers, the filter program in hex, then the command's argv.
# Exit 125 on any failure before the command runs. Perl reads no code from the environment here:
# PERL5LIB, PERL5OPT and PERL5DB are forbidden names of the command environment.
#
# Numbers instead of `use Socket`: loading the module costs more than the whole bridge start.
# AF_UNIX 1, AF_INET 2, SOCK_STREAM 1, SOL_SOCKET 1, SO_REUSEADDR 2, SCM_RIGHTS 1; sockaddr_in is
# family, port (network order), address; sockaddr_un is family and path. A struct msghdr (LP64) is
# name, name length, iovec, iovec count, control, control length, flags; one descriptor's control
# message is CMSG_LEN(4) = 20 bytes in CMSG_SPACE(4) = 24. prctl options: PR_SET_DUMPABLE 4,
# PR_SET_SECCOMP 22 (mode 2, a filter), PR_SET_NO_NEW_PRIVS 38.
my ($path, $token, $port, $nr_prctl, $nr_sendmsg, $filter_hex, @command) = @ARGV;
my $fail = sub { print STDERR "clawsmith network bridge: $_[0]: $!\n"; exit 125 };
socket(my $listener, 2, 1, 0) or $fail->("socket");
setsockopt($listener, 1, 2, 1);
bind($listener, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) or $fail->("bind 127.0.0.1:$port");
listen($listener, 128) or $fail->("listen");
my $bridge = fork() // $fail->("fork");
if ($bridge == 0) {
  syscall($nr_prctl, 4, 0, 0, 0, 0);
  open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
  my $byte = "c";
  my $vector = pack("P Q", $byte, 1);
  my $relay;
  for (;;) {
    accept(my $client, $listener) or next;
    # The relay listens for as long as any command of its allowlist runs: connecting at the first
    # connection costs a command that never uses the network nothing outside the sandbox.
    if (!$relay) {
      socket($relay, 1, 1, 0) or exit 1;
      connect($relay, pack("S a108", 1, $path)) or exit 1;
      syswrite($relay, "$token\n") == 33 or exit 1;
    }
    my $control = pack("Q i i i x4", 20, 1, 1, fileno($client));
    my $message = pack("Q L x4 P Q P Q i x4", 0, 0, $vector, 1, $control, 24, 0);
    syscall($nr_sendmsg, fileno($relay), $message, 0) == 1 or exit 1;
    close($client);
  }
}
close($listener);
syscall($nr_prctl, 38, 1, 0, 0, 0) == 0 or $fail->("PR_SET_NO_NEW_PRIVS");
my $filter = pack("H*", $filter_hex);
my $program = pack("S x6 P", length($filter) / 8, $filter);
syscall($nr_prctl, 22, 2, $program) == 0 or $fail->("loading the Unix socket filter");
exec { $command[0] } @command or $fail->("exec $command[0]");

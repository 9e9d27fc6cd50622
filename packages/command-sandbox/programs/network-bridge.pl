# The network bridge (see src/network/network-bridge.ts). Inside the sandbox, the command's
# network namespace has only loopback. The bridge listens on a loopback port there and carries
# each connection to the proxy's Unix socket (bound into the sandbox). It runs as one Perl process
# started before the command, and it is the only process that may use a Unix socket: after forking
# it, the same process loads the Unix socket filter on itself and becomes the command, so the
# command cannot reach the proxy's socket (or any other) except through the bridge's port. The
# bridge makes itself non-dumpable, so the command (same user, no capabilities) can neither ptrace
# it nor write its memory through /proc.
#
# Arguments: socket path, port, prctl's system call number, the filter program in hex, then the
# command's argv. Exit 125 on any failure before the command runs. Perl reads no code from the
# environment here: PERL5LIB, PERL5OPT and PERL5DB are forbidden names of the command environment.
#
# Numbers instead of `use Socket`: loading the module costs more than the whole bridge start.
# AF_UNIX 1, AF_INET 2, SOCK_STREAM 1, SOL_SOCKET 1, SO_REUSEADDR 2; sockaddr_in is family,
# port (network order), address; sockaddr_un is family and path. prctl options: PR_SET_DUMPABLE 4,
# PR_SET_SECCOMP 22 (mode 2, a filter), PR_SET_NO_NEW_PRIVS 38.
my ($path, $port, $nr_prctl, $filter_hex, @command) = @ARGV;
my $fail = sub { print STDERR "clawsmith network bridge: $_[0]: $!\n"; exit 125 };
socket(my $listener, 2, 1, 0) or $fail->("socket");
setsockopt($listener, 1, 2, 1);
bind($listener, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) or $fail->("bind 127.0.0.1:$port");
listen($listener, 128) or $fail->("listen");
my $bridge = fork() // $fail->("fork");
if ($bridge == 0) {
  syscall($nr_prctl, 4, 0, 0, 0, 0);
  open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
  $SIG{CHLD} = "IGNORE";
  my $address = pack("S a108", 1, $path);
  for (;;) {
    accept(my $client, $listener) or next;
    my $relay = fork();
    if (!defined $relay || $relay > 0) { close($client); next; }
    close($listener);
    socket(my $upstream, 1, 1, 0) or exit 1;
    connect($upstream, $address) or exit 1;
    my $reverse = fork() // exit 1;
    my ($from, $to) = $reverse ? ($client, $upstream) : ($upstream, $client);
    my $buffer;
    while (my $read = sysread($from, $buffer, 262144)) {
      for (my $done = 0; $done < $read;) { my $wrote = syswrite($to, $buffer, $read - $done, $done) // exit 0; $done += $wrote; }
    }
    shutdown($to, 1);
    exit 0;
  }
}
close($listener);
syscall($nr_prctl, 38, 1, 0, 0, 0) == 0 or $fail->("PR_SET_NO_NEW_PRIVS");
my $filter = pack("H*", $filter_hex);
my $program = pack("S x6 P", length($filter) / 8, $filter);
syscall($nr_prctl, 22, 2, $program) == 0 or $fail->("loading the Unix socket filter");
exec { $command[0] } @command or $fail->("exec $command[0]");

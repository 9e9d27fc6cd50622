# The network relay (see src/network/network-relay.ts): the data path of a command with a network
# allowlist, outside the sandbox. The bridge inside (programs/network-bridge.pl) hands it, once per
# command, the proxy port's listening socket of the command's network namespace and a pidfd of the
# command's process, naming the command by its token (32 hex digits and a newline). The relay
# accepts the command's connections on that socket from outside until the pidfd says the command
# ended. For a CONNECT, or a plain HTTP request with an absolute URL, it asks the proxy (Node, on a
# private socket) for a decision, connects to the one address the proxy checked, and splices bytes
# both ways in the kernel (splice(2) through a pipe: no copy through this process and no per-chunk
# work in Node). Anything else is answered 400. One relay serves every command of one allowlist;
# the token it names in its questions keeps refusals apart, and a command that has ended gets none.
#
# Arguments: the socket to listen on, the proxy's decision socket, then the system call numbers
# of prctl, recvmsg and splice. Prints "ready" once listening. Every process of it
# dies with its parent (PR_SET_PDEATHSIG), and the proxy kills the whole group when it closes.
#
# Numbers instead of `use Socket` (see proxy-port-handoff.pl for the layouts): AF_UNIX 1, AF_INET 2,
# AF_INET6 10, SOCK_STREAM 1; sockaddr_in6 is family, port, flow, address, scope. PR_SET_PDEATHSIG
# 1 with SIGKILL 9; F_SETPIPE_SZ 1031; SPLICE_F_MOVE 1, SPLICE_F_MORE 4.
my ($listen_path, $decision_path, $nr_prctl, $nr_recvmsg, $nr_splice) = @ARGV;
my $fail = sub { print STDERR "clawsmith network relay: $_[0]: $!\n"; exit 125 };
my $orphan_guard = sub { syscall($nr_prctl, 1, 9, 0, 0, 0) };
# When clawsmith ends without stopping the proxy (killed, or its thread ended), the relay gets
# SIGTERM, removes the proxy's folder and ends its whole group.
(my $folder = $decision_path) =~ s{/[^/]*\z}{};
$SIG{TERM} = sub {
  unlink($listen_path, $decision_path);
  rmdir("$folder/sandbox");
  rmdir($folder);
  kill(9, -$$);
  exit 0;
};
syscall($nr_prctl, 1, 15, 0, 0, 0);
socket(my $listener, 1, 1, 0) or $fail->("socket");
bind($listener, pack("S a108", 1, $listen_path)) or $fail->("bind $listen_path");
listen($listener, 16) or $fail->("listen");
$| = 1;
print "ready\n";
open(STDOUT, ">", "/dev/null");
$SIG{CHLD} = "IGNORE";

my $unix = sub {
  socket(my $socket, 1, 1, 0) or return;
  connect($socket, pack("S a108", 1, $_[0])) or return;
  return $socket;
};
my $write_all = sub {
  my ($to, $text) = @_;
  for (my $done = 0; $done < length($text);) {
    my $wrote = syswrite($to, $text, length($text) - $done, $done) // return 0;
    $done += $wrote;
  }
  return 1;
};
# One direction, in the kernel: socket to pipe to socket, then half-close the writing side. Into
# the socket without SPLICE_F_MORE: with it the kernel holds a last short segment back (as
# TCP_CORK does, up to 200 ms), which a tunnel that stays open paid at the end of every request
# and response (a 1 KB CONNECT request took 450 ms, 50 ms without); the kernel sets MSG_MORE
# itself while the pipe holds more. The pipe holds 256 KiB: pipe pages count against the user's
# quota (pipe-user-pages-soft, 64 MiB), past which every new pipe of the user's programs gets two
# pages, so many connections stay well under.
my $splice = sub {
  my ($from, $to) = @_;
  pipe(my $out, my $in) or return;
  fcntl($in, 1031, 1 << 18);
  my ($from_fd, $to_fd, $out_fd, $in_fd) = (fileno($from), fileno($to), fileno($out), fileno($in));
  for (;;) {
    my $moved = syscall($nr_splice, $from_fd, 0, $in_fd, 0, 1 << 18, 5);
    last if $moved <= 0;
    while ($moved > 0) {
      my $sent = syscall($nr_splice, $out_fd, 0, $to_fd, 0, $moved, 1);
      return if $sent <= 0;
      $moved -= $sent;
    }
  }
  shutdown($to, 1);
};
my $both_ways = sub {
  my ($client, $upstream) = @_;
  my $reverse = fork() // exit 1;
  if ($reverse == 0) { $orphan_guard->(); $splice->($upstream, $client); exit 0; }
  $splice->($client, $upstream);
  exit 0;
};
my $answer_of = sub {
  my ($socket) = @_;
  my $answer = "";
  while (sysread($socket, $answer, 65536, length($answer))) { last if length($answer) > 65536 }
  return $answer;
};

# Asks the proxy about host:port; returns the checked address's family, bytes and port, or
# forwards the proxy's refusal to the client and ends.
my $token = "";
my $decide = sub {
  my ($client, $authority) = @_;
  my $decision = $unix->($decision_path) // exit 1;
  $write_all->($decision, "CONNECT $authority HTTP/1.1\r\nHost: $authority\r\nx-clawsmith-command: $token\r\n\r\n") or exit 1;
  my $answer = $answer_of->($decision);
  my @checked = $answer =~ /\AHTTP\/1\.1 204 .*\r\nx-clawsmith-address: ([46]) ([0-9a-f]+) (\d+)\r\n/s;
  if (!@checked) { $write_all->($client, $answer); exit 0; }
  return @checked;
};
my $connect_checked = sub {
  my ($client, $authority, $family, $address, $port) = @_;
  my $target = $family == 4
    ? pack("S n a4 x8", 2, $port, pack("H8", $address))
    : pack("S n N a16 N", 10, $port, 0, pack("H32", $address), 0);
  my $upstream;
  socket($upstream, ($family == 4 ? 2 : 10), 1, 0) or exit 1;
  return $upstream if connect($upstream, $target);
  $write_all->($client, "HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\nThe proxy could not connect to $authority: $!\n");
  exit 0;
};

# One connection of the command: its request head decides the way.
my $serve = sub {
  my ($client) = @_;
  my $head = "";
  while (index($head, "\r\n\r\n") < 0) {
    exit 0 if length($head) > 65536;
    sysread($client, $head, 65536, length($head)) or exit 0;
  }
  my $end = index($head, "\r\n\r\n") + 4;
  my $leftover = substr($head, $end);
  if ($head =~ /\ACONNECT ([^\s]+) HTTP\/1\.[01]\r\n/) {
    my $authority = $1;
    my $upstream = $connect_checked->($client, $authority, $decide->($client, $authority));
    $write_all->($client, "HTTP/1.1 200 Connection Established\r\n\r\n") or exit 0;
    $write_all->($upstream, $leftover) or exit 0;
    $both_ways->($client, $upstream);
  }
  # Plain HTTP with an absolute URL: the request goes to the checked address in origin form, with
  # "Connection: close", so the client opens a new connection (and gets a new decision) for its
  # next request. Bytes a client sends after that on this connection reach the same checked
  # address and no other.
  if ($head =~ /\A([A-Z]+) http:\/\/(?:[^\/?#\s@]*@)?([^\/?#\s]+)([^\s]*) (HTTP\/1\.[01])\r\n/) {
    my ($method, $authority, $target, $version) = ($1, $2, $3, $4);
    $authority .= ":80" unless $authority =~ /:\d+\z/;
    $target = "/$target" unless $target =~ /\A\//;
    my $upstream = $connect_checked->($client, $authority, $decide->($client, $authority));
    my @lines = grep { !/\A(?:proxy-connection|proxy-authorization|connection|keep-alive)\s*:/i }
      split(/\r\n/, substr($head, 0, $end - 4));
    shift(@lines);
    my $request = join("\r\n", "$method $target $version", @lines, "Connection: close", "", "");
    $write_all->($upstream, $request . $leftover) or exit 0;
    $both_ways->($client, $upstream);
  }
  $write_all->($client, "HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nThis proxy takes CONNECT host:port, and plain HTTP requests with an absolute http:// URL.\n");
  exit 0;
};

# Reads the bridge's one message: the token, the listening socket and the pidfd, or ends.
my $handed = sub {
  my ($bridge) = @_;
  my ($said, $control) = ("\0" x 33, "\0" x 24);
  my $vector = pack("P Q", $said, 33);
  my $message = pack("Q L x4 P Q P Q i x4", 0, 0, $vector, 1, $control, 24, 0);
  my $got = syscall($nr_recvmsg, fileno($bridge), $message, 0);
  exit 0 if $got <= 0;
  my ($length, $level, $type, $listening, $pidfd) = unpack("Q i i i i", $control);
  exit 0 unless $length == 24 && $level == 1 && $type == 1;
  $token = substr($said, 0, $got);
  while (length($token) < 33) { sysread($bridge, $token, 33 - length($token), length($token)) or exit 0 }
  exit 0 unless $token =~ s/\A([0-9a-f]{32})\n\z/$1/;
  open(my $listener, "+<&=", $listening) or exit 0;
  open(my $process, "<&=", $pidfd) or exit 0;
  return ($listener, $process);
};

for (;;) {
  accept(my $bridge, $listener) or next;
  my $receiver = fork() // next;
  if ($receiver > 0) { close($bridge); next; }
  $SIG{TERM} = "DEFAULT";
  $orphan_guard->();
  close($listener);
  my ($port, $command) = $handed->($bridge);
  close($bridge);
  my $watched = "";
  vec($watched, fileno($port), 1) = 1;
  vec($watched, fileno($command), 1) = 1;
  for (;;) {
    my $ready = $watched;
    next if select($ready, undef, undef, undef) <= 0;
    # The command's process ended: the sandbox is gone with it (its PID 1 ends with it).
    exit 0 if vec($ready, fileno($command), 1);
    accept(my $client, $port) or next;
    my $connection = fork();
    if (!defined $connection || $connection > 0) { close($client); next; }
    $orphan_guard->();
    close($port);
    close($command);
    $serve->($client);
    exit 0;
  }
}

# The proxy's port and its handoff to the relay, shared by the bridge (network-bridge.pl) and the
# prepared network namespace (network-namespace.pl): each runs with this text before its own.
#
# Numbers instead of `use Socket`: loading the module costs more than the whole bridge start.
# AF_UNIX 1, AF_INET 2, SOCK_STREAM 1, SOL_SOCKET 1, SO_REUSEADDR 2, SCM_RIGHTS 1; sockaddr_in is
# family, port (network order), address; sockaddr_un is family and path. A struct msghdr (LP64) is
# name, name length, iovec, iovec count, control, control length, flags; two descriptors' control
# message is CMSG_LEN(8) = CMSG_SPACE(8) = 24 bytes. A pidfd is close-on-exec from birth; Perl's
# own sockets are too.

# The proxy's listening socket on 127.0.0.1:$port in this network namespace, and a pidfd of this
# process, by which the relay learns when the command ended. $fail reports and exits.
sub listen_for_proxy {
  my ($port, $nr_pidfd_open, $fail) = @_;
  socket(my $listener, 2, 1, 0) or $fail->("socket");
  setsockopt($listener, 1, 2, 1);
  bind($listener, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) or $fail->("bind 127.0.0.1:$port");
  listen($listener, 128) or $fail->("listen");
  my $pidfd = syscall($nr_pidfd_open, $$ + 0, 0);
  $pidfd >= 0 or $fail->("pidfd_open (the relay needs Linux 5.3 or later)");
  return ($listener, $pidfd);
}

# Hands the listening socket and the pidfd to the relay (programs/network-relay.pl) at the Unix
# socket $path, naming the command by its token (32 hex digits, then a newline: 33 bytes).
sub hand_to_relay {
  my ($path, $token, $listener, $pidfd, $nr_sendmsg, $fail) = @_;
  socket(my $relay, 1, 1, 0) or $fail->("socket to the relay");
  connect($relay, pack("S a108", 1, $path)) or $fail->("connect to the relay at $path");
  my $said = "$token\n";
  my $vector = pack("P Q", $said, 33);
  my $control = pack("Q i i i i", 24, 1, 1, fileno($listener), $pidfd);
  my $message = pack("Q L x4 P Q P Q i x4", 0, 0, $vector, 1, $control, 24, 0);
  syscall($nr_sendmsg, fileno($relay), $message, 0) == 33 or $fail->("handing the proxy port to the relay");
  close($relay);
}

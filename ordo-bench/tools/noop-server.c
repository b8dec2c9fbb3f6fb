/* A server that does no work, for measuring the load generator: it answers each RESP request
   (counted by its leading '*'; the benchmark's keys hold none) with one fixed bulk reply, in a
   Redis-style epoll loop (read every ready socket, then write every reply). Whatever rate
   redis-benchmark reaches against it is the most any server can reach on the same machine.
   Build and run:  gcc -O2 -o /tmp/noop-server ordo-bench/tools/noop-server.c && /tmp/noop-server 7401
   then e.g.:      redis-benchmark -p 7401 -c 50 -n 300000 -P 1 -r 1000000 --csv zscore bench m:__rand_int__ */
#include <sys/epoll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define MAXFD 4096
static char out[MAXFD][4096]; static int outlen[MAXFD];
int main(int argc, char **argv) {
  int port = atoi(argv[1]);
  const char *rep = "$6\r\n123456\r\n"; int rl = strlen(rep);
  int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(port); a.sin_addr.s_addr = htonl(0x7f000001);
  if (bind(ls, (void *)&a, sizeof a) || listen(ls, 511)) { perror("bind"); return 1; }
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = ls}; epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
  struct epoll_event evs[1024]; int pend[MAXFD], np = 0; char buf[65536];
  for (;;) {
    int n = epoll_wait(ep, evs, 1024, -1);
    for (int i = 0; i < n; i++) {
      int fd = evs[i].data.fd;
      if (fd == ls) { int c = accept(ls, 0, 0); if (c >= 0 && c < MAXFD) { setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          fcntl(c, F_SETFL, O_NONBLOCK); struct epoll_event e = {.events = EPOLLIN, .data.fd = c}; epoll_ctl(ep, EPOLL_CTL_ADD, c, &e); } continue; }
      ssize_t r = read(fd, buf, sizeof buf);
      if (r <= 0) { epoll_ctl(ep, EPOLL_CTL_DEL, fd, 0); close(fd); outlen[fd] = 0; continue; }
      int k = 0; for (ssize_t j = 0; j < r; j++) if (buf[j] == '*') k++;
      if (!outlen[fd] && k) pend[np++] = fd;
      for (int j = 0; j < k && outlen[fd] + rl < 4096; j++) { memcpy(out[fd] + outlen[fd], rep, rl); outlen[fd] += rl; }
    }
    for (int i = 0; i < np; i++) { int fd = pend[i]; if (outlen[fd]) { if (write(fd, out[fd], outlen[fd]) < 0) {} outlen[fd] = 0; } }
    np = 0;
  }
}

/*
 * A library that says when it is loaded: its constructor, which runs as dlopen() maps it (before
 * OpenSSL even looks for an engine's bind_engine), appends "loaded by uid <uid> pid <pid>" to
 * MARKER, a path given when it is compiled:
 *
 *   gcc -shared -fPIC -DMARKER='"/tmp/x/marker"' -o canary.so canary-library.c
 *
 * What nginx-module-check.test.ts plants in a release's nginx configuration as an OpenSSL engine
 * ("engine:/path/canary.so:key"): the marker is then proof that nginx ran code of the release's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void canary(void) {
  char line[96];
  int length = snprintf(line, sizeof line, "loaded by uid %u pid %ld\n", (unsigned)getuid(), (long)getpid());
  int fd = open(MARKER, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || length <= 0) return;
  if (write(fd, line, (size_t)length) < 0) perror("canary");
  close(fd);
}

/*
 * Emulates a slow disk for appendThroughput.ts: every fsync/fdatasync of the process sleeps
 * SLOW_FSYNC_US microseconds (default 5000) before syncing. node:sqlite reaches both through libc.
 *
 *   gcc -shared -fPIC -O2 -o /tmp/slowfsync.so packages/eventstore-sqlite/bench/slowfsync.c -ldl
 *   SLOW_FSYNC_US=5000 LD_PRELOAD=/tmp/slowfsync.so node packages/eventstore-sqlite/bench/appendThroughput.ts
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static void slow(void) {
  const char *us = getenv("SLOW_FSYNC_US");
  usleep(us ? atoi(us) : 5000);
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  slow();
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  slow();
  return real(fd);
}

/* Timing helpers shared by the bench programs. */
#include "clock.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_time_process(char **argv) {
  double cpu;
  return bench_time_process_cpu(argv, &cpu);
}

double bench_time_process_cpu(char **argv, double *cpu) {
  long faults;
  return bench_time_process_faults(argv, cpu, &faults);
}

pid_t bench_spawn_quiet(char **argv) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc ? -1 : pid;
}

double bench_time_process_faults(char **argv, double *cpu, long *faults) {
  double t0 = bench_now();
  pid_t pid = bench_spawn_quiet(argv);
  int status = 0;
  struct rusage ru;
  if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
    return -1;
  double wall = bench_now() - t0;
  *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  *faults = ru.ru_minflt;
  return wall;
}

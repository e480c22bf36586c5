/* Timing helpers shared by the bench programs (never used by tests: speed is measured here). */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

/* Monotonic wall-clock time in seconds. */
double bench_now(void);
#include <sys/types.h>

/* Starts the program argv[0] with argv, standard output discarded, without waiting: its pid,
 * or -1 when it could not start. */
pid_t bench_spawn_quiet(char **argv);
/* Wall time of one run of the program argv[0] with argv (standard output discarded), or -1
 * when it could not start or exited non-zero. */
double bench_time_process(char **argv);
/* The same, also the child's CPU time (user + system, from wait4) in *cpu: on a loaded
 * machine the wall time mostly measures the other processes. */
double bench_time_process_cpu(char **argv, double *cpu);
/* The same, also the child's minor page faults (wait4's ru_minflt) in *faults: on the
 * paravirtualized machines we measure on, each costs ~17 us, so they are reported beside
 * the times. */
double bench_time_process_faults(char **argv, double *cpu, long *faults);

#endif

/* delay(expr, delayTime) and delay(expr, delayTime, delayMax) (Modelica 3.7.2.3): the value
 * of expr delayTime seconds ago, and the value expr had at the start time while
 * time < start + delayTime.
 *
 * Each delay() of the model (one per flat expression node, shared by every program that
 * contains it) owns a history of (t, value) samples. The compiled model records a sample of
 * every history after each evaluation that the integrator may keep: derivatives() (the last
 * call at a time is the Newton iterate the step accepts), the start values, and the passes
 * of an event (the left limit, then the value after the event, so a step of expr is delayed
 * as a step). outputs() and indicators() evaluate at times inside the last step and only
 * read. A sample at a time earlier than the newest one means the integrator went back (a
 * rejected step, a restart at an event inside the last step): the newer samples are dropped.
 * Samples older than start + delayMax (delayTime without delayMax) that interpolation can no
 * longer need are discarded, so a history holds about delayMax / step samples.
 * OP_DELAY interpolates linearly between the samples around time - delayTime. */
#ifndef ST_EXEC_DELAY_H
#define ST_EXEC_DELAY_H

#include "exec/bytecode.h"

typedef struct st_delays st_delays;

st_delays *st_delays_new(void); /* NULL when out of memory */
void st_delays_free(st_delays *d); /* safe on NULL */
/* Histories of the same delay() nodes without samples, sharing d's programs (an instance of
 * a compiled program; d must outlive it). NULL for NULL d or when out of memory. */
st_delays *st_delays_clone(const st_delays *d);

/* The history of the delay() node `key`, created on first use: its index, or -1 (memory).
 * *created is set when it is new: the caller then emits expr into *arg and the parameter
 * bound (delayMax, or delayTime) into *bound, the programs that recording evaluates. */
int st_delays_line(st_delays *d, const void *key, int *created, st_prog **arg, st_prog **bound);

/* Forgets all samples (a new run starts). */
void st_delays_reset(st_delays *d);

/* Records (vm->time, expr) in every history, marked as an event sample in event mode.
 * 0, or -1 when out of memory. */
int st_delays_record(st_delays *d, st_vm *vm);

/* The value of delay(expr, delay, dmax) at time t for history k; value is expr now, returned
 * (with *current = 1) when nothing is recorded yet (initialization) or delay is 0. NaN unless
 * 0 <= delay <= dmax. At a delayed event instant: the value before it, or after it when
 * `right` (in its event passes and once they ran). */
double st_delay_value(const st_delays *d, int k, double t, double value, double delay,
                      double dmax, int right, int *current);

/* delay(expr, delayTime) with a parameter delayTime (not the 3-argument form, whose delay
 * varies): a change of expr at an event reaches the delay's value delayTime later as an
 * event of its own, scheduled by st_delays_next_event. */
void st_delays_set_fixed(st_delays *d, int k);
/* The earliest such arrival later than t (INFINITY: none). */
double st_delays_next_event(const st_delays *d, st_vm *vm, double t);
/* Whether one arrives at t (within rounding). */
int st_delays_event_at(const st_delays *d, st_vm *vm, double t);

#endif

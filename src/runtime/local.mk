# runtime module: the simulation handle on CVODE/IDA (include/stiction/simulate.h).
libstiction_core_la_SOURCES += \
	src/runtime/runtime.h src/runtime/sundials_compat.h \
	src/runtime/options.c src/runtime/validate.c src/runtime/sim.c \
	src/runtime/callbacks.c src/runtime/linsol.c src/runtime/nvector_ops.c src/runtime/dense_ops.c src/runtime/jacfd.c src/runtime/cvode.c src/runtime/ida.c \
	src/runtime/output.c src/runtime/event_iteration.c src/runtime/run.c src/runtime/sampling.c \
	src/runtime/progress.c src/runtime/stats.c

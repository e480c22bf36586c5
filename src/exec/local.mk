# exec module: running one instance of a compiled program (the bytecode machine, blocks and
# Newton, specialization and tapes, initialization, event passes, the model callbacks)
libstiction_core_la_SOURCES += \
	src/exec/bytecode.c src/exec/bytecode.h \
	src/exec/solve.c src/exec/minnorm.c src/exec/sparse_block.c src/exec/sparse_block.h \
	src/exec/event_pass.c src/exec/init.c src/exec/model.c src/exec/dynset.c src/exec/runerror.c src/exec/dae.c \
	src/exec/specialize.c src/exec/tape.c src/exec/partial.c src/exec/delay.c src/exec/delay.h

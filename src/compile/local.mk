# compile module: the equation compiler (flat model -> program; execution is src/exec)
libstiction_core_la_SOURCES += \
	src/compile/compile.h src/compile/model_impl.h \
	src/compile/peephole.c \
	src/compile/emit.c src/compile/symbolic.c src/compile/tearing.c \
	src/compile/classify.c src/compile/equations.c src/compile/zeros.c src/compile/zero_calls.c \
	src/compile/structure.c src/compile/blocks.c \
	src/compile/build.c src/compile/dump.c src/compile/index.c src/compile/startpoint.c src/compile/constraints.c src/compile/alias.c \
	src/compile/func_calls.c src/compile/func_calls.h \
	src/compile/extlib.c src/compile/extlib.h src/compile/extcall.c src/compile/extcall.h \
	src/compile/algorithm.c src/compile/inline.c src/compile/message.c \
	src/compile/pattern.c src/compile/clocks.c \
	src/compile/statemachine.c

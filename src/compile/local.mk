# compile module: the equation compiler (flat model -> stiction_model)
libstiction_core_la_SOURCES += \
	src/compile/compile.h src/compile/model_impl.h \
	src/compile/bytecode.c src/compile/bytecode.h src/compile/peephole.c \
	src/compile/emit.c src/compile/symbolic.c \
	src/compile/classify.c src/compile/equations.c \
	src/compile/structure.c src/compile/blocks.c \
	src/compile/solve.c src/compile/minnorm.c src/compile/events.c \
	src/compile/init.c src/compile/model.c src/compile/runerror.c \
	src/compile/build.c src/compile/dump.c src/compile/index.c src/compile/alias.c \
	src/compile/dae.c src/compile/sparse_block.c src/compile/sparse_block.h \
	src/compile/function.c src/compile/function.h \
	src/compile/fcompile.c src/compile/fcompile.h src/compile/fvm.c src/compile/fvm_impl.h \
	src/compile/external.c src/compile/external.h \
	src/compile/algorithm.c src/compile/inline.c \
	src/compile/pattern.c src/compile/specialize.c \
	src/compile/tape.c src/compile/delay.c src/compile/delay.h

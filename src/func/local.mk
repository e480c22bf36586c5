# func module: Modelica function bodies compiled to a frame machine and run on it (the one
# function evaluator; front end and compiler both use it), the built-ins' derivative factors,
# and the external functions stiction provides itself.
libstiction_core_la_SOURCES += \
	src/func/builtin.c src/func/builtin.h \
	src/func/func_compile.c src/func/func_compile.h src/func/func_vm.c src/func/func_vm_impl.h \
	src/func/external.c src/func/external.h

# Built-in demo models (C, public API only; they double as embedding examples).
libstiction_core_la_SOURCES += src/demos/demo_impl.h src/demos/registry.c \
	src/demos/friction_block.c src/demos/leine_belt.c src/demos/bouncing_ball.c
pkginclude_HEADERS += include/stiction/demos.h
libstiction_core_la_SOURCES += src/demos/leine_belt_smooth.c

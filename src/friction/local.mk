# friction module: friction-law library (regularizations, Stribeck, Drake, IPC, LuGre).
pkginclude_HEADERS += include/stiction/friction.h
libstiction_core_la_SOURCES += \
	src/friction/friction_sign.c src/friction/friction_stribeck.c \
	src/friction/friction_karnopp.c src/friction/friction_drake.c src/friction/ipc_mollifier.c src/friction/ipc_smooth_mu.c \
	src/friction/lugre.c

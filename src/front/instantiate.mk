# front module, second half: library loading, lookup, instantiation and flattening
# (src/front/front.h). The parser's files are listed in src/front/local.mk.
libstiction_core_la_SOURCES += src/front/front.h src/front/inst.h src/front/front.c \
	src/front/libpath.c src/front/libpath.h src/front/nameindex.c src/front/nameindex.h \
	src/front/loader.c src/front/lookup.c \
	src/front/modifier.c src/front/instantiate.c src/front/builder.c src/front/flat_expr.c \
	src/front/flat_expr.h src/front/translate.c src/front/sections.c src/front/connect.c \
	src/front/func_translate.c src/front/interp.c \
	src/front/arrays.c src/front/records.c src/front/overconstrained.c src/front/inline.c \
	src/front/clockops.c src/front/operators.c

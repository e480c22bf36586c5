# front module, first half: Modelica lexer (flex), parser (bison), AST and its printer.
# parser.c/parser.h and lexer.c are generated in the build tree (see .gitignore).
AM_YFLAGS = -d -Wall -Wno-yacc
AM_LFLAGS =
BUILT_SOURCES += src/front/parser.h
libstiction_core_la_SOURCES += \
	src/front/ast.h src/front/ast.c \
	src/front/parse_impl.h src/front/parse.c \
	src/front/parser.y src/front/lexer.l

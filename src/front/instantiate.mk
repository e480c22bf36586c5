# front module, second half: library loading, lookup, instantiation and flattening
# (src/front/front.h). The parser's files are listed in src/front/local.mk.
